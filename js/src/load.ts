// load(): bytes from any source, then the runtime, which detects the format
// from the bytes and opens the file with that format's front end.

import { env } from './env.js';
import { ErrorCode, TridentError } from './errors.js';
import { Model } from './model.js';
import { loadWasm } from './native/load-wasm.js';
import { readSources, type ModelSource, type ReadOptions } from './read-source.js';

export interface LoadOptions extends ReadOptions {
  /** External tensor data files (.ptd) the program refers to by key. */
  dataFiles?: readonly ModelSource[];
  /**
   * Upper bound on the planned memory of any one method, in bytes; a program
   * asking for more fails to load with LimitExceeded. Default: the
   * runtime's (1 GiB).
   */
  maxPlannedBytes?: number;
  /**
   * Which build serves this model: overrides `env.threads` ('auto' uses
   * the threads build where shared memory exists: Node, and cross-origin
   * isolated pages).
   */
  threads?: 'auto' | boolean;
  /**
   * Threads this model's runs spread their kernels over, the calling thread
   * included; at most the pool's size (`env.numThreads`). Default: all of
   * the pool. 1 keeps every kernel on the calling thread.
   */
  numThreads?: number;
  /**
   * Run the load-time graph passes (default true): today, fusing
   * convolution → batch norm → relu/hardtanh chains into one kernel. false
   * runs the program's instructions as written, e.g. to profile or compare
   * them one by one.
   */
  optimize?: boolean;
  /**
   * Where a .pte method's memory plan comes from. 'auto' (default) and
   * 'lifetimes' make it again at load from the tensors' lifetimes, wherever
   * that provably runs the same program (plain activations; no state kept
   * across runs, delegates or control flow): views (view_copy, squeeze,
   * clone...) then sit on their input's bytes and copy nothing, and kernels
   * split across threads do not write over memory the other core has just
   * used. 'file' keeps the file's plan. The method info's `memoryPlan` says
   * which plan each method got.
   */
  memoryPlan?: 'auto' | 'file' | 'lifetimes';
}

const MEMORY_PLANS = { auto: 0, file: 1, lifetimes: 2 } as const;

export async function load(source: ModelSource, options: LoadOptions = {}): Promise<Model> {
  const { dataFiles = [], maxPlannedBytes = 0, signal, threads = env.threads, numThreads = 0, optimize = true, memoryPlan = 'auto' } = options;
  if (!Object.hasOwn(MEMORY_PLANS, memoryPlan)) {
    throw new TridentError(`load: memoryPlan must be 'auto', 'file' or 'lifetimes', got ${String(memoryPlan)}`, ErrorCode.InvalidArgument);
  }
  if (typeof optimize !== 'boolean') {
    throw new TridentError(`load: optimize must be true or false, got ${String(optimize)}`, ErrorCode.InvalidArgument);
  }
  if (!Number.isSafeInteger(numThreads) || numThreads < 0) {
    throw new TridentError(`load: numThreads must be a positive integer (or 0 for all), got ${numThreads}`, ErrorCode.InvalidArgument);
  }
  if (!Number.isSafeInteger(maxPlannedBytes) || maxPlannedBytes < 0) {
    throw new TridentError(`load: maxPlannedBytes must be a non-negative integer, got ${maxPlannedBytes}`, ErrorCode.InvalidArgument);
  }
  if (!Array.isArray(dataFiles)) {
    throw new TridentError('load: dataFiles must be an array of sources', ErrorCode.InvalidArgument);
  }
  signal?.throwIfAborted();
  // Fetch the wasm while the file downloads.
  const module = loadWasm(threads);
  module.catch(() => {});
  const [bytes, ...data] = await readSources([source, ...dataFiles], options);
  const wasm = await module;
  signal?.throwIfAborted();
  const modelThreads = numThreads === 0 || numThreads > wasm.poolThreads ? wasm.poolThreads : numThreads;
  return Model.open(wasm.module, bytes!, data, {
    maxPlannedBytes,
    numThreads: modelThreads,
    optimize,
    memoryPlan: MEMORY_PLANS[memoryPlan],
  });
}

export interface RuntimeInfo {
  /** The runtime's version string. */
  version: string;
  /** True when the pthreads build was chosen (see `env.threads`). */
  threads: boolean;
  /** Size of the kernel thread pool, the calling thread included (1 without threads). */
  numThreads: number;
  /**
   * Bytes of wasm memory the module holds now. Wasm memory grows and never
   * shrinks, so this is also the peak since the module was instantiated.
   */
  memoryBytes: number;
  /**
   * Allocations (malloc and its kin) the runtime has made in wasm memory
   * since it started. Loading allocates; a run after a method's first run
   * allocates nothing, so this stays put across repeated runs.
   */
  heapAllocations: number;
}

/** Which runtime build serves this page or process (loads the wasm if needed). */
export async function runtimeInfo(): Promise<RuntimeInfo> {
  const { module, threads, poolThreads } = await loadWasm();
  // Counted before anything else here asks the module for a string (which
  // allocates), so that reading the count does not move it.
  const heapAllocations = module.heapAllocations();
  let version = versions.get(module);
  if (version === undefined) {
    version = module.version();
    versions.set(module, version);
  }
  return { version, threads, numThreads: poolThreads, memoryBytes: module.HEAPU8.buffer.byteLength, heapAllocations };
}

const versions = new WeakMap<object, string>();
