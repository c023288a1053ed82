// The graph pane: one method's graph, laid out in the worker and drawn part
// by part; boxes expand into their subgraphs; Find, fit, zoom and export.

import type { Graph, Model } from 'trident-runtime';
import { download } from '../ui/download.js';
import { el } from '../ui/dom.js';
import { graphOf } from './graph-cache.js';
import { GraphView } from './graph-view.js';
import { cancelLayout, requestLayout } from './layout-client.js';
import { allBoxes, buildBoxes, shortOp, type Box, type BoxGraph } from './view-graph.js';

export interface GraphPanelEvents {
  select(box: Box | null): void;
  /** The graph of the method shown is ready (the first part is drawn). */
  shown(graph: Graph): void;
}

export interface LayoutTiming {
  nodes: number;
  /** From asking the runtime for the graph to the first part on screen. */
  firstPaintMs: number;
  /** To the last part. */
  layoutMs?: number;
}

export class GraphPanel {
  readonly view: GraphView;
  readonly #status: HTMLElement;
  readonly #events: GraphPanelEvents;
  #model: Model | null = null;
  #method = '';
  #graph: Graph | null = null;
  #boxes: BoxGraph = { boxes: [], arrows: [] };
  #expanded = new Set<string>();
  #token = 0;
  timing: LayoutTiming | null = null;

  constructor(svg: SVGSVGElement, status: HTMLElement, events: GraphPanelEvents) {
    this.#status = status;
    this.#events = events;
    this.view = new GraphView(svg, {
      select: (box) => events.select(box),
      toggle: (box) => this.toggle(box),
    });
  }

  get graph(): Graph | null {
    return this.#graph;
  }

  get method(): string {
    return this.#method;
  }

  /** Every box of the graph shown, inside expanded boxes too. */
  boxes(): Box[] {
    return [...allBoxes(this.#boxes)];
  }

  clear(): void {
    cancelLayout();
    this.#token++;
    this.#model = null;
    this.#graph = null;
    this.#boxes = { boxes: [], arrows: [] };
    this.view.reset([], []);
    this.#status.textContent = '';
  }

  async show(model: Model, method: string): Promise<void> {
    const token = ++this.#token;
    this.#model = model;
    this.#method = method;
    this.#expanded = new Set();
    this.#status.textContent = `Reading the graph of ${method}…`;
    const start = performance.now();
    const graph = await graphOf(model, method);
    // Each step below takes tens of milliseconds on a 5,000-node graph: let the page paint between them.
    await yieldToPage();
    if (token !== this.#token) return;
    this.#graph = graph;
    await this.#layout(start);
    this.#events.shown(graph);
  }

  /** Opens or closes a box's subgraphs (a delegate, a BEF kernel's regions). */
  toggle(box: Box): void {
    if (!box.subgraphs) return;
    if (this.#expanded.has(box.id)) this.#expanded.delete(box.id);
    else this.#expanded.add(box.id);
    void this.#layout(performance.now(), box.id);
  }

  isExpanded(id: string): boolean {
    return this.#expanded.has(id);
  }

  expandAll(expand: boolean): void {
    if (!this.#graph) return;
    this.#expanded = new Set(expand ? this.everyBox().filter((b) => b.subgraphs).map((b) => b.id) : []);
    void this.#layout(performance.now());
  }

  /** Makes `box` visible: opens the boxes around it, then centers it. */
  reveal(box: Box): void {
    const closed = box.parents.filter((p) => !this.#expanded.has(p));
    if (closed.length === 0) {
      this.view.select(box.id, true);
      return;
    }
    for (const p of closed) this.#expanded.add(p);
    void this.#layout(performance.now(), box.id);
  }

  /** A box by id, in the current (expanded) graph. */
  box(id: string): Box | undefined {
    return this.boxes().find((b) => b.id === id);
  }

  /** Boxes whose operator, label or value names contain `query` (case-insensitive), inside closed subgraphs too. */
  find(query: string): Box[] {
    const q = query.trim().toLowerCase();
    if (!q) return [];
    return this.everyBox().filter((b) => matches(b, q));
  }

  /** Every box there would be with every box open (ids as they are when opened). */
  everyBox(): Box[] {
    if (!this.#graph) return [];
    const everything = new Set(this.#expanded);
    let boxes = buildBoxes(this.#graph, this.#graph, { expanded: everything });
    for (let depth = 0; depth < 8; depth++) {
      const before = everything.size;
      for (const b of allBoxes(boxes)) if (b.subgraphs) everything.add(b.id);
      if (everything.size === before) break;
      boxes = buildBoxes(this.#graph, this.#graph, { expanded: everything });
    }
    return [...allBoxes(boxes)];
  }

  exportSvg(): string {
    return this.view.toSvg(document.documentElement.dataset.theme === 'dark');
  }

  async exportPng(): Promise<Blob> {
    const svg = this.exportSvg();
    const image = new Image();
    const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    try {
      image.src = url;
      await image.decode();
      // Canvases over ~16k pixels a side fail in Chromium: scale big graphs down.
      const scale = Math.min(2, 16000 / Math.max(image.width, image.height, 1));
      const canvas = el('canvas');
      canvas.width = Math.max(1, Math.round(image.width * scale));
      canvas.height = Math.max(1, Math.round(image.height * scale));
      canvas.getContext('2d')!.drawImage(image, 0, 0, canvas.width, canvas.height);
      return await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the PNG could not be made'))), 'image/png'));
    } finally {
      URL.revokeObjectURL(url);
    }
  }

  downloadSvg(name: string): void {
    download(new Blob([this.exportSvg()], { type: 'image/svg+xml' }), `${name}.svg`);
  }

  async downloadPng(name: string): Promise<void> {
    download(await this.exportPng(), `${name}.png`);
  }

  async #layout(start: number, focus?: string): Promise<void> {
    if (!this.#graph) return;
    const token = ++this.#token;
    this.#boxes = buildBoxes(this.#graph, this.#graph, { expanded: this.#expanded });
    const boxes = this.boxes();
    this.view.reset(boxes, boxes.length ? allArrows(this.#boxes) : []);
    await yieldToPage();
    if (token !== this.#token) return;
    const count = boxes.length;
    this.#status.textContent = `Laying out ${count} boxes…`;
    let first = true;
    requestLayout(this.#boxes, {
      part: (nodes, edges, final, ms) => {
        if (token !== this.#token) return;
        this.view.add(nodes, edges);
        if (first) {
          first = false;
          // Time to first paint: the part is drawn at the next frame.
          requestAnimationFrame(() => {
            this.timing = { nodes: count, firstPaintMs: performance.now() - start };
            this.view.svg.dataset.firstPaintMs = this.timing.firstPaintMs.toFixed(0);
          });
        }
        if (final) {
          const layoutMs = performance.now() - start;
          requestAnimationFrame(() => {
            this.timing = { ...(this.timing ?? { nodes: count, firstPaintMs: layoutMs }), layoutMs };
            this.view.svg.dataset.layoutMs = layoutMs.toFixed(0);
            this.view.svg.dataset.boxes = String(count);
          });
          this.#status.textContent = `${this.#method}: ${describeCount(this.#graph!)}; laid out in ${(ms / 1000).toFixed(2)} s`;
          if (focus) this.view.select(focus, true);
          else if (count <= 600) this.view.initialView();
        } else {
          this.#status.textContent = `Laying out ${count} boxes… ${this.view.placedCount} placed`;
        }
      },
      error: (message) => {
        this.#status.textContent = `Layout failed: ${message}`;
      },
    });
    delete this.view.svg.dataset.layoutMs;
    delete this.view.svg.dataset.firstPaintMs;
  }
}

/** A macrotask boundary: the page may paint and handle input before the next step. */
function yieldToPage(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function allArrows(graph: BoxGraph): { id: string; label: string }[] {
  const out: { id: string; label: string }[] = [...graph.arrows];
  for (const box of graph.boxes) if (box.inner) out.push(...allArrows(box.inner));
  return out;
}

function describeCount(graph: Graph): string {
  const sub = graph.subgraphs.reduce((n, g) => n + g.nodes.length, 0);
  return `${graph.nodes.length} nodes${sub ? ` (+${sub} in ${graph.subgraphs.length} subgraph${graph.subgraphs.length === 1 ? '' : 's'})` : ''}`;
}

function matches(box: Box, q: string): boolean {
  if (box.label.toLowerCase().includes(q)) return true;
  if (box.node && (box.node.op.toLowerCase().includes(q) || shortOp(box.node.op).toLowerCase().includes(q))) return true;
  const values = box.node ? [...box.node.inputs, ...box.node.outputs].map((p) => p.value) : [box.value];
  return values.some((v) => {
    if (v === undefined) return false;
    const value = box.graph.values[v];
    return value !== undefined && (value.name.toLowerCase() === q || value.name.toLowerCase().includes(q) || (value.weight?.toLowerCase().includes(q) ?? false));
  });
}
