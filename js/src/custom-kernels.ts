// Custom operators written in JavaScript. A program that calls an operator
// the runtime does not have (e.g. `etnp::lstm.out`) can run once a kernel for
// it is registered here. The kernel sees its tensors as typed-array views of
// the wasm memory and writes its out tensors in place, like a C++ kernel.

import { arrayClassOf } from './dtype.js';
import { ErrorCode, TridentError } from './errors.js';
import { Tensor } from './tensor.js';
import type { TridentModule } from './native/types.js';
import { isScalarRecord, scalarValue, ValueReader, type RawValue } from './native/value-descriptor.js';
import { intValue } from './values.js';

/** One KernelCall argument as a JS kernel sees it. */
export type KernelValue =
  | Tensor
  | number
  | bigint
  | boolean
  | string
  | null
  | readonly (number | bigint)[]
  | readonly boolean[]
  | readonly (Tensor | null)[];

/**
 * A kernel: `inputs` are the schema's inputs in order (kwarg-only ones too),
 * `outputs` the out tensors, at the sizes the program planned. Write the
 * results into `outputs[i].data`. The views are valid only during the call.
 * Throwing fails the run with the message.
 */
export type KernelFunction = (inputs: KernelValue[], outputs: Tensor[], call: { name: string }) => void;

export interface RegisterKernelOptions {
  /** How many out tensors the op has (default 1): `lstm.out` has 3. */
  outputs?: number;
}

interface Registered {
  fn: KernelFunction;
  outputs: number;
}

const kernels = new Map<string, Registered>();
const attached = new Set<TridentModule>();

/**
 * Registers `fn` as the out-variant kernel `name` ("namespace::op.overload",
 * ExecuTorch's KernelCall layout: inputs, then outs, then the returned
 * value). It replaces a built-in kernel of the same name. Register before
 * `load()`ing the programs that use it: operators are resolved at load.
 */
export function registerKernel(name: string, fn: KernelFunction, options: RegisterKernelOptions = {}): void {
  if (typeof name !== 'string' || !/^[A-Za-z_]\w*::[A-Za-z_]\w*(\.[A-Za-z_]\w*)?$/.test(name)) {
    throw new TridentError(`registerKernel: name must look like 'namespace::op.overload', got ${JSON.stringify(name)}`, ErrorCode.InvalidArgument);
  }
  if (typeof fn !== 'function') {
    throw new TridentError(`registerKernel('${name}'): the kernel must be a function`, ErrorCode.InvalidArgument);
  }
  const outputs = options.outputs ?? 1;
  if (!Number.isInteger(outputs) || outputs < 0) {
    throw new TridentError(`registerKernel('${name}'): outputs must be a non-negative integer, got ${outputs}`, ErrorCode.InvalidArgument);
  }
  kernels.set(name, { fn, outputs });
  for (const module of attached) registerIn(module, name);
}

/** Called once per instantiated module: installs the call-back and every kernel so far. */
export function attachJsKernels(module: TridentModule): void {
  attached.add(module);
  const reader = ValueReader.of(module);
  (module as { tridentRunJsKernel?: unknown }).tridentRunJsKernel = (name: string, address: number, count: number): string | undefined =>
    runJsKernel(module, reader, name, address, count);
  for (const name of kernels.keys()) registerIn(module, name);
}

function registerIn(module: TridentModule, name: string): void {
  const status = module.registerJsKernel(name);
  if (status !== 0) {
    throw new TridentError(`registerKernel('${name}'): the runtime refused it (status ${status})`, ErrorCode.Internal);
  }
}

/** Runs kernel `name` on the `count` argument records at `address`: undefined, or what went wrong. */
function runJsKernel(module: TridentModule, reader: ValueReader, name: string, address: number, count: number): string | undefined {
  const kernel = kernels.get(name);
  if (kernel === undefined) return `no JS kernel is registered as ${name}`;
  try {
    const args = reader.read(address, count, 'argument').map((a) => toValue(module, a));
    // KernelCall layout: inputs, outs, then one return slot when there are outs.
    const returns = kernel.outputs > 0 ? 1 : 0;
    const first = args.length - kernel.outputs - returns;
    if (first < 0) return `${args.length} arguments cannot hold ${kernel.outputs} outs`;
    const outputs = args.slice(first, first + kernel.outputs);
    const bad = outputs.findIndex((o) => !(o instanceof Tensor));
    if (bad >= 0) return `argument ${first + bad} should be an out tensor`;
    kernel.fn(args.slice(0, first), outputs as Tensor[], { name });
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

function toValue(module: TridentModule, a: RawValue): KernelValue {
  if (isScalarRecord(a)) return scalarValue(a);
  switch (a.kind) {
    case 'Tensor': {
      const cls = arrayClassOf(a.dtype);
      // A view, not a copy: outs are written straight into the runtime's memory.
      const view = new cls(module.HEAPU8.buffer, a.ptr, a.nbytes / cls.BYTES_PER_ELEMENT);
      return new Tensor(a.dtype, view as never, a.shape);
    }
    case 'IntList':
      return a.value.map(intValue);
    case 'DoubleList':
    case 'BoolList':
      return a.value;
    case 'TensorList':
    case 'OptionalTensorList':
      return a.items.map((item) => (item.kind === 'None' ? null : (toValue(module, item) as Tensor)));
    default:
      throw new Error(`argument of kind ${a.kind} is not supported by JS kernels`);
  }
}
