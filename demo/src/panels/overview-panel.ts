// The model overview: format, methods with their signatures, delegates,
// operator counts, memory, and the runtime build serving it.

import { formatValueInfo, runtimeInfo, type Model } from 'trident-runtime';
import { graphOf } from '../graph/graph-cache.js';
import { shortOp } from '../graph/view-graph.js';
import { el, keyValueTable } from '../ui/dom.js';
import { formatBytes } from '../ui/format.js';

export interface OpenedFile {
  name: string;
  bytes?: number;
  /** The format's own version, from the file's first bytes, where it has one. */
  version?: string;
  dataFiles: string[];
  description?: string;
}

const FORMAT_NAMES: Record<string, string> = {
  pte: 'ExecuTorch program (.pte)',
  bpte: 'ExecuTorch bundled program (.bpte)',
  pt2: 'PyTorch export archive (.pt2)',
  bef: 'TFRT Binary Executable Format (.bef)',
  mlir: 'TFRT MLIR (compiled to BEF in the page)',
};

export async function renderOverview(root: HTMLElement, model: Model, file: OpenedFile): Promise<void> {
  const [weights, info] = await Promise.all([model.weights(), runtimeInfo(model)]);
  const constantBytes = weights.reduce((n, w) => n + w.nbytes, 0);
  const fileRows: [string, string][] = [
    ['file', file.name + (file.dataFiles.length ? ` + ${file.dataFiles.join(', ')}` : '')],
    ['format', FORMAT_NAMES[model.format] ?? model.format],
  ];
  if (file.version) fileRows.push(['version', file.version]);
  if (file.bytes !== undefined) fileRows.push(['size', formatBytes(file.bytes)]);
  fileRows.push(['constants', `${weights.length} tensors, ${formatBytes(constantBytes)}`]);
  const isolated = globalThis.crossOriginIsolated === true;
  const why = info.threads
    ? `the page is cross-origin isolated, so shared memory exists`
    : isolated ? 'threads were not asked for' : 'the page is not cross-origin isolated (no COOP/COEP headers), so there is no shared memory';
  fileRows.push([
    'runtime',
    `Trident ${info.version}, ${info.threads ? `threads build (${info.numThreads} threads)` : 'single-threaded build'}${info.worker ? ', in a worker' : ''}: ${why}`,
  ]);
  fileRows.push(['wasm memory', formatBytes(info.memoryBytes)]);

  const methods = await Promise.all(model.methods.map(async (m) => ({ method: m, graph: await graphOf(model, m.name) })));
  const methodCards = methods.map(({ method, graph }) => {
    const counts = new Map<string, number>();
    const countOps = (nodes: typeof graph.nodes) => {
      for (const n of nodes) if (n.kind !== 'free') counts.set(shortOp(n.op), (counts.get(shortOp(n.op)) ?? 0) + 1);
    };
    countOps(graph.nodes);
    const list = (values: typeof method.inputs) => values.map(formatValueInfo).join(', ') || 'nothing';
    const rows: [string, string][] = [['signature', `(${list(method.inputs)}) → (${list(method.outputs)})`]];
    if (method.instructions !== undefined) rows.push(['instructions', String(method.instructions)]);
    if (method.plannedBytes !== undefined) rows.push(['planned memory', `${formatBytes(method.plannedBytes)}${method.memoryPlan ? ` (${method.memoryPlan === 'file' ? "the file's plan" : 'planned again by lifetimes'})` : ''}`]);
    for (const d of method.delegates) {
      rows.push([`delegate ${d.backend}`, Object.entries(d.nodeCounts).map(([k, v]) => `${k} ${v}`).join(', ')]);
    }
    const ops = [...counts].sort((a, b) => b[1] - a[1]);
    const opTable = el(
      'table',
      { class: 'op-counts' },
      el('tbody', {}, ...ops.map(([op, n]) => el('tr', {}, el('td', { text: op }), el('td', { class: 'num', text: String(n) })))),
    );
    return el('section', { class: 'method-card', 'data-method': method.name }, el('h3', { text: method.name }), keyValueTable(rows), el('h4', { text: `Operators (${graph.nodes.filter((n) => n.kind !== 'free').length})` }), opTable);
  });
  root.replaceChildren(
    ...(file.description ? [el('p', { class: 'sample-description', text: file.description })] : []),
    keyValueTable(fileRows, 'kv file-info'),
    ...methodCards,
  );
}

/** The version a file's first bytes state: .pte/.bpte flatbuffer identifiers, BEF's version byte. */
export function versionFromHeader(head: Uint8Array, format: string): string | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if ((format === 'pte' || format === 'bpte') && head.length >= 8) {
    const id = ascii(4, 8);
    return /^[A-Z]{2}\d\d$/.test(id) ? `${id} (flatbuffer identifier)` : undefined;
  }
  if (format === 'bef' && head.length >= 3) return `BEF version ${head[2]}`;
  return undefined;
}
