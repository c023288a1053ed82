// The page's side of the layout worker: one worker for the page's life; a
// new request supersedes the one before (its late parts are dropped).

import type { LayoutGraph, LayoutReply, Placed, Routed } from './layout-protocol.js';
import type { BoxGraph } from './view-graph.js';

export interface LayoutCallbacks {
  part(nodes: Placed[], edges: Routed[], final: boolean, ms: number): void;
  error(message: string): void;
}

let worker: Worker | null = null;
let nextId = 1;
let current: { id: number; callbacks: LayoutCallbacks } | null = null;

function layoutWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL('./layout-worker.ts', import.meta.url), { type: 'module', name: 'trident-viewer-layout' });
  worker.onmessage = (event: MessageEvent<LayoutReply>) => {
    const reply = event.data;
    if (!current || reply.id !== current.id) return;
    if (reply.type === 'error') current.callbacks.error(reply.message);
    else current.callbacks.part(reply.nodes, reply.edges, reply.final, reply.ms);
  };
  worker.onerror = (event) => current?.callbacks.error(`the layout worker failed: ${event.message}`);
  return worker;
}

/** Sends `graph` to be laid out; parts come back through `callbacks`. */
export function requestLayout(graph: BoxGraph, callbacks: LayoutCallbacks): void {
  const id = nextId++;
  current = { id, callbacks };
  layoutWorker().postMessage({ id, graph: toLayout(graph) });
}

/** Drops the layout in progress (its parts are ignored). */
export function cancelLayout(): void {
  current = null;
}

function toLayout(graph: BoxGraph): LayoutGraph {
  return {
    nodes: graph.boxes.map((b) => ({ id: b.id, width: b.width, height: b.height, ...(b.inner ? { inner: toLayout(b.inner) } : {}) })),
    edges: graph.arrows.map((a) => ({ id: a.id, from: a.from, to: a.to })),
  };
}
