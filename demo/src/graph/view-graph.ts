// The runtime's Graph (model.graph()) as boxes and arrows: one box per node,
// one per graph input and output, and one arrow per value read from its
// writer. Constants are not boxes: a node lists its weights. A node with
// subgraphs (an XNNPACK delegate, a BEF kernel's region functions) is
// expandable; when expanded, its box holds the laid-out subgraph.

import type { Graph, GraphNode, GraphValue } from 'trident-runtime';

export type BoxKind = 'op' | 'conv' | 'delegate' | 'control' | 'input' | 'output' | 'subgraph';

export interface Box {
  id: string;
  kind: BoxKind;
  /** Short operator name, what the box shows. */
  label: string;
  /** A second line: a weight's shape, a delegate's node count. */
  detail?: string;
  width: number;
  height: number;
  /** The graph and node the box stands for (absent for inputs and outputs). */
  graph: Graph;
  node?: GraphNode;
  /** The value an input or output box stands for. */
  value?: number;
  /** Indices into the top-level graph's subgraphs this box opens. */
  subgraphs?: number[];
  /** Expanded: the subgraphs inside, laid out as one graph. */
  inner?: BoxGraph;
  /** Profile entries (instruction indices) this box's time is the sum of. */
  instructions: number[];
  /** Boxes enclosing this one, outermost first (ids). */
  parents: string[];
}

export interface Arrow {
  id: string;
  from: string;
  to: string;
  /** 'float32 [1, 3, 224, 224]'. */
  label: string;
  value: GraphValue | undefined;
}

export interface BoxGraph {
  boxes: Box[];
  arrows: Arrow[];
}

const CHAR_WIDTH = 7.2;
const LINE_HEIGHT = 16;
const PADDING = 10;

/** 'aten::convolution.out' → 'convolution', 'torch.ops.aten.add.Tensor' → 'add', 'tfrt.add.i32' stays. */
export function shortOp(op: string): string {
  const aten = /^(?:aten|quantized_decomposed|llama|cortex_m|[a-z_]+)::([A-Za-z0-9_]+)(?:\.[A-Za-z0-9_]+)?$/.exec(op);
  if (aten) return aten[1]!;
  const torchOps = /^torch\.ops\.[a-z_]+\.([A-Za-z0-9_]+)(?:\.[A-Za-z0-9_]+)?$/.exec(op);
  if (torchOps) return torchOps[1]!;
  return op;
}

const CONV = /conv|Conv/;

function kindOf(node: GraphNode): BoxKind {
  if (node.kind === 'delegate') return 'delegate';
  if (node.kind === 'move' || node.kind === 'jump_false' || node.kind === 'free') return 'control';
  if (CONV.test(node.op)) return 'conv';
  return 'op';
}

export function dims(shape: readonly number[] | undefined): string {
  return shape === undefined ? '' : `[${shape.join(', ')}]`;
}

export function valueLabel(value: GraphValue | undefined): string {
  if (value === undefined) return '';
  if (value.kind !== 'tensor') return value.kind;
  return `${value.dtype ?? '?'} ${dims(value.shape)}`.trim();
}

function sized(lines: string[]): { width: number; height: number } {
  const chars = Math.max(...lines.map((l) => l.length), 4);
  return { width: Math.round(chars * CHAR_WIDTH + 2 * PADDING), height: lines.length * LINE_HEIGHT + PADDING };
}

/** The shapes of a node's weights, for its second line ('W [32, 3, 3, 3]', '3 weights'). */
function weightsLine(graph: Graph, node: GraphNode): string | undefined {
  const weights = node.inputs
    .map((p) => (p.value === undefined ? undefined : graph.values[p.value]))
    .filter((v): v is GraphValue => v?.weight !== undefined);
  if (weights.length === 0) return undefined;
  // The biggest first: addmm's bias comes before its weight.
  const size = (v: GraphValue) => (v.shape ?? []).reduce((a, b) => a * b, 1);
  weights.sort((a, b) => size(b) - size(a));
  if (weights.length === 1) return `W ${dims(weights[0]!.shape)}`;
  return `W ${dims(weights[0]!.shape)} +${weights.length - 1}`;
}

export interface BuildOptions {
  /** Ids of expanded boxes. */
  expanded: ReadonlySet<string>;
  /** Show the .pte 'free' instructions (off: they only end a value's life). */
  showFree?: boolean;
}

/**
 * The boxes and arrows of `graph`. `top` is the top-level graph (whose
 * `subgraphs` every node's indices point into); `prefix` makes ids unique
 * across nesting; `open` lists the subgraph indices already open around
 * this one (a recursive BEF function opens once per path).
 */
export function buildBoxes(graph: Graph, top: Graph, options: BuildOptions, prefix = '', parents: string[] = [], open: number[] = []): BoxGraph {
  const boxes: Box[] = [];
  const arrows: Arrow[] = [];
  const boxOfNode = new Map<number, string>();
  const inputBox = new Map<number, string>();
  const id = (local: string) => `${prefix}${local}`;

  for (const v of graph.inputs) {
    const value = graph.values[v];
    const lines = [`input ${value?.name ?? v}`, valueLabel(value)];
    const boxId = id(`in${v}`);
    inputBox.set(v, boxId);
    boxes.push({ id: boxId, kind: 'input', label: lines[0]!, detail: lines[1], ...sized(lines), graph, value: v, instructions: [], parents });
  }

  const lastWriter = new Map<number, number>();
  for (const node of graph.nodes) {
    if (node.kind === 'free' && !options.showFree) continue;
    const boxId = id(`n${node.index}`);
    boxOfNode.set(node.index, boxId);
    for (const port of node.outputs) if (port.value !== undefined) lastWriter.set(port.value, node.index);
    const label = shortOp(node.op);
    const detail = node.subgraphs?.length
      ? `${node.subgraphs.map((s) => top.subgraphs[s]?.nodes.length ?? 0).reduce((a, b) => a + b, 0)} nodes ▸`
      : weightsLine(graph, node);
    const box: Box = {
      id: boxId,
      kind: kindOf(node),
      label,
      detail,
      ...sized(detail ? [label, detail] : [label]),
      graph,
      node,
      instructions: node.lowered ?? (prefix === '' ? [node.index] : []),
      parents,
    };
    if (node.subgraphs?.length) {
      box.subgraphs = node.subgraphs;
      if (options.expanded.has(boxId)) {
        const fresh = node.subgraphs.filter((s) => !open.includes(s));
        box.inner = innerGraph(fresh, top, options, boxId, [...parents, boxId], [...open, ...fresh]);
      }
    }
    boxes.push(box);
  }

  let arrowCount = 0;
  const seen = new Set<string>();
  for (const edge of graph.edges) {
    const to = boxOfNode.get(edge.to);
    const value = graph.values[edge.value];
    if (to === undefined || value?.weight !== undefined) continue;
    const from = edge.from >= 0 ? boxOfNode.get(edge.from) : inputBox.get(edge.value);
    if (from === undefined || from === to) continue;
    const key = `${from}>${to}>${edge.value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    arrows.push({ id: id(`e${arrowCount++}`), from, to, label: valueLabel(value), value });
  }

  for (const v of graph.outputs) {
    const value = graph.values[v];
    const lines = [`output ${value?.name ?? v}`, valueLabel(value)];
    const boxId = id(`out${v}`);
    boxes.push({ id: boxId, kind: 'output', label: lines[0]!, detail: lines[1], ...sized(lines), graph, value: v, instructions: [], parents });
    const writer = lastWriter.get(v);
    const from = writer !== undefined ? boxOfNode.get(writer) : inputBox.get(v);
    if (from !== undefined) arrows.push({ id: id(`e${arrowCount++}`), from, to: boxId, label: valueLabel(value), value });
  }
  return { boxes, arrows };
}

/** An expanded node's subgraphs, side by side in one graph (each under a title box). */
function innerGraph(indices: number[], top: Graph, options: BuildOptions, prefix: string, parents: string[], open: number[]): BoxGraph {
  const boxes: Box[] = [];
  const arrows: Arrow[] = [];
  for (const s of indices) {
    const sub = top.subgraphs[s];
    if (sub === undefined) continue;
    const part = buildBoxes(sub, top, options, `${prefix}/s${s}:`, parents, open);
    const title = `${sub.kind} ${sub.name}`;
    const titleId = `${prefix}/s${s}`;
    boxes.push({ id: titleId, kind: 'subgraph', label: title, ...sized([title]), graph: sub, instructions: [], parents });
    // The title sits above the subgraph's inputs (or its first boxes).
    const heads = part.boxes.filter((b) => b.kind === 'input');
    for (const head of heads.length ? heads : part.boxes.slice(0, 1)) {
      arrows.push({ id: `${titleId}>${head.id}`, from: titleId, to: head.id, label: '', value: undefined });
    }
    boxes.push(...part.boxes);
    arrows.push(...part.arrows);
  }
  return { boxes, arrows };
}

/** Every box, nested ones included (depth first). */
export function* allBoxes(graph: BoxGraph): Generator<Box> {
  for (const box of graph.boxes) {
    yield box;
    if (box.inner) yield* allBoxes(box.inner);
  }
}
