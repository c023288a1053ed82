// Human-readable output of inspect and run (the --json forms are built in
// commands.mjs).

import { Tensor, formatValueInfo } from '../../dist/js/index-node.js';

const MAX_VALUES = 24;

export function formatInspect(file, model) {
  const rows = model.methods.map((m) => [
    m.name,
    m.inputs.map(formatValueInfo).join(', ') || '(none)',
    m.outputs.map(formatValueInfo).join(', ') || '(none)',
    String(m.instructions ?? ''),
    formatPlan(m),
  ]);
  const count = `${model.methods.length} method${model.methods.length === 1 ? '' : 's'}`;
  const sections = [`${file}: ${model.format}, ${count}`, table(['method', 'inputs', 'outputs', 'instructions', 'planned'], rows)];
  for (const m of model.methods) {
    m.delegates.forEach((d, i) => sections.push(formatDelegate(m.name, i, d)));
  }
  return sections.join('\n\n');
}

// "1.2 KiB" or, for lifetime-planned methods, "1.2 KiB of 3.4 KiB" (the
// arena against every intermediate apart).
function formatPlan(m) {
  if (m.plannedBytes === undefined) return '';
  if (m.intermediateBytes === undefined) return formatBytes(m.plannedBytes);
  return `${formatBytes(m.plannedBytes)} of ${formatBytes(m.intermediateBytes)}`;
}

// "forward: delegate 0 (XnnpackBackend), 5 nodes: Conv2d 1, ..." then a row per node.
function formatDelegate(method, index, delegate) {
  const counts = Object.entries(delegate.nodeCounts).map(([type, n]) => `${type} ${n}`).join(', ');
  const head = `${method}: delegate ${index} (${delegate.backend}), ${delegate.nodes.length} node${delegate.nodes.length === 1 ? '' : 's'}${counts ? `: ${counts}` : ''}`;
  if (delegate.nodes.length === 0) return head;
  const value = (v) => `${v.dtype}[${v.shape.join(', ')}]`;
  const rows = delegate.nodes.map((n, k) => [String(k), n.type, n.inputs.map(value).join(', '), n.outputs.map(value).join(', ')]);
  return `${head}\n${table(['node', 'type', 'inputs', 'outputs'], rows)}`;
}

// "forward: 152 nodes" then one line per node: index, operator, what it
// reads and writes; nested graphs follow, each once, indented.
export function formatGraph(graph) {
  const lines = [];
  const describe = (g, indent) => {
    const value = (port) => {
      if (port.value === undefined) return `${port.name ? `${port.name}=` : ''}${JSON.stringify(port.literal)}`;
      const v = g.values[port.value];
      const type = v.kind === 'tensor' ? `${v.dtype}[${(v.shape ?? []).join(', ')}]` : v.literal !== undefined ? JSON.stringify(v.literal) : v.kind;
      return `${port.name ? `${port.name}=` : ''}${v.name}:${type}${v.weight ? ` (${v.weight})` : ''}`;
    };
    lines.push(`${indent}${g.name || '(unnamed)'}: ${g.kind}, ${g.nodes.length} node${g.nodes.length === 1 ? '' : 's'}`);
    for (const n of g.nodes) {
      const extra = [];
      if (n.attributes && Object.keys(n.attributes).length > 0) extra.push(JSON.stringify(n.attributes));
      if (n.subgraphs) extra.push(`opens ${n.subgraphs.map((s) => graph.subgraphs[s].name || `#${s}`).join(', ')}`);
      if (n.lowered) extra.push(`lowered to ${n.lowered.length ? n.lowered.join(', ') : 'nothing'}`);
      if (n.jumpTo !== undefined) extra.push(`else to ${n.jumpTo}`);
      lines.push(`${indent}  ${n.index} ${n.op}(${n.inputs.map(value).join(', ')}) -> ${n.outputs.map(value).join(', ') || '()'}${extra.length ? `  ${extra.join('  ')}` : ''}`);
    }
  };
  describe(graph, '');
  for (const sub of graph.subgraphs) describe({ ...sub, subgraphs: graph.subgraphs }, '  ');
  return lines.join('\n');
}

export function formatWeights(weights) {
  const total = weights.reduce((sum, w) => sum + w.nbytes, 0);
  const rows = weights.map((w) => [w.name, w.dtype, `[${w.shape.join(', ')}]`, formatBytes(w.nbytes), w.source]);
  return `${weights.length} weight${weights.length === 1 ? '' : 's'}, ${formatBytes(total)}\n${table(['name', 'dtype', 'shape', 'bytes', 'source'], rows)}`;
}

export function formatRun(method, outputs, kinds, ms) {
  const lines = [`${method}: ${outputs.length} output${outputs.length === 1 ? '' : 's'} in ${ms.toFixed(3)} ms`];
  outputs.forEach((value, i) => lines.push(`  ${i}: ${formatValue(value, kinds[i])}`));
  return lines.join('\n');
}

/** --top: for each tensor output, its largest values with their flat indices. */
export function formatTop(tops) {
  const lines = [];
  tops.forEach((top, i) => {
    if (top === null) return;
    lines.push(`top ${top.length} of output ${i}:`);
    for (const { index, value } of top) lines.push(`  [${index}] ${value}`);
  });
  return lines.join('\n');
}

/** --bundled: one line per case, then the count. */
export function formatBundled(results) {
  const lines = results.map((r) =>
    r.ok
      ? `case ${r.index} (${r.method}): ok, max abs error ${r.maxAbsError.toExponential(2)}`
      : `case ${r.index} (${r.method}): FAILED: ${r.mismatch}`,
  );
  const failed = results.filter((r) => !r.ok).length;
  lines.push(`${results.length - failed} passed, ${failed} failed`);
  return lines.join('\n');
}

/** The per-operator totals of a profiled run, as a table. */
export function formatProfile(byOperator, totalMs) {
  const inKernels = byOperator.reduce((sum, t) => sum + t.ms, 0);
  const rows = byOperator.map((t) => [t.name, String(t.instructions), String(t.calls), t.ms.toFixed(3), `${((100 * t.ms) / totalMs).toFixed(1)}%`]);
  return [
    `profile: ${inKernels.toFixed(3)} ms in instructions of ${totalMs.toFixed(3)} ms for the call`,
    table(['operator', 'instructions', 'calls', 'ms', 'of call'], rows),
  ].join('\n');
}

function formatValue(value, kind) {
  if (value instanceof Tensor) {
    const values = value.toArray();
    const shown = values.slice(0, MAX_VALUES).map(String).join(', ');
    const more = values.length > MAX_VALUES ? `, ... (${values.length - MAX_VALUES} more)` : '';
    return `${value.dtype}[${value.shape.join(', ')}] = [${shown}${more}]`;
  }
  if (value === null) return 'None';
  const type = typeof value === 'bigint' ? 'Int' : typeof value === 'boolean' ? 'Bool' : typeof value === 'string' ? 'String' : kind ?? 'Double';
  return `${type} ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`;
}

function table(header, rows) {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells) => cells.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}
