// The weights view: every constant tensor of the program, and for the one
// chosen its statistics and histogram.

import type { Model, WeightInfo } from 'trident-runtime';
import { statsOf } from '../stats/stats-client.js';
import { el, keyValueTable } from '../ui/dom.js';
import { formatBytes, formatNumber } from '../ui/format.js';
import { histogramElement } from '../ui/histogram.js';

/** Rows drawn at once: thousands of rows would stall the page for nothing. */
const ROWS_AT_ONCE = 300;

export class WeightsPanel {
  readonly #root: HTMLElement;
  #model: Model | null = null;
  #weights: WeightInfo[] = [];
  #list = el('tbody');
  #detail = el('div', { class: 'weight-detail', 'aria-live': 'polite' });
  #filter = el('input', { type: 'search', placeholder: 'Filter by name', 'aria-label': 'Filter weights' });
  #token = 0;

  constructor(root: HTMLElement) {
    this.#root = root;
    this.#filter.addEventListener('input', () => this.#renderList());
  }

  async show(model: Model): Promise<void> {
    this.#model = model;
    this.#root.replaceChildren(el('p', { class: 'muted', text: 'Reading the weights…' }));
    this.#weights = await model.weights();
    if (this.#model !== model) return;
    const total = this.#weights.reduce((n, w) => n + w.nbytes, 0);
    const summary = el('p', { class: 'summary', text: `${this.#weights.length} constant tensors, ${formatBytes(total)}` });
    const table = el(
      'table',
      { class: 'weights-table' },
      el('thead', {}, el('tr', {}, ...['name', 'dtype', 'shape', 'bytes', 'source'].map((h) => el('th', { text: h })))),
      this.#list,
    );
    this.#detail.replaceChildren(el('p', { class: 'muted', text: this.#weights.length ? 'Choose a tensor to see its values.' : 'This program has no constant tensors.' }));
    this.#root.replaceChildren(summary, this.#filter, el('div', { class: 'table-scroll' }, table), this.#detail);
    this.#renderList();
  }

  clear(): void {
    this.#model = null;
    this.#weights = [];
    this.#root.replaceChildren();
  }

  /** Shows the statistics of weight `name`. */
  async select(name: string): Promise<void> {
    const model = this.#model;
    const info = this.#weights.find((w) => w.name === name);
    if (!model || !info) return;
    for (const row of this.#list.querySelectorAll('tr')) row.classList.toggle('selected', row.dataset.name === name);
    const token = ++this.#token;
    this.#detail.replaceChildren(el('p', { class: 'muted', text: `Reading ${name}…` }));
    try {
      const tensor = await model.weight(name);
      const stats = await statsOf(tensor);
      if (token !== this.#token) return;
      const rows: [string, string][] = [
        ['name', info.name],
        ['dtype', info.dtype === tensor.dtype ? info.dtype : `${info.dtype} (read as ${tensor.dtype})`],
        ['shape', `[${info.shape.join(', ')}]`],
        ['bytes', formatBytes(info.nbytes)],
        ['source', info.source],
        ['min', formatNumber(stats.min)],
        ['max', formatNumber(stats.max)],
        ['mean', formatNumber(stats.mean)],
        ['std', formatNumber(stats.std)],
        ['zeros', `${(stats.zeros * 100).toFixed(2)}%`],
      ];
      if (stats.nonFinite) rows.push(['NaN / ±Inf', String(stats.nonFinite)]);
      this.#detail.replaceChildren(
        el('h3', { text: info.name }),
        keyValueTable(rows, 'kv weight-stats'),
        histogramElement(stats.histogram, stats.min, stats.max, `${stats.count} values`),
      );
    } catch (err) {
      if (token !== this.#token) return;
      this.#detail.replaceChildren(el('p', { class: 'error-text', role: 'alert', text: (err as Error).message }));
    }
  }

  #renderList(limit = ROWS_AT_ONCE): void {
    const q = this.#filter.value.trim().toLowerCase();
    const matching = this.#weights.filter((w) => !q || w.name.toLowerCase().includes(q));
    const rows = matching
      .slice(0, limit)
      .map((w) => {
        const row = el(
          'tr',
          { 'data-name': w.name, tabindex: 0 },
          el('td', { class: 'name', text: w.name, title: w.name }),
          el('td', { text: w.dtype }),
          el('td', { text: `[${w.shape.join(', ')}]` }),
          el('td', { class: 'num', text: formatBytes(w.nbytes) }),
          el('td', { text: w.source }),
        );
        row.addEventListener('click', () => void this.select(w.name));
        row.addEventListener('keydown', (e) => e.key === 'Enter' && void this.select(w.name));
        return row;
      });
    if (matching.length > limit) {
      const more = el('button', { type: 'button', class: 'link', text: `show ${Math.min(matching.length - limit, ROWS_AT_ONCE)} more of ${matching.length - limit}` });
      more.addEventListener('click', () => this.#renderList(limit + ROWS_AT_ONCE));
      rows.push(el('tr', {}, el('td', { colspan: 5 }, more)));
    }
    this.#list.replaceChildren(...rows);
  }
}
