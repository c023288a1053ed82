// Reads the runtime's value records (cpp/host/value_descriptor.h) out of the
// wasm heap: a run's outputs, inputs read back, and JS kernels' arguments.
// The field offsets are this file's; the module's valueLayout() is checked
// against them once, and gives the codes of kinds and dtypes, so that their
// numbering lives only in C++.

import { assertDType, type DType } from '../dtype.js';
import { ErrorCode, TridentError } from '../errors.js';
import { intValue } from '../values.js';
import type { TridentModule } from './types.js';

const RECORD_BYTES = 112;
const OFFSETS = { kind: 0, dtype: 4, count: 8, address: 16, nbytes: 24, intValue: 32, doubleValue: 40, sizes: 48 } as const;

/** One value as the runtime describes it; tensors stay in the heap (ptr). */
export type RawValue =
  | { kind: 'Tensor'; dtype: DType; shape: number[]; ptr: number; nbytes: number }
  | { kind: 'Int'; value: bigint }
  | { kind: 'Double'; value: number }
  | { kind: 'Bool'; value: boolean }
  | { kind: 'String'; value: string }
  | { kind: 'None' }
  | { kind: 'IntList'; value: bigint[] }
  | { kind: 'DoubleList'; value: number[] }
  | { kind: 'BoolList'; value: boolean[] }
  | { kind: 'TensorList' | 'OptionalTensorList'; items: RawValue[] }
  /** A value a format hands over as JSON text (TFRT function results). */
  | { kind: 'Json'; text: string };

/** The kinds that map to one plain JS value, the same for outputs and JS kernels' arguments. */
export type ScalarRecord = Extract<RawValue, { kind: 'Int' | 'Double' | 'Bool' | 'String' | 'None' }>;

const SCALAR_KINDS: ReadonlySet<string> = new Set(['Int', 'Double', 'Bool', 'String', 'None']);

export function isScalarRecord(value: { kind: string }): value is ScalarRecord {
  return SCALAR_KINDS.has(value.kind);
}

/** Ints as numbers when exact (else bigint), None as null. */
export function scalarValue(value: ScalarRecord): number | bigint | boolean | string | null {
  switch (value.kind) {
    case 'Int':
      return intValue(value.value);
    case 'None':
      return null;
    default:
      return value.value;
  }
}

interface Layout {
  size: number;
  offsets: Record<string, number>;
  maxRank: number;
  kinds: Record<string, number>;
  dtypes: Record<string, number>;
}

const utf8 = new TextDecoder();

export class ValueReader {
  readonly #module: TridentModule;
  readonly #kinds: string[] = [];
  readonly #dtypes: DType[] = [];

  private constructor(module: TridentModule) {
    this.#module = module;
    const layout = JSON.parse(module.valueLayout()) as Layout;
    const mismatch = Object.entries(OFFSETS).find(([field, offset]) => layout.offsets[field] !== offset);
    if (layout.size !== RECORD_BYTES || mismatch !== undefined) {
      throw new TridentError(
        `the wasm build's value records (${layout.size} bytes${mismatch ? `, ${mismatch[0]} at ${layout.offsets[mismatch[0]]}` : ''}) do not match this JS layer; rebuild both together`,
        ErrorCode.Internal,
      );
    }
    for (const [name, code] of Object.entries(layout.kinds)) this.#kinds[code] = name;
    for (const [name, code] of Object.entries(layout.dtypes)) this.#dtypes[code] = name as DType;
  }

  /** The reader for `module`, made once. */
  static of(module: TridentModule): ValueReader {
    let reader = readers.get(module);
    if (reader === undefined) {
      reader = new ValueReader(module);
      readers.set(module, reader);
    }
    return reader;
  }

  /** `count` records from `address`. */
  read(address: number, count: number, where: string): RawValue[] {
    // A fresh view each call: memory growth replaces the heap's buffer.
    const view = new DataView(this.#module.HEAPU8.buffer);
    const values: RawValue[] = [];
    for (let i = 0; i < count; i++) values.push(this.#record(view, address + i * RECORD_BYTES, `${where} ${i}`));
    return values;
  }

  #record(view: DataView, at: number, where: string): RawValue {
    const kind = this.#kinds[view.getUint32(at + OFFSETS.kind, true)];
    const count = view.getUint32(at + OFFSETS.count, true);
    // Heap addresses fit in 32 bits (wasm32): the low word is the address.
    const address = view.getUint32(at + OFFSETS.address, true);
    switch (kind) {
      case 'Tensor': {
        const code = view.getUint32(at + OFFSETS.dtype, true);
        const dtype = assertDType(this.#dtypes[code] ?? `dtype code ${code}`, where);
        const shape: number[] = [];
        for (let d = 0; d < count; d++) shape.push(view.getInt32(at + OFFSETS.sizes + 4 * d, true));
        return { kind, dtype, shape, ptr: address, nbytes: Number(view.getBigUint64(at + OFFSETS.nbytes, true)) };
      }
      case 'Int':
        return { kind, value: view.getBigInt64(at + OFFSETS.intValue, true) };
      case 'Double':
        return { kind, value: view.getFloat64(at + OFFSETS.doubleValue, true) };
      case 'Bool':
        return { kind, value: view.getBigInt64(at + OFFSETS.intValue, true) !== 0n };
      case 'String':
        return { kind, value: this.#text(address, count) };
      case 'Json':
        return { kind, text: this.#text(address, count) };
      case 'None':
        return { kind };
      case 'IntList': {
        const value: bigint[] = [];
        for (let k = 0; k < count; k++) value.push(view.getBigInt64(address + 8 * k, true));
        return { kind, value };
      }
      case 'DoubleList': {
        const value: number[] = [];
        for (let k = 0; k < count; k++) value.push(view.getFloat64(address + 8 * k, true));
        return { kind, value };
      }
      case 'BoolList': {
        const value: boolean[] = [];
        for (let k = 0; k < count; k++) value.push(view.getUint8(address + k) !== 0);
        return { kind, value };
      }
      case 'TensorList':
      case 'OptionalTensorList': {
        const items: RawValue[] = [];
        for (let k = 0; k < count; k++) items.push(this.#record(view, address + k * RECORD_BYTES, `${where} item ${k}`));
        return { kind, items };
      }
      default:
        throw new TridentError(`${where}: the runtime returned a value of unknown kind ${view.getUint32(at, true)}`, ErrorCode.Internal);
    }
  }

  #text(address: number, bytes: number): string {
    // decode() refuses views of shared memory (the threads build): copy out.
    return utf8.decode(this.#module.HEAPU8.slice(address, address + bytes));
  }
}

const readers = new WeakMap<TridentModule, ValueReader>();
