// Custom operators written in JavaScript. A program that calls an operator
// the runtime does not have (e.g. `etnp::lstm.out`) can run once a kernel for
// it is registered here. The kernel sees its tensors as typed-array views of
// the wasm memory and writes its out tensors in place, like a C++ kernel.
//
// Semantics, as for the runtime's own kernels: operators are bound when a
// program is loaded. Registering or unregistering a kernel changes the
// programs loaded afterwards, never one already loaded (each registration has
// its own id, and a loaded method keeps calling the id it was built with).
// Nothing is replaced silently: a built-in kernel, or a JS kernel registered
// earlier, is replaced only with `override: true`.

import { ErrorCode, TridentError } from './errors.js';
import { Tensor, type AnyTensor } from './tensor.js';
import { bindJsKernel, hasBuiltinKernel, installKernelBridge, unbindJsKernel, type KernelValue } from './native/js-kernel-bridge.js';
import { loadWasm } from './native/load-wasm.js';
import type { TridentModule } from './native/types.js';

export type { KernelValue };

/**
 * What a kernel may return: anything but a promise (the return value is
 * ignored). Kernels run synchronously inside the run; an `async` function
 * would write its outputs after the run has already returned them.
 */
export type KernelResult = undefined | null | number | bigint | boolean | string | symbol | (object & { then?: never });

/**
 * A kernel: `inputs` are the schema's inputs in order (kwarg-only ones too),
 * `outputs` the out tensors, at the sizes the program planned. Write the
 * results into `outputs[i].data`. The views are valid only during the call.
 * Throwing fails the run with the message.
 */
export type KernelFunction = (inputs: KernelValue[], outputs: AnyTensor[], call: { readonly name: string }) => KernelResult | void;

export interface RegisterKernelOptions {
  /**
   * How many out tensors the op has (default 1): `lstm.out` has 3. Checked
   * against each call of the op when a program is loaded.
   */
  outputs?: number;
  /**
   * Replace a kernel of the same name: one the runtime has built in, or a
   * JS kernel registered earlier (default false: registering over either
   * fails).
   */
  override?: boolean;
}

interface Registration {
  readonly id: number;
  readonly name: string;
  readonly fn: KernelFunction;
  readonly outputs: number;
  readonly override: boolean;
  /** Settles the promise registerKernel returned, once a runtime has checked it. */
  settle?: (error?: TridentError) => void;
}

/** Every registration ever made, by id: loaded methods may still call old ones. */
const registrations = new Map<number, Registration>();
/** The registration each name has now, for programs loaded from now on. */
const current = new Map<string, Registration>();
const attached = new Set<TridentModule>();
let nextId = 1;

const NAME = /^[A-Za-z_]\w*::[A-Za-z_]\w*(\.[A-Za-z_]\w*)?$/;
const MAX_OUTPUTS = 64;

/**
 * Registers `fn` as the out-variant kernel `name` ("namespace::op.overload",
 * ExecuTorch's KernelCall layout: inputs, then outs, then the returned
 * value) for the programs loaded from now on. Programs already loaded keep
 * the kernels they were loaded with.
 *
 * Bad arguments throw a TridentError at once (InvalidArgument), as does a
 * name that already has a JS kernel, unless `override` is set. The returned
 * promise resolves once the runtime (loaded now if it is not yet) has
 * accepted the kernel; it rejects with InvalidState, and the kernel is not
 * registered, when the runtime has a built-in kernel of that name and
 * `override` is not set.
 */
export function registerKernel(name: string, fn: KernelFunction, options: RegisterKernelOptions = {}): Promise<void> {
  const where = `registerKernel(${JSON.stringify(name)})`;
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new TridentError(`registerKernel: name must look like 'namespace::op.overload', got ${JSON.stringify(name)}`, ErrorCode.InvalidArgument);
  }
  if (typeof fn !== 'function') {
    throw new TridentError(`${where}: the kernel must be a function`, ErrorCode.InvalidArgument);
  }
  const tag = Object.prototype.toString.call(fn);
  if (tag === '[object AsyncFunction]' || tag === '[object AsyncGeneratorFunction]' || tag === '[object GeneratorFunction]') {
    throw new TridentError(
      `${where}: the kernel is an ${tag.slice(8, -1).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}; kernels run synchronously inside the run and must write their outputs before returning`,
      ErrorCode.InvalidArgument,
    );
  }
  const { outputs = 1, override = false } = options;
  if (!Number.isInteger(outputs) || outputs < 0 || outputs > MAX_OUTPUTS) {
    throw new TridentError(`${where}: outputs must be an integer from 0 to ${MAX_OUTPUTS}, got ${String(outputs)}`, ErrorCode.InvalidArgument);
  }
  if (typeof override !== 'boolean') {
    throw new TridentError(`${where}: override must be true or false, got ${String(override)}`, ErrorCode.InvalidArgument);
  }
  if (current.has(name) && !override) {
    throw new TridentError(
      `${where}: a JS kernel is already registered under this name; pass { override: true } to replace it, or call unregisterKernel() first`,
      ErrorCode.InvalidState,
    );
  }
  const registration: Registration = { id: nextId++, name, fn, outputs, override };
  registrations.set(registration.id, registration);
  current.set(name, registration);
  const checked = new Promise<void>((resolve, reject) => {
    registration.settle = (error) => (error === undefined ? resolve() : reject(error));
  });
  for (const module of attached) {
    if (current.get(name) !== registration) break; // refused by an earlier module
    install(module, registration);
  }
  if (attached.size === 0) {
    // Nothing to check against yet: load the runtime, which installs every
    // current registration (and settles this one) as it attaches.
    loadWasm().then(
      () => registration.settle?.(),
      (err: unknown) => registration.settle?.(err instanceof TridentError ? err : new TridentError(String(err), ErrorCode.Internal)),
    );
  }
  return checked;
}

/**
 * Removes the JS kernel `name` for the programs loaded from now on (they get
 * the built-in kernel it replaced, if any); programs already loaded keep it.
 * Returns whether one was registered.
 */
export function unregisterKernel(name: string): boolean {
  const registration = current.get(name);
  if (registration === undefined) return false;
  current.delete(name);
  for (const module of attached) unbindJsKernel(module, name);
  return true;
}

/** The names of the JS kernels registered now. */
export function registeredKernels(): string[] {
  return [...current.keys()];
}

/** Called once per instantiated module: installs the call-back and every kernel registered so far. */
export function attachJsKernels(module: TridentModule): void {
  attached.add(module);
  installKernelBridge(module, runJsKernel);
  for (const registration of [...current.values()]) install(module, registration);
}

/** Registers `registration` in one module, or drops it if the module refuses it. */
function install(module: TridentModule, registration: Registration): void {
  const { name, id, outputs, override } = registration;
  const where = `registerKernel(${JSON.stringify(name)})`;
  let error: TridentError | undefined;
  if (!override && hasBuiltinKernel(module, name)) {
    error = new TridentError(
      `${where}: the runtime has a built-in kernel of this name; pass { override: true } to replace it for the programs loaded from now on`,
      ErrorCode.InvalidState,
    );
  } else {
    try {
      bindJsKernel(module, name, id, outputs);
    } catch (err) {
      error = err as TridentError;
    }
  }
  if (error !== undefined && current.get(name) === registration) {
    current.delete(name);
    for (const other of attached) if (other !== module) unbindJsKernel(other, name);
  }
  registration.settle?.(error);
  delete registration.settle;
}

/** @internal The registrations programs loaded now would bind (worker mode mirrors them in its worker). */
export function currentKernels(): { name: string; id: number; outputs: number; override: boolean }[] {
  return [...current.values()].map(({ name, id, outputs, override }) => ({ name, id, outputs, override }));
}

/** Runs registration `id` on a call's arguments: undefined, or what went wrong. */
function runJsKernel(id: number, readArgs: () => KernelValue[]): string | undefined {
  if (!registrations.has(id)) return `JS kernel registration ${id} is unknown`;
  try {
    const args = readArgs();
    const kernel = registrations.get(id)!;
    // KernelCall layout: inputs, outs, then one return slot when there are
    // outs (the load checked that the call has exactly `outputs` outs).
    const returns = kernel.outputs > 0 ? 1 : 0;
    const first = args.length - kernel.outputs - returns;
    if (first < 0) return `${args.length} arguments cannot hold ${kernel.outputs} outs`;
    const outputs = args.slice(first, first + kernel.outputs);
    const bad = outputs.findIndex((o) => !(o instanceof Tensor));
    if (bad >= 0) return `argument ${first + bad} should be an out tensor`;
    return callKernel(id, args.slice(0, first), outputs as AnyTensor[]);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * @internal Calls registration `id`'s function on a call's inputs and out
 * tensors: undefined, or what went wrong. Worker mode calls it on the page
 * for a kernel call made in the worker.
 */
export function callKernel(id: number, inputs: KernelValue[], outputs: AnyTensor[]): string | undefined {
  const kernel = registrations.get(id);
  if (kernel === undefined) return `JS kernel registration ${id} is unknown`;
  try {
    const result: unknown = kernel.fn(inputs, outputs, { name: kernel.name });
    if (isThenable(result)) {
      // Its outputs would land after the run returned them: refuse loudly,
      // and keep its eventual rejection from going unhandled.
      void Promise.resolve(result).catch(() => {});
      return 'the kernel returned a promise; kernels run synchronously and must write their outputs before returning (async kernels are not supported)';
    }
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

function isThenable(value: unknown): boolean {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
