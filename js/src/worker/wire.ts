// Values and errors as they cross between the page and the worker: plain,
// structured-cloneable records. Tensors travel as their dtype, shape and
// typed array; their buffers are listed for transfer where the sender no
// longer needs them.

import type { DType, TensorData } from '../dtype.js';
import type { KernelValue } from '../native/js-kernel-bridge.js';
import { ErrorCode, TridentError } from '../errors.js';
import { Tensor } from '../tensor.js';
import type { InputValue, OutputValue } from '../values.js';

export type WireValue =
  | { tensor: { dtype: DType; shape: number[]; data: TensorData } }
  | { value: number | bigint | boolean | string | null };

export interface WireError {
  message: string;
  /** A TridentError's code; absent for other errors. */
  code?: number;
  name: string;
}

export function toWire(value: InputValue | OutputValue): WireValue {
  if (value instanceof Tensor) return { tensor: { dtype: value.dtype, shape: [...value.shape], data: value.data } };
  return { value };
}

export function fromWire(wire: WireValue): OutputValue {
  if ('tensor' in wire) return new Tensor(wire.tensor.dtype, wire.tensor.data as never, wire.tensor.shape) as OutputValue;
  return wire.value;
}

/** The buffers of `values`' tensors, once each (for postMessage's transfer list). */
export function buffersOf(values: readonly WireValue[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const wire of values) {
    if ('tensor' in wire && wire.tensor.data.buffer instanceof ArrayBuffer) buffers.add(wire.tensor.data.buffer);
  }
  return [...buffers];
}

export function toWireError(err: unknown): WireError {
  if (err instanceof TridentError) return { message: err.message, code: err.code, name: err.name };
  if (err instanceof Error) return { message: err.message, name: err.name };
  return { message: String(err), name: 'Error' };
}

export function fromWireError(wire: WireError): Error {
  if (wire.code !== undefined) return new TridentError(wire.message, wire.code);
  if (wire.name === 'AbortError') return new DOMException(wire.message, 'AbortError');
  const err = new Error(wire.message);
  err.name = wire.name;
  return err;
}

/** An error for a worker that failed or stopped. */
export function workerFailed(what: string): TridentError {
  return new TridentError(`the Trident worker ${what}`, ErrorCode.Internal);
}

/** A JS kernel's argument as it crosses: a value, a tensor, or a list of them. */
export type WireKernelValue = WireValue | { list: WireKernelValue[] };

export function kernelValueToWire(value: KernelValue): WireKernelValue {
  if (Array.isArray(value)) return { list: (value as readonly KernelValue[]).map(kernelValueToWire) };
  return toWire(value as InputValue | OutputValue);
}

export function kernelValueFromWire(wire: WireKernelValue): KernelValue {
  if ('list' in wire) return wire.list.map(kernelValueFromWire) as KernelValue;
  return fromWire(wire) as KernelValue;
}
