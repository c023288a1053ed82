// Messages between the page and the layout worker (layout-worker.ts).

export interface LayoutNode {
  id: string;
  width: number;
  height: number;
  /** An expanded box: its contents, laid out inside it. */
  inner?: LayoutGraph;
}

export interface LayoutEdge {
  id: string;
  from: string;
  to: string;
}

export interface LayoutGraph {
  nodes: LayoutNode[];
  edges: LayoutEdge[];
}

export interface LayoutRequest {
  id: number;
  graph: LayoutGraph;
}

/** A box's place: top-left corner and size, in graph units. */
export interface Placed {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An edge as a polyline: x0, y0, x1, y1, ... */
export interface Routed {
  id: string;
  points: number[];
}

export type LayoutReply =
  /** One more part of the graph, placed; `final` on the last one. */
  | { id: number; type: 'part'; nodes: Placed[]; edges: Routed[]; final: boolean; ms: number }
  | { id: number; type: 'error'; message: string };
