// Lays graphs out off the main thread with dagre, in parts.
//
// dagre's cost grows faster than the node count (about 1 s for 420 nodes,
// 3.5 s for 1,000 here) and its recursion overflows the stack on chains of
// a few thousand nodes (as does elkjs's). So a graph is cut, in program
// order, into parts of PART_SIZE boxes; each part is laid out alone and
// stacked under the one before, and the page paints each part as it comes.
// Edges between parts are drawn as curves from one part to the next. An
// expanded box is laid out first (the same way) and its size given to its
// parent's layout.

import dagre from '@dagrejs/dagre';
import type { LayoutEdge, LayoutGraph, LayoutNode, LayoutReply, LayoutRequest, Placed, Routed } from './layout-protocol.js';

const PART_SIZE = 120;
const PART_GAP = 48;
const INNER_PAD = 16;
const INNER_HEADER = 26;

interface Laid {
  nodes: Placed[];
  edges: Routed[];
  width: number;
  height: number;
}

let latest = 0;

self.onmessage = (event: MessageEvent<LayoutRequest>) => {
  latest = event.data.id;
  void layoutInParts(event.data).catch((err: unknown) => {
    reply({ id: event.data.id, type: 'error', message: err instanceof Error ? err.message : String(err) });
  });
};

function reply(message: LayoutReply): void {
  (self as unknown as Worker).postMessage(message);
}

/** The top level, part by part, posting each; stops when a newer request arrives. */
async function layoutInParts({ id, graph }: LayoutRequest): Promise<void> {
  const start = performance.now();
  const parts = cut(graph.nodes);
  const partOf = new Map<string, number>();
  parts.forEach((part, i) => part.forEach((n) => partOf.set(n.id, i)));
  const placed = new Map<string, Placed>();
  let top = 0;
  for (let i = 0; i < parts.length; i++) {
    // Let a newer request in: the page dropped this layout (a box was expanded, another method chosen).
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    if (id !== latest) return;
    const part = parts[i]!;
    const inPart = new Set(part.map((n) => n.id));
    const laid = layoutFlat(part, graph.edges.filter((e) => inPart.has(e.from) && inPart.has(e.to)));
    const dx = -laid.width / 2;
    const nodes = shift(laid.nodes, dx, top);
    const edges = laid.edges.map((e) => shiftEdge(e, dx, top));
    for (const n of nodes) placed.set(n.id, n);
    // Edges from earlier parts into this one.
    for (const e of graph.edges) {
      const from = partOf.get(e.from);
      const to = partOf.get(e.to);
      if (from === undefined || to === undefined || from === to || Math.max(from, to) !== i) continue;
      edges.push(crossing(e, placed.get(e.from)!, placed.get(e.to)!));
    }
    top += laid.height + PART_GAP;
    reply({ id, type: 'part', nodes, edges, final: i === parts.length - 1, ms: performance.now() - start });
  }
  if (parts.length === 0) reply({ id, type: 'part', nodes: [], edges: [], final: true, ms: performance.now() - start });
}

/** Parts of at most PART_SIZE boxes in list order, counting an expanded box's contents. */
function cut(nodes: LayoutNode[]): LayoutNode[][] {
  const parts: LayoutNode[][] = [];
  let current: LayoutNode[] = [];
  let weight = 0;
  for (const node of nodes) {
    const w = 1 + (node.inner ? count(node.inner) : 0);
    if (current.length > 0 && weight + w > PART_SIZE) {
      parts.push(current);
      current = [];
      weight = 0;
    }
    current.push(node);
    weight += w;
  }
  if (current.length) parts.push(current);
  return parts;
}

function count(graph: LayoutGraph): number {
  return graph.nodes.reduce((sum, n) => sum + 1 + (n.inner ? count(n.inner) : 0), 0);
}

/** A whole graph, parts stacked (for an expanded box's contents). */
function layoutStacked(graph: LayoutGraph): Laid {
  const parts = cut(graph.nodes);
  const nodes: Placed[] = [];
  const edges: Routed[] = [];
  const placed = new Map<string, Placed>();
  const partOf = new Map<string, number>();
  parts.forEach((part, i) => part.forEach((n) => partOf.set(n.id, i)));
  let top = 0;
  let width = 0;
  const laidParts = parts.map((part) => {
    const inPart = new Set(part.map((n) => n.id));
    return layoutFlat(part, graph.edges.filter((e) => inPart.has(e.from) && inPart.has(e.to)));
  });
  for (const laid of laidParts) width = Math.max(width, laid.width);
  laidParts.forEach((laid, i) => {
    const dx = (width - laid.width) / 2;
    for (const n of shift(laid.nodes, dx, top)) {
      nodes.push(n);
      placed.set(n.id, n);
    }
    edges.push(...laid.edges.map((e) => shiftEdge(e, dx, top)));
    for (const e of graph.edges) {
      const from = partOf.get(e.from);
      const to = partOf.get(e.to);
      if (from === undefined || to === undefined || from === to || Math.max(from, to) !== i) continue;
      edges.push(crossing(e, placed.get(e.from)!, placed.get(e.to)!));
    }
    top += laid.height + (i < laidParts.length - 1 ? PART_GAP : 0);
  });
  return { nodes, edges, width, height: top };
}

/** One part with dagre; expanded boxes get their contents' size, and the contents' places (relative). */
function layoutFlat(nodes: LayoutNode[], edges: LayoutEdge[]): Laid {
  const insides = new Map<string, Laid>();
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 36, edgesep: 10, marginx: 0, marginy: 0 });
  for (const node of nodes) {
    let { width, height } = node;
    if (node.inner) {
      const inside = layoutStacked(node.inner);
      insides.set(node.id, inside);
      width = Math.max(width, inside.width + 2 * INNER_PAD);
      height = inside.height + INNER_HEADER + 2 * INNER_PAD;
    }
    g.setNode(node.id, { width, height });
  }
  for (const e of edges) g.setEdge(e.from, e.to, {}, e.id);
  dagre.layout(g);
  const placed: Placed[] = [];
  for (const node of nodes) {
    const n = g.node(node.id) as { x: number; y: number; width: number; height: number };
    const box = { id: node.id, x: n.x - n.width / 2, y: n.y - n.height / 2, width: n.width, height: n.height };
    placed.push(box);
    const inside = insides.get(node.id);
    if (inside) {
      const dx = box.x + (box.width - inside.width) / 2;
      const dy = box.y + INNER_HEADER + INNER_PAD;
      placed.push(...shift(inside.nodes, dx, dy));
      insides.set(node.id, { ...inside, edges: inside.edges.map((r) => shiftEdge(r, dx, dy)) });
    }
  }
  const routed: Routed[] = edges.map((e) => {
    const points = ((g.edge({ v: e.from, w: e.to, name: e.id }) as { points?: { x: number; y: number }[] } | undefined)?.points ?? []).flatMap((p) => [p.x, p.y]);
    return { id: e.id, points };
  });
  for (const inside of insides.values()) routed.push(...inside.edges);
  const graph = g.graph() as { width?: number; height?: number };
  return { nodes: placed, edges: routed, width: graph.width ?? 0, height: graph.height ?? 0 };
}

function shift(nodes: Placed[], dx: number, dy: number): Placed[] {
  return nodes.map((n) => ({ ...n, x: n.x + dx, y: n.y + dy }));
}

function shiftEdge(edge: Routed, dx: number, dy: number): Routed {
  return { id: edge.id, points: edge.points.map((v, i) => v + (i % 2 === 0 ? dx : dy)) };
}

/** An edge between parts: from the bottom of its source to the top of its target. */
function crossing(edge: LayoutEdge, from: Placed, to: Placed): Routed {
  const x0 = from.x + from.width / 2;
  const y0 = from.y + from.height;
  const x1 = to.x + to.width / 2;
  const y1 = to.y;
  const bend = Math.min(Math.abs(y1 - y0) / 2, 60);
  return { id: edge.id, points: [x0, y0, x0, y0 + bend, x1, y1 - bend, x1, y1] };
}
