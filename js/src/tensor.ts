// Tensor: a dtype, a shape and a typed-array view of the elements in
// row-major order. The view is used as given (no copy), so a tensor can wrap
// data the caller already has.

import {
  arrayClassOf,
  assertDType,
  integerRange,
  type DType,
  type ElementValue,
  type TensorDataMap,
} from './dtype.js';
import { ErrorCode, TridentError } from './errors.js';
import { fromBFloat16Bits, fromFloat16Bits, toBFloat16Bits, toFloat16Bits } from './half.js';

/** The JS type of one element of a dtype, as `toArray()` returns it. */
export type ElementOf<D extends DType> = D extends 'int64' | 'uint64'
  ? bigint
  : D extends 'bool'
    ? boolean
    : number;

/** Values accepted by `Tensor.from`: flat or nested arrays of elements. */
export type NestedValues = ArrayLike<ElementValue | NestedValues>;

export class Tensor<D extends DType = DType> {
  readonly dtype: D;
  readonly shape: readonly number[];
  readonly data: TensorDataMap[D];

  /**
   * Wraps `data` (the typed array for `dtype`: Float32Array for float32,
   * BigInt64Array for int64, Uint8Array for bool, Uint16Array holding raw
   * bits for float16/bfloat16, ...). `shape` defaults to `[data.length]`.
   */
  constructor(dtype: D, data: TensorDataMap[D], shape?: readonly number[]) {
    assertDType(dtype, 'Tensor');
    const where = `Tensor(${dtype})`;
    const cls = arrayClassOf(dtype);
    if (!(data instanceof cls)) {
      throw new TridentError(`${where}: data must be a ${cls.name}, got ${describeValue(data)}`, ErrorCode.InvalidType);
    }
    const dims = shape === undefined ? [data.length] : checkShape(shape, where);
    const size = shapeSize(dims);
    if (size !== data.length) {
      throw new TridentError(
        `${where}: shape [${dims.join(', ')}] holds ${size} elements but data has ${data.length}`,
        ErrorCode.InvalidArgument,
      );
    }
    this.dtype = dtype;
    this.shape = Object.freeze(dims);
    this.data = data;
  }

  /** Number of elements. */
  get size(): number {
    return this.data.length;
  }

  get rank(): number {
    return this.shape.length;
  }

  static zeros<D extends DType>(dtype: D, shape: readonly number[]): Tensor<D> {
    assertDType(dtype, 'Tensor.zeros');
    const dims = checkShape(shape, `Tensor.zeros(${dtype})`);
    return new Tensor(dtype, new (arrayClassOf(dtype))(shapeSize(dims)), dims);
  }

  /**
   * Converts plain values: numbers (any dtype), bigints (integer dtypes) and
   * booleans (bool). Nested arrays give the shape when `shape` is omitted.
   * Integers must be exact and in range: nothing is silently wrapped.
   */
  static from<D extends DType>(dtype: D, values: NestedValues, shape?: readonly number[]): Tensor<D> {
    assertDType(dtype, 'Tensor.from');
    const where = `Tensor.from(${dtype})`;
    const { flat, inferred } = flatten(values, where);
    const dims = shape === undefined ? inferred : checkShape(shape, where);
    if (shapeSize(dims) !== flat.length) {
      throw new TridentError(
        `${where}: shape [${dims.join(', ')}] holds ${shapeSize(dims)} elements but ${flat.length} values were given`,
        ErrorCode.InvalidArgument,
      );
    }
    const data = new (arrayClassOf(dtype))(flat.length);
    const encode = encoderFor(dtype, where);
    for (let i = 0; i < flat.length; i++) {
      (data as unknown as { [i: number]: number | bigint })[i] = encode(flat[i]!, i);
    }
    return new Tensor(dtype, data, dims);
  }

  /** The elements as plain JS values, flattened in row-major order. */
  toArray(): Array<ElementOf<D>> {
    const out: ElementValue[] = new Array(this.data.length);
    const decode = decoderFor(this.dtype);
    for (let i = 0; i < this.data.length; i++) out[i] = decode(this.data[i]!);
    return out as Array<ElementOf<D>>;
  }

  toString(): string {
    return `Tensor(${this.dtype}[${this.shape.join(', ')}])`;
  }
}

export function shapeSize(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

export function checkShape(shape: unknown, where: string): number[] {
  if (!Array.isArray(shape)) {
    throw new TridentError(`${where}: shape must be an array of sizes, got ${describeValue(shape)}`, ErrorCode.InvalidArgument);
  }
  shape.forEach((d, i) => {
    if (!Number.isSafeInteger(d) || (d as number) < 0) {
      throw new TridentError(
        `${where}: shape[${i}] must be a non-negative integer, got ${describeValue(d)}`,
        ErrorCode.InvalidArgument,
      );
    }
  });
  return [...(shape as number[])];
}

/** A short description of a value for error messages. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (v instanceof Tensor) return `a ${v.dtype} tensor of shape [${v.shape.join(', ')}]`;
  if (ArrayBuffer.isView(v)) return `${/^[AEIOU]/.test(v.constructor.name) ? 'an' : 'a'} ${v.constructor.name}`;
  if (Array.isArray(v)) return `an array of length ${v.length}`;
  if (typeof v === 'object') return `an object (${v.constructor?.name ?? 'Object'})`;
  if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
  return `${typeof v} ${String(v)}${typeof v === 'bigint' ? 'n' : ''}`;
}

function flatten(values: NestedValues, where: string): { flat: ElementValue[]; inferred: number[] } {
  const flat: ElementValue[] = [];
  const inferred: number[] = [];
  const walk = (v: NestedValues, depth: number, path: string): void => {
    if (inferred.length === depth) inferred.push(v.length);
    else if (inferred[depth] !== v.length) {
      throw new TridentError(
        `${where}: ragged nested array: ${path} has ${v.length} items, expected ${inferred[depth]}`,
        ErrorCode.InvalidArgument,
      );
    }
    for (let i = 0; i < v.length; i++) {
      const item = v[i]!;
      if (typeof item === 'object' && item !== null) walk(item, depth + 1, `${path}[${i}]`);
      else flat.push(item);
    }
  };
  if (typeof values !== 'object' || values === null || typeof values.length !== 'number') {
    throw new TridentError(`${where}: values must be an array, got ${describeValue(values)}`, ErrorCode.InvalidArgument);
  }
  walk(values, 0, 'values');
  return { flat, inferred };
}

type Encoder = (v: ElementValue, index: number) => number | bigint;

function encoderFor(dtype: DType, where: string): Encoder {
  const bad = (v: ElementValue, i: number, why: string): never => {
    throw new TridentError(`${where}: value ${describeValue(v)} at index ${i} ${why}`, ErrorCode.InvalidArgument);
  };
  const asNumber = (v: ElementValue, i: number): number =>
    typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : typeof v === 'boolean' ? Number(v) : bad(v, i, 'is not a number');
  switch (dtype) {
    case 'float32':
    case 'float64':
      return asNumber;
    case 'float16':
      return (v, i) => toFloat16Bits(asNumber(v, i));
    case 'bfloat16':
      return (v, i) => toBFloat16Bits(asNumber(v, i));
    case 'bool':
      return (v, i) => {
        if (typeof v === 'boolean') return v ? 1 : 0;
        if (v === 0 || v === 1 || v === 0n || v === 1n) return Number(v);
        return bad(v, i, 'is not a boolean (true/false or 0/1)');
      };
    default: {
      const [lo, hi] = integerRange(dtype)!;
      const wide = dtype === 'int64' || dtype === 'uint64';
      return (v, i) => {
        if (typeof v === 'boolean') v = v ? 1 : 0;
        if (typeof v === 'number' && !Number.isInteger(v)) return bad(v, i, `is not an integer (${dtype})`);
        if (typeof v !== 'number' && typeof v !== 'bigint') return bad(v, i, 'is not a number');
        const big = BigInt(v);
        if (big < lo || big > hi) return bad(v, i, `is out of range for ${dtype} [${lo}, ${hi}]`);
        return wide ? big : Number(big);
      };
    }
  }
}

function decoderFor(dtype: DType): (raw: number | bigint) => ElementValue {
  switch (dtype) {
    case 'float16':
      return (raw) => fromFloat16Bits(raw as number);
    case 'bfloat16':
      return (raw) => fromBFloat16Bits(raw as number);
    case 'bool':
      return (raw) => raw !== 0;
    default:
      return (raw) => raw;
  }
}
