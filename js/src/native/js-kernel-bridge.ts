// The wasm side of JS kernels: registering a kernel's name and id with the
// runtime, and turning a call's argument records into JS values, tensors as
// typed-array views of the wasm memory (outs are written through them).
// custom-kernels.ts keeps the registry and its rules; only this file touches
// the module for them.

import { arrayClassOf } from '../dtype.js';
import { ErrorCode, TridentError } from '../errors.js';
import { Tensor, type AnyTensor } from '../tensor.js';
import { intValue } from '../values.js';
import type { TridentModule } from './types.js';
import { isScalarRecord, scalarValue, ValueReader, type RawValue } from './value-descriptor.js';

/** One KernelCall argument as a JS kernel sees it. */
export type KernelValue =
  | AnyTensor
  | number
  | bigint
  | boolean
  | string
  | null
  | readonly (number | bigint)[]
  | readonly boolean[]
  | readonly (AnyTensor | null)[];

/** Runs registration `id` on a call's arguments: undefined, or what went wrong. */
export type KernelDispatch = (id: number, args: () => KernelValue[]) => string | undefined;

/** Installs the call-back the runtime's JS-kernel trampoline calls. */
export function installKernelBridge(module: TridentModule, dispatch: KernelDispatch): void {
  const reader = ValueReader.of(module);
  (module as { tridentRunJsKernel?: unknown }).tridentRunJsKernel = (id: number, address: number, count: number): string | undefined =>
    dispatch(id, () => reader.read(address, count, 'argument').map((a) => toKernelValue(module, a)));
}

/** Routes operator `name` to registration `id` (with `outs` out tensors) for programs loaded from now on. */
export function bindJsKernel(module: TridentModule, name: string, id: number, outs: number): void {
  const status = module.registerJsKernel(name, id, outs);
  if (status !== 0) {
    throw new TridentError(`registerKernel(${JSON.stringify(name)}): the runtime refused it (status ${status})`, ErrorCode.Internal);
  }
}

/** Removes the JS kernel `name`, putting back the built-in it replaced. */
export function unbindJsKernel(module: TridentModule, name: string): void {
  module.unregisterJsKernel(name);
}

export function hasBuiltinKernel(module: TridentModule, name: string): boolean {
  return module.hasBuiltinKernel(name);
}

function toKernelValue(module: TridentModule, a: RawValue): KernelValue {
  if (isScalarRecord(a)) return scalarValue(a);
  switch (a.kind) {
    case 'Tensor': {
      const cls = arrayClassOf(a.dtype);
      // A view, not a copy: outs are written straight into the runtime's memory.
      const view = new cls(module.HEAPU8.buffer, a.ptr, a.nbytes / cls.BYTES_PER_ELEMENT);
      return new Tensor(a.dtype, view as never, a.shape) as AnyTensor;
    }
    case 'IntList':
      return a.value.map(intValue);
    case 'DoubleList':
    case 'BoolList':
      return a.value;
    case 'TensorList':
    case 'OptionalTensorList':
      return a.items.map((item) => (item.kind === 'None' ? null : (toKernelValue(module, item) as AnyTensor)));
    default:
      throw new Error(`argument of kind ${a.kind} is not supported by JS kernels`);
  }
}
