// The profile view: one click runs Model.profile() on the run view's inputs,
// then paints each graph box by its share of the time and lists operators
// by time in a sortable table.

import type { InstructionProfile, RunProfile } from 'trident-runtime';
import type { Box } from '../graph/view-graph.js';
import { el } from '../ui/dom.js';
import { formatMs } from '../ui/format.js';

interface OpRow {
  name: string;
  count: number;
  calls: number;
  ms: number;
}

type SortKey = keyof OpRow;

/**
 * Box times of a profile: each instruction's time on the box whose file
 * instructions it runs, and a delegate's node times on the boxes of its
 * subgraph (`boxes` should hold every box, opened or not: everyBox()).
 */
export function boxTimes(profile: RunProfile, boxes: Box[]): Map<string, number> {
  const boxOfSource = new Map<number, Box>();
  for (const box of boxes) for (const source of box.instructions) if (!boxOfSource.has(source)) boxOfSource.set(source, box);
  const inside = new Map<string, Box>();
  for (const box of boxes) {
    const parent = box.parents[box.parents.length - 1];
    if (parent !== undefined && box.node && box.graph.kind === 'delegate') inside.set(`${parent}#${box.node.index}`, box);
  }
  const times = new Map<string, number>();
  const add = (box: Box, ms: number) => times.set(box.id, (times.get(box.id) ?? 0) + ms);
  for (const ins of profile.instructions) {
    // A fused chain's time goes to the box of its first instruction (the convolution).
    const box = boxOfSource.get(ins.source);
    if (!box) continue;
    add(box, ins.ms);
    ins.nodes?.forEach((ms, k) => {
      const node = inside.get(`${box.id}#${k}`);
      if (node) add(node, ms);
    });
  }
  return times;
}

/** The box whose own time is the largest: a delegate's slowest node rather than the delegate. */
export function slowestBox(times: Map<string, number>, boxes: Box[]): Box | undefined {
  const timedInside = new Set(boxes.filter((b) => times.has(b.id)).flatMap((b) => b.parents));
  let best: Box | undefined;
  for (const box of boxes) {
    if (timedInside.has(box.id) || !times.has(box.id)) continue;
    if (!best || times.get(box.id)! > times.get(best.id)!) best = box;
  }
  return best;
}

/** Profiled runs per click; the panel shows their median. */
export const PROFILE_RUNS = 3;

/** Per instruction (and per delegate node), the median time over `runs` of the same method; totals likewise. */
export function medianProfile(runs: RunProfile[]): RunProfile {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const first = runs[0]!;
  const instructions: InstructionProfile[] = first.instructions.map((ins, k) => {
    const same = runs.map((r) => r.instructions[k]).filter((i): i is InstructionProfile => i?.index === ins.index);
    const nodes = ins.nodes?.map((_, n) => median(same.map((i) => i.nodes?.[n] ?? 0)));
    return { ...ins, ms: median(same.map((i) => i.ms)), ...(nodes ? { nodes } : {}) };
  });
  return { outputs: runs[runs.length - 1]!.outputs, totalMs: median(runs.map((r) => r.totalMs)), instructions };
}

/** A color from cool (little time) to hot (the most). */
export function heat(share: number): string {
  const s = Math.max(0, Math.min(1, share));
  return `hsl(${Math.round(210 - 210 * s)}, 85%, ${Math.round(88 - 38 * s)}%)`;
}

export class ProfilePanel {
  readonly #root: HTMLElement;
  #rows: OpRow[] = [];
  #sort: SortKey = 'ms';
  #descending = true;
  #table = el('table', { class: 'profile-table' });

  constructor(root: HTMLElement) {
    this.#root = root;
  }

  clear(message = 'Profile a method to see where its time goes.'): void {
    this.#root.replaceChildren(el('p', { class: 'muted', text: message }));
  }

  /** `button` runs the profile; the panel shows the result. */
  /**
   * `fused` notes what a fused instruction runs; `nodeOps` names a timed
   * delegate's nodes (their operators, by index), so that their times join
   * the operator table as "XnnpackBackend: Conv2d".
   */
  show(
    button: HTMLElement,
    profile: RunProfile | null,
    method: string,
    fused: (ins: InstructionProfile) => string | null,
    nodeOps: (ins: InstructionProfile) => string[] = () => [],
  ): void {
    if (!profile) {
      this.#root.replaceChildren(button, el('p', { class: 'muted', text: `Runs ${method} with the inputs chosen in Run (once to warm up, then ${PROFILE_RUNS} times timing every instruction: their median), and paints the graph by time.` }));
      return;
    }
    const byOp = new Map<string, OpRow>();
    for (const ins of profile.instructions) {
      const row = byOp.get(ins.name) ?? { name: ins.name, count: 0, calls: 0, ms: 0 };
      row.count++;
      row.calls += ins.calls;
      row.ms += ins.ms;
      byOp.set(ins.name, row);
      const ops = nodeOps(ins);
      ins.nodes?.forEach((ms, k) => {
        const name = `${ins.name}: ${ops[k] ?? `node ${k}`}`;
        const node = byOp.get(name) ?? { name, count: 0, calls: 0, ms: 0 };
        node.count++;
        node.calls += ins.calls;
        node.ms += ms;
        byOp.set(name, node);
      });
    }
    this.#rows = [...byOp.values()];
    const instructionsMs = profile.instructions.reduce((t, i) => t + i.ms, 0);
    const slowest = [...profile.instructions].sort((a, b) => b.ms - a.ms).slice(0, 10);
    const slowList = el(
      'ol',
      { class: 'slowest' },
      ...slowest.map((ins) => el('li', { 'data-index': ins.index, text: `#${ins.index} ${ins.name}: ${formatMs(ins.ms)}${fused(ins) ?? ''}` })),
    );
    this.#root.replaceChildren(
      button,
      el('p', { class: 'profile-summary', text: `${method}: ${formatMs(profile.totalMs)} in all, ${formatMs(instructionsMs)} in ${profile.instructions.length} instructions (median of ${PROFILE_RUNS} runs)` }),
      this.#table,
      el('h4', { text: 'Slowest instructions' }),
      slowList,
    );
    this.#renderTable(instructionsMs);
  }

  #renderTable(totalMs: number): void {
    const columns: [SortKey, string][] = [['name', 'operator'], ['count', 'inst.'], ['calls', 'calls'], ['ms', 'time']];
    const head = el(
      'tr',
      {},
      ...columns.map(([key, label]) => {
        const th = el('th', { class: `sortable${key === this.#sort ? ' sorted' : ''}`, 'data-key': key, tabindex: 0, text: `${label}${key === this.#sort ? (this.#descending ? ' ▾' : ' ▴') : ''}` });
        const sort = () => {
          this.#descending = key === this.#sort ? !this.#descending : key !== 'name';
          this.#sort = key;
          this.#renderTable(totalMs);
        };
        th.addEventListener('click', sort);
        th.addEventListener('keydown', (e) => e.key === 'Enter' && sort());
        return th;
      }),
      el('th', { text: 'share' }),
    );
    const rows = [...this.#rows].sort((a, b) => {
      const x = a[this.#sort];
      const y = b[this.#sort];
      const order = typeof x === 'string' ? x.localeCompare(y as string) : (x as number) - (y as number);
      return this.#descending ? -order : order;
    });
    const body = rows.map((r) => {
      const share = totalMs > 0 ? r.ms / totalMs : 0;
      const bar = el('span', { class: 'bar' });
      bar.style.width = `${Math.max(1, share * 100)}%`;
      bar.style.background = heat(share);
      return el(
        'tr',
        { 'data-op': r.name },
        el('td', { class: 'name', text: r.name }),
        el('td', { class: 'num', text: String(r.count) }),
        el('td', { class: 'num', text: String(r.calls) }),
        el('td', { class: 'num', text: formatMs(r.ms) }),
        el('td', { class: 'bar-cell', title: `${(share * 100).toFixed(1)}%` }, bar),
      );
    });
    this.#table.replaceChildren(el('thead', {}, head), el('tbody', {}, ...body));
  }
}
