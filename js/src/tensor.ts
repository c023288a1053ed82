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

/**
 * What the constructor takes as data: the dtype's own typed array (used as
 * is, no copy), a plain array of numbers, bigints or booleans (converted as
 * `Tensor.from` converts them), or, for canvas pixels, a
 * `Uint8ClampedArray` (a view for uint8, its values converted for any other
 * dtype).
 */
export type TensorInit<D extends DType> = TensorDataMap[D] | readonly ElementValue[] | Uint8ClampedArray;

/** A tensor of any dtype, as a union over the dtypes, so that checking `dtype` narrows it. */
export type AnyTensor = { [D in DType]: Tensor<D> }[DType];

/** A tensor's JSON form (`toJSON()`): 64-bit integers as decimal strings, NaN and infinities as "NaN", "Infinity", "-Infinity". */
export interface TensorJson {
  dtype: DType;
  shape: number[];
  values: Array<number | string | boolean>;
}

export class Tensor<D extends DType = DType> {
  readonly dtype: D;
  readonly shape: readonly number[];
  readonly data: TensorDataMap[D];

  /**
   * A tensor of `dtype` over `data`: the typed array for `dtype`
   * (Float32Array for float32, BigInt64Array for int64, Uint8Array for
   * bool, Uint16Array holding raw bits for float16/bfloat16, ...), used as
   * given; or a plain array or a Uint8ClampedArray (see {@link TensorInit}).
   * `shape` defaults to `[data.length]`.
   */
  constructor(dtype: D, data: TensorInit<D>, shape?: readonly number[]) {
    assertDType(dtype, 'Tensor');
    const where = `Tensor(${dtype})`;
    const cls = arrayClassOf(dtype);
    let typed: TensorDataMap[D];
    if (data instanceof cls) typed = data as TensorDataMap[D];
    else if (Array.isArray(data)) typed = encode(dtype, data as readonly ElementValue[], where);
    else if (data instanceof Uint8ClampedArray) {
      typed = (dtype === 'uint8' ? new Uint8Array(data.buffer, data.byteOffset, data.length) : encode(dtype, data, where)) as TensorDataMap[D];
    } else {
      throw new TridentError(
        `${where}: data must be ${withArticle(cls.name)}, a plain array or a Uint8ClampedArray, got ${describeValue(data)}; Tensor.from(dtype, values) converts other arrays`,
        ErrorCode.InvalidType,
      );
    }
    const dims = shape === undefined ? [typed.length] : checkShape(shape, where);
    const size = shapeSize(dims);
    if (size !== typed.length) {
      throw new TridentError(
        `${where}: shape [${dims.join(', ')}] holds ${size} elements but data has ${typed.length}`,
        ErrorCode.InvalidArgument,
      );
    }
    this.dtype = dtype;
    this.shape = Object.freeze(dims);
    this.data = typed;
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
    const where = `Tensor.zeros(${dtype})`;
    const dims = checkShape(shape, where);
    return new Tensor(dtype, allocate(dtype, shapeSize(dims), where), dims);
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
    return new Tensor(dtype, encode(dtype, flat, where), dims);
  }

  /** Whether this tensor has `dtype`; narrows its type (and so `data`'s). */
  is<E extends DType>(dtype: E): this is Tensor<E> {
    return (this.dtype as DType) === dtype;
  }

  /** This tensor typed as `dtype`; throws InvalidType when its dtype is another. */
  as<E extends DType>(dtype: E): Tensor<E> {
    assertDType(dtype, 'Tensor.as');
    if (!this.is(dtype)) {
      throw new TridentError(`Tensor.as(${dtype}): this is ${withArticle(this.dtype)} tensor of shape [${this.shape.join(', ')}]`, ErrorCode.InvalidType);
    }
    return this;
  }

  /**
   * The same elements under another shape: a view sharing `data`, not a
   * copy. One size may be -1, inferred from the others.
   */
  reshape(shape: readonly number[]): Tensor<D> {
    const where = `Tensor.reshape`;
    if (!Array.isArray(shape)) {
      throw new TridentError(`${where}: shape must be an array of sizes, got ${describeValue(shape)}`, ErrorCode.InvalidArgument);
    }
    const inferred = shape.indexOf(-1);
    if (inferred >= 0 && shape.indexOf(-1, inferred + 1) >= 0) {
      throw new TridentError(`${where}: only one size may be -1, got [${shape.join(', ')}]`, ErrorCode.InvalidArgument);
    }
    let dims = shape;
    if (inferred >= 0) {
      const rest = checkShape(shape.filter((_, i) => i !== inferred), where);
      const known = shapeSize(rest);
      if (known === 0 || this.size % known !== 0) {
        throw new TridentError(`${where}: cannot reshape ${this.size} elements to [${shape.join(', ')}]`, ErrorCode.InvalidArgument);
      }
      dims = shape.map((d) => (d === -1 ? this.size / known : d));
    }
    const checked = checkShape(dims, where);
    if (shapeSize(checked) !== this.size) {
      throw new TridentError(
        `${where}: shape [${checked.join(', ')}] holds ${shapeSize(checked)} elements, this tensor has ${this.size}`,
        ErrorCode.InvalidArgument,
      );
    }
    return new Tensor(this.dtype, this.data as TensorInit<D>, checked);
  }

  /** The elements as plain JS values, flattened in row-major order. */
  toArray(): Array<ElementOf<D>> {
    const out: ElementValue[] = new Array(this.data.length);
    const decode = decoderFor(this.dtype);
    for (let i = 0; i < this.data.length; i++) out[i] = decode(this.data[i]!);
    return out as Array<ElementOf<D>>;
  }

  /**
   * The JSON form `JSON.stringify` uses: dtype, shape and the values in
   * row-major order, int64/uint64 as decimal strings (exact), non-finite
   * floats as "NaN", "Infinity" and "-Infinity". `valueFromJson` reads it back.
   */
  toJSON(): TensorJson {
    const values = this.toArray().map((v: ElementValue) => (typeof v === 'bigint' ? v.toString() : typeof v === 'number' ? jsonNumber(v) : v));
    return { dtype: this.dtype, shape: [...this.shape], values };
  }

  toString(): string {
    return `Tensor(${this.dtype}[${this.shape.join(', ')}])`;
  }
}

/** A fresh typed array; a size the engine refuses (RangeError) becomes a TridentError. */
function allocate<D extends DType>(dtype: D, count: number, where: string): TensorDataMap[D] {
  const cls = arrayClassOf(dtype);
  try {
    return new cls(count);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    throw new TridentError(
      `${where}: cannot allocate ${count} elements (${count * cls.BYTES_PER_ELEMENT} bytes): ${err.message}`,
      ErrorCode.MemoryAllocationFailed,
      { cause: err },
    );
  }
}

/** `values` as the typed array of `dtype`, each checked as Tensor.from checks it. */
function encode<D extends DType>(dtype: D, values: ArrayLike<ElementValue>, where: string): TensorDataMap[D] {
  const data = allocate(dtype, values.length, where);
  const encodeOne = encoderFor(dtype, where);
  for (let i = 0; i < values.length; i++) {
    (data as unknown as { [i: number]: number | bigint })[i] = encodeOne(values[i]!, i);
  }
  return data;
}

/** A number as JSON can hold it: NaN and the infinities as the strings "NaN", "Infinity", "-Infinity". */
export function jsonNumber(v: number): number | 'NaN' | 'Infinity' | '-Infinity' {
  if (Number.isFinite(v)) return v;
  return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
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
  const dims = [...(shape as number[])];
  if (!Number.isSafeInteger(shapeSize(dims))) {
    throw new TridentError(`${where}: shape [${dims.join(', ')}] holds more elements than JavaScript can count`, ErrorCode.InvalidArgument);
  }
  return dims;
}

/** "a float32", "an int8", "a Uint8Array", "an Int16Array": by sound, not spelling ("u" says "you"). */
export function withArticle(word: string): string {
  return `${/^[aeio]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/** A short description of a value for error messages. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (v instanceof Tensor) return `${withArticle(v.dtype)} tensor of shape [${v.shape.join(', ')}]`;
  if (ArrayBuffer.isView(v)) return withArticle(v.constructor.name);
  if (Array.isArray(v)) return `an array of length ${v.length}`;
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'object') return `an object (${(v as object).constructor?.name ?? 'Object'})`;
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v)}`;
  if (typeof v === 'bigint') return `the bigint ${v}n`;
  return `the ${typeof v} ${String(v)}`;
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
    throw new TridentError(`${where}: values[${i}] is ${describeValue(v).replace(/^the (number|bigint|boolean) /, '')}, ${why}`, ErrorCode.InvalidArgument);
  };
  const asNumber = (v: ElementValue, i: number): number =>
    typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : typeof v === 'boolean' ? Number(v) : bad(v, i, 'not a number');
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
        return bad(v, i, 'not a boolean (true/false or 0/1)');
      };
    default: {
      const [lo, hi] = integerRange(dtype)!;
      const wide = dtype === 'int64' || dtype === 'uint64';
      return (v, i) => {
        if (typeof v === 'boolean') v = v ? 1 : 0;
        if (typeof v === 'number' && !Number.isInteger(v)) return bad(v, i, `not an integer (${dtype})`);
        if (typeof v !== 'number' && typeof v !== 'bigint') return bad(v, i, 'not a number');
        const big = BigInt(v);
        if (big < lo || big > hi) return bad(v, i, `out of range for ${dtype} [${lo}, ${hi}]`);
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
