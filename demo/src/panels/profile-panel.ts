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

/** Box times of a profile: each instruction's time on the box whose file instructions it runs. */
export function boxTimes(profile: RunProfile, boxes: Box[]): Map<string, number> {
  const boxOfSource = new Map<number, Box>();
  for (const box of boxes) for (const source of box.instructions) if (!boxOfSource.has(source)) boxOfSource.set(source, box);
  const times = new Map<string, number>();
  for (const ins of profile.instructions) {
    // A fused chain's time goes to the box of its first instruction (the convolution).
    const box = boxOfSource.get(ins.source);
    if (box) times.set(box.id, (times.get(box.id) ?? 0) + ins.ms);
  }
  return times;
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
  show(button: HTMLElement, profile: RunProfile | null, method: string, fused: (ins: InstructionProfile) => string | null): void {
    if (!profile) {
      this.#root.replaceChildren(button, el('p', { class: 'muted', text: `Runs ${method} once with the inputs chosen in Run, timing every instruction, and paints the graph by time.` }));
      return;
    }
    const byOp = new Map<string, OpRow>();
    for (const ins of profile.instructions) {
      const row = byOp.get(ins.name) ?? { name: ins.name, count: 0, calls: 0, ms: 0 };
      row.count++;
      row.calls += ins.calls;
      row.ms += ins.ms;
      byOp.set(ins.name, row);
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
      el('p', { class: 'profile-summary', text: `${method}: ${formatMs(profile.totalMs)} in all, ${formatMs(instructionsMs)} in ${profile.instructions.length} instructions` }),
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
