// Element types: their numpy-style names, sizes and the typed array that
// holds their raw bits. One table, so adding a dtype touches one place.

import { ErrorCode, TridentError } from './errors.js';

/** Typed array class used for each dtype. float16/bfloat16 are raw bits. */
export interface TensorDataMap {
  float32: Float32Array;
  float64: Float64Array;
  float16: Uint16Array;
  bfloat16: Uint16Array;
  int8: Int8Array;
  int16: Int16Array;
  int32: Int32Array;
  int64: BigInt64Array;
  uint8: Uint8Array;
  uint16: Uint16Array;
  uint32: Uint32Array;
  uint64: BigUint64Array;
  bool: Uint8Array;
}

export type DType = keyof TensorDataMap;
export type TensorData = TensorDataMap[DType];

/** One element as plain JS sees it: numbers, bigints for 64-bit ints, booleans. */
export type ElementValue = number | bigint | boolean;

interface TypedArrayClass<T extends TensorData> {
  new (length: number): T;
  new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): T;
  readonly BYTES_PER_ELEMENT: number;
  readonly name: string;
}

type DTypeTable = { [D in DType]: TypedArrayClass<TensorDataMap[D]> };

const ARRAY_CLASS: DTypeTable = {
  float32: Float32Array,
  float64: Float64Array,
  float16: Uint16Array,
  bfloat16: Uint16Array,
  int8: Int8Array,
  int16: Int16Array,
  int32: Int32Array,
  int64: BigInt64Array,
  uint8: Uint8Array,
  uint16: Uint16Array,
  uint32: Uint32Array,
  uint64: BigUint64Array,
  bool: Uint8Array,
};

export const DTYPES = Object.keys(ARRAY_CLASS) as readonly DType[];

export function isDType(name: unknown): name is DType {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(ARRAY_CLASS, name);
}

export function assertDType(name: unknown, where: string): DType {
  if (isDType(name)) return name;
  throw new TridentError(
    `${where}: unknown dtype ${JSON.stringify(name)}; expected one of ${DTYPES.join(', ')}`,
    ErrorCode.InvalidType,
  );
}

export function arrayClassOf<D extends DType>(dtype: D): TypedArrayClass<TensorDataMap[D]> {
  return ARRAY_CLASS[dtype];
}

export function bytesPerElement(dtype: DType): number {
  return ARRAY_CLASS[dtype].BYTES_PER_ELEMENT;
}

/** Integer dtypes and their inclusive ranges (as bigints, exact for 64-bit). */
const INT_RANGE: Partial<Record<DType, readonly [bigint, bigint]>> = {
  int8: [-(1n << 7n), (1n << 7n) - 1n],
  int16: [-(1n << 15n), (1n << 15n) - 1n],
  int32: [-(1n << 31n), (1n << 31n) - 1n],
  int64: [-(1n << 63n), (1n << 63n) - 1n],
  uint8: [0n, (1n << 8n) - 1n],
  uint16: [0n, (1n << 16n) - 1n],
  uint32: [0n, (1n << 32n) - 1n],
  uint64: [0n, (1n << 64n) - 1n],
};

export function integerRange(dtype: DType): readonly [bigint, bigint] | undefined {
  return INT_RANGE[dtype];
}

export function isFloatDType(dtype: DType): boolean {
  return dtype === 'float32' || dtype === 'float64' || dtype === 'float16' || dtype === 'bfloat16';
}
