// Bounds on what one model may take. A page that loads a model from a URL
// runs whatever bytes arrive, so every limit has a safe default
// (env.limits), and load()'s options may set each one per model.

import { ErrorCode, TridentError } from './errors.js';

export interface Limits {
  /**
   * The largest file load() reads, in bytes: the program and each data
   * file. A download over it stops as soon as it is (or as soon as its
   * Content-Length says so), with LimitExceeded. Default 2 GiB, which is
   * as much as the wasm memory can hold.
   */
  maxFileBytes: number;
  /**
   * The largest memory plan of any one method, in bytes, and the most its
   * delegates may ask for activations. A .pte method whose file plan is over
   * it is planned at each run's shapes instead (see load()'s memoryPlan);
   * where that cannot be, the program fails to load with LimitExceeded.
   * Default 1 GiB.
   */
  maxPlannedBytes: number;
  /**
   * The most elements any one tensor of a program may have (a dynamic one
   * at its upper bound); a program declaring more fails to load with
   * LimitExceeded. Default 2^31 - 1.
   */
  maxTensorElements: number;
  /**
   * The most instructions one run may execute: a program whose jumps (or
   * TFRT loops) never end fails that run with LimitExceeded, and the model
   * stays usable. Default 100,000,000.
   */
  maxInstructionsPerRun: number;
  /**
   * The wasm memory this model's load and runs may grow the module's memory
   * to, in bytes: an allocation that would take the heap past it fails with
   * LimitExceeded, and the model (or the load) fails cleanly. The memory is
   * the module's, shared by every model on it; each model's bound holds
   * while it loads or runs. The engine grows the memory a step ahead of
   * the heap (at most 20%, or 96 MB), so the memory itself may pass the
   * bound by that much. Default 4 GiB, wasm32's whole address space.
   */
  maxWasmMemoryBytes: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxFileBytes: 2 ** 31,
  maxPlannedBytes: 2 ** 30,
  maxTensorElements: 2 ** 31 - 1,
  maxInstructionsPerRun: 100_000_000,
  maxWasmMemoryBytes: 2 ** 32,
});

const NAMES = Object.keys(DEFAULT_LIMITS) as (keyof Limits)[];

/** Each limit from `given` where set, else from `defaults`; each must be a positive integer. */
export function resolveLimits(given: Partial<Limits>, defaults: Limits, where: string): Limits {
  const out = {} as Limits;
  for (const name of NAMES) {
    const value = given[name] ?? defaults[name];
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new TridentError(`${where}: ${name} must be a positive integer, got ${String(value)}`, ErrorCode.InvalidArgument);
    }
    out[name] = value;
  }
  return out;
}

/**
 * Refuses a file of `size` bytes (`atLeast`: of that many so far) over `max`
 * (maxFileBytes), naming it.
 */
export function checkFileSize(what: string, size: number, max: number, atLeast = false): void {
  if (size > max) {
    throw new TridentError(`load: ${what} has ${atLeast ? 'at least ' : ''}${size} bytes, over maxFileBytes (${max})`, ErrorCode.LimitExceeded);
  }
}
