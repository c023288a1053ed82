// The values a method takes and returns, and their signatures.

import type { DType } from './dtype.js';
import type { AnyTensor, Tensor } from './tensor.js';

/** EValue kinds, as the runtime names them. */
export type ValueKind =
  | 'Tensor'
  | 'Int'
  | 'Double'
  | 'Bool'
  | 'String'
  | 'None'
  | 'IntList'
  | 'DoubleList'
  | 'BoolList'
  | 'TensorList'
  | 'OptionalTensorList'
  /** A format's own type the API cannot pass or return (a BEF `!ts.shape`). */
  | 'Other';

/** 'static': fixed shape; 'bounded': each dim at most `shape`; 'unbounded': any size of this rank. */
export type Dynamism = 'static' | 'bounded' | 'unbounded';

/** One input or output of a method. dtype/shape/dynamism are set for tensors. */
export interface ValueInfo {
  readonly kind: ValueKind;
  /** The format's own type name, where it has one (BEF: `i32`, `!tfrt.chain`). */
  readonly type?: string;
  readonly dtype?: DType;
  readonly shape?: readonly number[];
  readonly dynamism?: Dynamism;
}

/** A value inside a delegate's graph: the backend's dtype name ("fp32", "qint8", ...) and declared shape. */
export interface DelegateValueInfo {
  readonly dtype: string;
  readonly shape: readonly number[];
}

/** One node of a delegate's graph. */
export interface DelegateNodeInfo {
  readonly type: string;
  readonly inputs: readonly DelegateValueInfo[];
  readonly outputs: readonly DelegateValueInfo[];
}

/** A DelegateCall's backend instance: which backend, and its graph where the backend describes it. */
export interface DelegateInfo {
  readonly backend: string;
  /** Nodes per type, e.g. { Conv2d: 3, Add: 1 }. */
  readonly nodeCounts: Readonly<Record<string, number>>;
  readonly nodes: readonly DelegateNodeInfo[];
}

/** What Model.memory() reports for one method. */
export interface MethodMemory {
  readonly name: string;
  readonly memoryPlan: 'file' | 'lifetimes' | 'per-shape';
  /** False for a method not loaded now (resetState() drops those whose planned memory starts with data, until their next run). */
  readonly loaded: boolean;
  /** The value table, instructions and delegate state. */
  readonly methodBytes: number;
  /** Planned buffers; for 'per-shape', the arena its runs have grown so far. */
  readonly plannedBytes: number;
  /** 'per-shape' only: the most its runs have placed at once. */
  readonly peakBytes?: number;
  /** 'per-shape' only: kernel scratch sized at its runs' shapes (the model's scratchBytes serves the other methods). */
  readonly scratchBytes?: number;
  /** Weights its delegates packed into their own layout (part of methodBytes). */
  readonly packedWeightBytes: number;
  /** The program's bytes those delegates read their weights from, still held (part of the model's fileBytes; 0 once freed). */
  readonly packedFromBytes: number;
}

/** What Model.memory() reports: the memory the model holds now. */
export interface ModelMemory {
  /** What the model keeps of the program file and attached data files. */
  readonly fileBytes: number;
  /**
   * Bytes of the program file freed after load: in a .pte, what only
   * delegates read to pack their weights (0 with LoadOptions.keepFileBytes,
   * and for files that keep everything: .pt2, .bef, bundled programs, or a
   * program whose state reset loads it again).
   */
  readonly fileBytesReleased: number;
  /** Scratch shared by the model's kernels and delegates. */
  readonly scratchBytes: number;
  /**
   * Weights the delegates packed (XNNPACK packs every convolution's and
   * linear layer's), over all methods: held in the methods' methodBytes.
   */
  readonly packedWeightBytes: number;
  /**
   * The part of fileBytes those packed weights were read from, while it is
   * kept: 0 once it is freed after load (weights held once, packed), or as
   * large as the weights when LoadOptions.keepFileBytes keeps the file
   * (held twice).
   */
  readonly packedFromBytes: number;
  readonly methods: readonly MethodMemory[];
}

export interface MethodInfo {
  readonly name: string;
  readonly inputs: readonly ValueInfo[];
  readonly outputs: readonly ValueInfo[];
  /** Number of instructions (0 for constant methods). */
  readonly instructions?: number;
  /** Bytes of planned (non-constant) memory the method uses. */
  readonly plannedBytes?: number;
  /**
   * For formats planned by lifetime (.pt2): every intermediate's bytes added
   * up, to set against plannedBytes (what sharing memory saves).
   */
  readonly intermediateBytes?: number;
  /**
   * Where the method's memory plan comes from: 'file' (the one the .pte
   * brings), 'lifetimes' (made at load from the tensors' lifetimes: always
   * for .pt2; for a .pte, see LoadOptions.memoryPlan) or 'per-shape' (each
   * run places its tensors at the shapes it has; plannedBytes is then 0,
   * and Model.memory() says what the runs took).
   */
  readonly memoryPlan?: 'file' | 'lifetimes' | 'per-shape';
  /**
   * Inputs the method mutates in place (a .pt2 graph's user_input_mutation):
   * run() writes their new values back into the Tensors passed in.
   */
  readonly mutatedInputs?: readonly number[];
  /** The method's delegates, in DelegateCall index order (empty when it has none). */
  readonly delegates: readonly DelegateInfo[];
}

/**
 * What run() accepts per input: a Tensor; a number or bigint for Int; a
 * number for Double; a boolean for Bool; null for None.
 */
export type InputValue = Tensor | number | bigint | boolean | null;

/**
 * What run() returns per output: Tensors; Int as a number when it is a safe
 * integer, else a bigint; Double as a number; Bool as a boolean; String as a
 * string; None as null. Tensors come as {@link AnyTensor}, so that after
 * `instanceof Tensor` a check of `dtype` narrows `data` to its typed array.
 */
export type OutputValue = AnyTensor | number | bigint | boolean | string | null;

/** "float32[1, 3]", "float32[<=8] (bounded)", "Int": for messages and tables. */
export function formatValueInfo(info: ValueInfo): string {
  if (info.kind !== 'Tensor') return info.type !== undefined ? `${info.type} (${info.kind})` : info.kind;
  if (info.dtype === undefined && info.type !== undefined) return info.type;
  const dims = info.shape ? `[${info.shape.join(', ')}]` : '[?]';
  const dynamic = info.dynamism && info.dynamism !== 'static' ? ` (${info.dynamism})` : '';
  return `${info.dtype ?? '?'}${dims}${dynamic}`;
}

/** An Int as JS sees it: a number when exact, else a bigint. */
export function intValue(value: bigint): number | bigint {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}
