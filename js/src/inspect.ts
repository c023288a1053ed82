// What Model.graph() and Model.weights() return: a method's nodes and values
// as the file describes them, the same shape for every format (the runtime
// builds it: cpp/host/method_graph.h).

/** A value of a graph: a tensor (with its declared shape), a scalar, a list, or a format's own type. */
export interface GraphValue {
  /** 'v12' (a .pte value, a delegate's value), a .pt2 graph's own name, '%3' (a BEF register). */
  name: string;
  /** 'tensor', 'int', 'double', 'bool', 'string', 'none', 'int_list', ..., or a format's own type ('!tfrt.chain'). */
  kind: string;
  /** Tensors: numpy's dtype name ('float32'), or a delegate's ('qcint8'). */
  dtype?: string;
  /** Tensors: the declared shape (the upper bound of a dynamic one). */
  shape?: number[];
  /** A tensor whose shape may change between runs. */
  dynamic?: true;
  /** A constant tensor: its name in weights(), for weight(). */
  weight?: string;
  /** Scalars and lists the program fixes (long lists: { length }). */
  literal?: unknown;
}

/** An argument or result of a node: a value of the graph by index, or a literal the node carries. */
export interface GraphPort {
  /** The schema's argument name, where known ('input', 'weight', 'out'). */
  name?: string;
  value?: number;
  literal?: unknown;
}

export interface GraphNode {
  index: number;
  /**
   * 'kernel' (a .pte kernel call, a BEF kernel), 'delegate', 'move',
   * 'jump_false', 'free', 'node' (a .pt2 graph node), 'op' (a delegate's node).
   */
  kind: string;
  /** 'aten::convolution.out', 'XnnpackBackend', 'torch.ops.aten.add.Tensor', 'tfrt.add.i32', 'Conv2d'. */
  op: string;
  inputs: GraphPort[];
  outputs: GraphPort[];
  /** A BEF kernel's attributes, a .pt2 node's non-value arguments. */
  attributes?: Record<string, unknown>;
  /** Indices into the top-level graph's subgraphs: a delegate's graph, a BEF kernel's region functions. */
  subgraphs?: number[];
  /** A .pt2 node: the indices of the lowered instructions it became (its profile entries). */
  lowered?: number[];
  /** jump_false: the instruction it jumps to when the condition is false. */
  jumpTo?: number;
  /** Where the source file has it ('file.mlir:12:3'), where the format records it. */
  location?: string;
}

/** One edge: node `from` (-1: a graph input, a constant, or nothing) wrote `value`, which node `to` reads. */
export interface GraphEdge {
  from: number;
  to: number;
  value: number;
}

export interface Graph {
  name: string;
  /** 'method' (.pte, .pt2), 'function' (BEF), 'delegate'. */
  kind: string;
  values: GraphValue[];
  /** Value indices of the inputs and outputs. */
  inputs: number[];
  outputs: number[];
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Nested graphs (top level only): each listed once, however many nodes open it. */
  subgraphs: Graph[];
}

/** A constant tensor of the program, as weights() lists it. */
export interface WeightInfo {
  /** What weight() takes: a .pt2's fully qualified name, a .pte's 'constant[3]' or external key, a delegate's 'XnnpackBackend#0/<key>'. */
  name: string;
  /** numpy's name, or a delegate's quantized kind ('qcint8', 'qcint4'). */
  dtype: string;
  shape: number[];
  nbytes: number;
  /**
   * Where it lives: 'constant', 'external', 'named_data', 'delegate',
   * 'parameter', 'buffer', 'tensor_constant', 'attribute'; 'packed' for a
   * delegate's weight held only in the layout the delegate packed it into
   * (the file's copy freed after load: see LoadOptions.keepFileBytes), which
   * weight() cannot read.
   */
  source: string;
}
