// Draws a laid-out graph in an <svg>, only what is on screen.
//
// The page may hold thousands of boxes; putting each in the DOM costs more
// than laying them out. So the view keeps every box and edge in a grid
// index and writes SVG for the ones near the viewport, again only when the
// view leaves the area last drawn or crosses a zoom level. Zoomed far out,
// boxes and edges are drawn as a few <path>s with no text (too small to read
// anyway).

import type { Placed, Routed } from './layout-protocol.js';
import type { Box } from './view-graph.js';

const CELL = 512;
const DETAIL_SCALE = 0.35;
const EDGE_LABEL_SCALE = 0.75;
const MAX_DETAIL_BOXES = 2500;
const SVG_NS = 'http://www.w3.org/2000/svg';

interface Drawn {
  rect: Rect;
  detail: boolean;
  edgeLabels: boolean;
}

interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

interface EdgeEntry extends Routed {
  rect: Rect;
  label: string;
  order: number;
}

export interface GraphViewEvents {
  select(box: Box | null): void;
  toggle(box: Box): void;
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export class GraphView {
  readonly svg: SVGSVGElement;
  readonly #layer: SVGGElement;
  readonly #events: GraphViewEvents;
  #boxes = new Map<string, Box>();
  #order = new Map<string, number>();
  #placed = new Map<string, Placed>();
  #edges = new Map<string, EdgeEntry>();
  #labels = new Map<string, string>();
  #nodeGrid = new Map<string, string[]>();
  #edgeGrid = new Map<string, string[]>();
  #bounds: Rect = { x0: 0, y0: 0, x1: 0, y1: 0 };
  #scale = 1;
  #tx = 0;
  #ty = 0;
  #drawn: Drawn | null = null;
  #frame = 0;
  #selected: string | null = null;
  #matches = new Set<string>();
  #fills = new Map<string, string>();
  #fitted = false;

  constructor(svg: SVGSVGElement, events: GraphViewEvents) {
    this.svg = svg;
    this.#events = events;
    svg.innerHTML = `<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrow-head"/></marker></defs>`;
    this.#layer = document.createElementNS(SVG_NS, 'g');
    svg.append(this.#layer);
    this.#wire();
  }

  /** Forgets the graph (a new one is coming). */
  reset(boxes: Iterable<Box>, arrows: Iterable<{ id: string; label: string }>): void {
    this.#boxes = new Map();
    this.#order = new Map();
    let i = 0;
    for (const box of boxes) {
      this.#boxes.set(box.id, box);
      this.#order.set(box.id, i++);
    }
    this.#labels = new Map([...arrows].map((a) => [a.id, a.label]));
    this.#placed = new Map();
    this.#edges = new Map();
    this.#nodeGrid = new Map();
    this.#edgeGrid = new Map();
    this.#bounds = { x0: 0, y0: 0, x1: 0, y1: 0 };
    this.#drawn = null;
    this.#fitted = false;
    this.#selected = null;
    this.#matches = new Set();
    this.#layer.replaceChildren();
  }

  /** A part of the layout arrived: index it, and draw it if it is on screen. */
  add(nodes: Placed[], edges: Routed[]): void {
    const empty = this.#placed.size === 0;
    for (const node of nodes) {
      this.#placed.set(node.id, node);
      const rect = { x0: node.x, y0: node.y, x1: node.x + node.width, y1: node.y + node.height };
      this.#index(this.#nodeGrid, node.id, rect);
      this.#grow(rect);
    }
    for (const edge of edges) {
      if (edge.points.length < 4) continue;
      const rect = bbox(edge.points);
      const order = this.#edges.size;
      this.#edges.set(edge.id, { ...edge, rect, label: this.#labels.get(edge.id) ?? '', order });
      this.#index(this.#edgeGrid, edge.id, rect);
    }
    if (empty && !this.#fitted) this.#fitTop();
    this.#drawn = null;
    this.#schedule();
  }

  get placedCount(): number {
    return this.#placed.size;
  }

  /** Ids of the boxes drawn in the DOM now (for tests and the status line). */
  get drawnIds(): string[] {
    return [...this.#layer.querySelectorAll<SVGGElement>('g.box')].map((g) => g.dataset.id!);
  }

  select(id: string | null, reveal = false): void {
    // In place: redrawing between the two clicks of a double click would lose it.
    this.#element(this.#selected)?.classList.remove('selected');
    this.#selected = id;
    this.#element(id)?.classList.add('selected');
    if (id !== null && reveal) this.centerOn(id);
  }

  #element(id: string | null): SVGGElement | null {
    return id === null ? null : this.#layer.querySelector<SVGGElement>(`g.box[data-id="${CSS.escape(id)}"]`);
  }

  setMatches(ids: Iterable<string>): void {
    this.#matches = new Set(ids);
    this.#drawn = null;
    this.#schedule();
  }

  /** Paints boxes (a profile): id → CSS color; empty map clears. */
  setFills(fills: Map<string, string>): void {
    this.#fills = fills;
    this.svg.dataset.painted = String(fills.size);
    this.#drawn = null;
    this.#schedule();
  }

  centerOn(id: string): void {
    const p = this.#placed.get(id);
    if (!p) return;
    const { width, height } = this.svg.getBoundingClientRect();
    this.#scale = Math.max(this.#scale, 0.9);
    this.#tx = width / 2 - (p.x + p.width / 2) * this.#scale;
    this.#ty = height / 2 - (p.y + p.height / 2) * this.#scale;
    this.#apply();
  }

  /**
   * The first view of a finished layout: all of it when that stays
   * readable, else the top of it as wide as the pane allows (a long chain
   * fitted whole is a thread of specks).
   */
  initialView(): void {
    const { whole, width, w } = this.#extent();
    if (whole >= 0.45) {
      this.fit();
      return;
    }
    this.#place(Math.max(0.45, Math.min(1, (width - 40) / w)), 'top');
  }

  fit(): void {
    this.#place(this.#extent().whole, 'center');
  }

  /** The pane's size, the graph's, and the scale that shows all of it. */
  #extent(): { width: number; height: number; w: number; h: number; whole: number } {
    const { width, height } = this.svg.getBoundingClientRect();
    const w = Math.max(this.#bounds.x1 - this.#bounds.x0, 1);
    const h = Math.max(this.#bounds.y1 - this.#bounds.y0, 1);
    return { width, height, w, h, whole: Math.min((width - 40) / w, (height - 40) / h, 1.5) };
  }

  /** The graph at `scale`, centered across, and centered or at the top down. */
  #place(scale: number, vertical: 'center' | 'top'): void {
    const { width, height, w, h } = this.#extent();
    const b = this.#bounds;
    this.#scale = scale;
    this.#tx = (width - w * scale) / 2 - b.x0 * scale;
    this.#ty = vertical === 'top' ? 20 - b.y0 * scale : (height - h * scale) / 2 - b.y0 * scale;
    this.#apply();
  }

  zoom(factor: number, cx?: number, cy?: number): void {
    const { width, height } = this.svg.getBoundingClientRect();
    const x = cx ?? width / 2;
    const y = cy ?? height / 2;
    const scale = Math.min(Math.max(this.#scale * factor, 0.01), 4);
    this.#tx = x - ((x - this.#tx) * scale) / this.#scale;
    this.#ty = y - ((y - this.#ty) * scale) / this.#scale;
    this.#scale = scale;
    this.#apply();
  }

  get scale(): number {
    return this.#scale;
  }

  /** The whole graph as a standalone SVG document (every box and label, styled inline). */
  toSvg(dark: boolean): string {
    const b = this.#bounds;
    const pad = 20;
    const w = b.x1 - b.x0 + 2 * pad;
    const h = b.y1 - b.y0 + 2 * pad;
    const colors = dark
      ? { bg: '#1e1f22', ink: '#e6e6e6', edge: '#8a8f98', box: '#2b2d31', stroke: '#6b7280' }
      : { bg: '#ffffff', ink: '#1f2328', edge: '#8a8f98', box: '#f3f4f6', stroke: '#9ca3af' };
    const parts = [
      `<svg xmlns="${SVG_NS}" width="${w}" height="${h}" viewBox="${b.x0 - pad} ${b.y0 - pad} ${w} ${h}" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="12">`,
      `<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${colors.edge}"/></marker></defs>`,
      `<rect x="${b.x0 - pad}" y="${b.y0 - pad}" width="${w}" height="${h}" fill="${colors.bg}"/>`,
    ];
    for (const e of [...this.#edges.values()].sort((a, c) => a.order - c.order)) {
      parts.push(`<path d="${pathOf(e.points)}" fill="none" stroke="${colors.edge}" marker-end="url(#arrow)"/>`);
    }
    for (const id of this.#sortedIds(this.#placed.keys())) {
      const p = this.#placed.get(id)!;
      const box = this.#boxes.get(id);
      const fill = box?.inner ? 'none' : (this.#fills.get(id) ?? KIND_FILL[box?.kind ?? 'op'] ?? colors.box);
      parts.push(
        `<g transform="translate(${r(p.x)},${r(p.y)})"><rect width="${r(p.width)}" height="${r(p.height)}" rx="5" fill="${fill}" stroke="${colors.stroke}"/>` +
          `<text x="10" y="16" fill="${box?.inner ? colors.ink : '#111'}">${escapeXml(box?.label ?? id)}</text>` +
          (box?.detail && !box.inner ? `<text x="10" y="32" fill="#333">${escapeXml(box.detail)}</text>` : '') +
          '</g>',
      );
    }
    parts.push('</svg>');
    return parts.join('\n');
  }

  #fitTop(): void {
    // First paint: the top of the graph at a readable scale (the rest is still being laid out).
    const { width } = this.svg.getBoundingClientRect();
    this.#scale = 1;
    this.#tx = width / 2;
    this.#ty = 20 - this.#bounds.y0;
    this.#fitted = true;
    this.#apply();
  }

  #grow(rect: Rect): void {
    const b = this.#bounds;
    if (this.#placed.size === 1) {
      this.#bounds = { ...rect };
      return;
    }
    b.x0 = Math.min(b.x0, rect.x0);
    b.y0 = Math.min(b.y0, rect.y0);
    b.x1 = Math.max(b.x1, rect.x1);
    b.y1 = Math.max(b.y1, rect.y1);
  }

  #index(grid: Map<string, string[]>, id: string, rect: Rect): void {
    const cx0 = Math.floor(rect.x0 / CELL);
    const cx1 = Math.floor(rect.x1 / CELL);
    const cy0 = Math.floor(rect.y0 / CELL);
    const cy1 = Math.floor(rect.y1 / CELL);
    for (let cx = cx0; cx <= cx1; cx++) {
      for (let cy = cy0; cy <= cy1; cy++) {
        const key = `${cx},${cy}`;
        const list = grid.get(key);
        if (list) list.push(id);
        else grid.set(key, [id]);
      }
    }
  }

  #query(grid: Map<string, string[]>, rect: Rect): Set<string> {
    const found = new Set<string>();
    for (let cx = Math.floor(rect.x0 / CELL); cx <= Math.floor(rect.x1 / CELL); cx++) {
      for (let cy = Math.floor(rect.y0 / CELL); cy <= Math.floor(rect.y1 / CELL); cy++) {
        for (const id of grid.get(`${cx},${cy}`) ?? []) found.add(id);
      }
    }
    return found;
  }

  #viewRect(margin: number): Rect {
    const { width, height } = this.svg.getBoundingClientRect();
    const x0 = -this.#tx / this.#scale;
    const y0 = -this.#ty / this.#scale;
    const w = width / this.#scale;
    const h = height / this.#scale;
    return { x0: x0 - w * margin, y0: y0 - h * margin, x1: x0 + w * (1 + margin), y1: y0 + h * (1 + margin) };
  }

  #apply(): void {
    this.#layer.setAttribute('transform', `matrix(${this.#scale},0,0,${this.#scale},${this.#tx},${this.#ty})`);
    this.svg.dataset.scale = this.#scale.toFixed(3);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#draw();
    });
  }

  #draw(): void {
    const view = this.#viewRect(0);
    const detail = this.#scale >= DETAIL_SCALE;
    const edgeLabels = this.#scale >= EDGE_LABEL_SCALE;
    const d = this.#drawn;
    if (d && d.detail === detail && d.edgeLabels === edgeLabels && contains(d.rect, view)) return;
    const rect = this.#viewRect(0.5);
    const ids = this.#sortedIds(this.#query(this.#nodeGrid, rect));
    const edges = [...this.#query(this.#edgeGrid, rect)].map((id) => this.#edges.get(id)!).filter((e) => intersects(e.rect, rect));
    const html = detail && ids.length <= MAX_DETAIL_BOXES ? this.#detailSvg(ids, edges, edgeLabels) : this.#overviewSvg(ids, edges);
    this.#layer.innerHTML = html;
    this.#drawn = { rect, detail, edgeLabels };
    this.svg.dataset.drawn = String(ids.length);
  }

  #sortedIds(ids: Iterable<string>): string[] {
    return [...ids].sort((a, b) => (this.#order.get(a) ?? 0) - (this.#order.get(b) ?? 0));
  }

  #detailSvg(ids: string[], edges: EdgeEntry[], edgeLabels: boolean): string {
    const out: string[] = [];
    const boxes: string[] = [];
    const clusters: string[] = [];
    for (const id of ids) {
      const p = this.#placed.get(id)!;
      const box = this.#boxes.get(id);
      const classes = ['box', `k-${box?.kind ?? 'op'}`];
      if (box?.inner) classes.push('cluster');
      if (box?.subgraphs && !box.inner) classes.push('expandable');
      if (id === this.#selected) classes.push('selected');
      if (this.#matches.has(id)) classes.push('match');
      // A box holding an opened subgraph keeps its own look: its nodes carry the colors.
      const fill = box?.inner ? undefined : this.#fills.get(id);
      const style = fill ? ` style="fill:${fill}"` : '';
      const label = box?.inner ? `${box.label} ▾` : (box?.label ?? id);
      const svg =
        `<g class="${classes.join(' ')}" data-id="${escapeXml(id)}" transform="translate(${r(p.x)},${r(p.y)})">` +
        `<rect width="${r(p.width)}" height="${r(p.height)}" rx="5"${style}/>` +
        `<text x="10" y="16">${escapeXml(label)}</text>` +
        (box?.detail && !box.inner ? `<text class="detail" x="10" y="32">${escapeXml(box.detail)}</text>` : '') +
        '</g>';
      (box?.inner ? clusters : boxes).push(svg);
    }
    out.push(...clusters);
    for (const e of edges) out.push(`<path class="edge" d="${pathOf(e.points)}" marker-end="url(#arrow)"/>`);
    if (edgeLabels) {
      for (const e of edges) {
        if (!e.label) continue;
        const [x, y] = midpoint(e.points);
        out.push(`<text class="edge-label" x="${r(x + 4)}" y="${r(y)}">${escapeXml(e.label)}</text>`);
      }
    }
    out.push(...boxes);
    return out.join('');
  }

  #overviewSvg(ids: string[], edges: EdgeEntry[]): string {
    const byClass = new Map<string, string[]>();
    for (const id of ids) {
      const p = this.#placed.get(id)!;
      const box = this.#boxes.get(id);
      const fill = this.#fills.get(id);
      const key = box?.inner ? 'cluster' : fill ? `fill:${fill}` : `k-${box?.kind ?? 'op'}`;
      const d = `M${r(p.x)},${r(p.y)}h${r(p.width)}v${r(p.height)}h${r(-p.width)}z`;
      const list = byClass.get(key);
      if (list) list.push(d);
      else byClass.set(key, [d]);
    }
    const out = [`<path class="edge overview" d="${edges.map((e) => pathOf(e.points)).join('')}"/>`];
    for (const [key, ds] of byClass) {
      const attrs = key.startsWith('fill:') ? `class="overview-box" style="${key}"` : `class="overview-box ${key}"`;
      out.push(`<path ${attrs} d="${ds.join('')}"/>`);
    }
    return out.join('');
  }

  #wire(): void {
    let drag: { x: number; y: number; tx: number; ty: number; moved: boolean } | null = null;
    this.svg.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      drag = { x: e.clientX, y: e.clientY, tx: this.#tx, ty: this.#ty, moved: false };
    });
    this.svg.addEventListener('pointermove', (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) > 3) {
        drag.moved = true;
        // Captured only once it is a drag: a capture would retarget clicks (and double clicks) to the svg.
        this.svg.setPointerCapture(e.pointerId);
      }
      if (!drag.moved) return;
      this.#tx = drag.tx + dx;
      this.#ty = drag.ty + dy;
      this.#apply();
    });
    this.svg.addEventListener('pointerup', (e) => {
      const wasDrag = drag?.moved;
      drag = null;
      if (wasDrag) return;
      const target = (e.target as Element).closest?.('g.box') as SVGGElement | null;
      const box = target ? (this.#boxes.get(target.dataset.id!) ?? null) : null;
      this.#events.select(box);
    });
    this.svg.addEventListener('dblclick', (e) => {
      const target = (e.target as Element).closest?.('g.box') as SVGGElement | null;
      const box = target ? this.#boxes.get(target.dataset.id!) : undefined;
      if (box?.subgraphs) this.#events.toggle(box);
    });
    this.svg.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const rect = this.svg.getBoundingClientRect();
        if (e.ctrlKey || e.metaKey || !e.shiftKey) {
          this.zoom(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)), e.clientX - rect.left, e.clientY - rect.top);
        } else {
          this.#tx -= e.deltaX || e.deltaY;
          this.#apply();
        }
      },
      { passive: false },
    );
    new ResizeObserver(() => {
      this.#drawn = null;
      this.#schedule();
    }).observe(this.svg);
  }
}

/** Fills by box kind, for the exported SVG (the page styles them with CSS). */
const KIND_FILL: Record<string, string> = {
  op: '#e5e7eb',
  conv: '#bfdbfe',
  delegate: '#fde68a',
  control: '#e9d5ff',
  input: '#bbf7d0',
  output: '#fecaca',
  subgraph: '#fef3c7',
};

function r(v: number): number {
  return Math.round(v * 10) / 10;
}

function pathOf(points: number[]): string {
  let d = `M${r(points[0]!)},${r(points[1]!)}`;
  for (let i = 2; i < points.length; i += 2) d += `L${r(points[i]!)},${r(points[i + 1]!)}`;
  return d;
}

function midpoint(points: number[]): [number, number] {
  const n = points.length / 2;
  const i = Math.floor(n / 2);
  if (n % 2 === 1) return [points[2 * i]!, points[2 * i + 1]!];
  return [(points[2 * i - 2]! + points[2 * i]!) / 2, (points[2 * i - 1]! + points[2 * i + 1]!) / 2];
}

function bbox(points: number[]): Rect {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < points.length; i += 2) {
    x0 = Math.min(x0, points[i]!);
    x1 = Math.max(x1, points[i]!);
    y0 = Math.min(y0, points[i + 1]!);
    y1 = Math.max(y1, points[i + 1]!);
  }
  return { x0, y0, x1, y1 };
}

function contains(outer: Rect, inner: Rect): boolean {
  return outer.x0 <= inner.x0 && outer.y0 <= inner.y0 && outer.x1 >= inner.x1 && outer.y1 >= inner.y1;
}

function intersects(a: Rect, b: Rect): boolean {
  return a.x0 <= b.x1 && a.x1 >= b.x0 && a.y0 <= b.y1 && a.y1 >= b.y0;
}
