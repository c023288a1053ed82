// load(): bytes from any source, then the runtime, which detects the format
// from the bytes and opens the file with that format's front end.

import { throwIfAborted } from './abort.js';
import { env } from './env.js';
import { ErrorCode, TridentError } from './errors.js';
import { buildInfo, LocalEngine, type OpenOptions } from './engine/local-engine.js';
import { resolveLimits } from './limits.js';
import { Model, modelRuntimeInfo } from './model.js';
import { loadWasm } from './native/load-wasm.js';
import { loadRemote, WorkerRuntime } from './worker/worker-client.js';
import { readSources, type ModelSource, type ReadOptions } from './read-source.js';
import { checkThreadCount, threadsWithin } from './threads.js';

export interface LoadOptions extends ReadOptions {
  /** External tensor data files (.ptd) the program refers to by key. */
  dataFiles?: readonly ModelSource[] | undefined;
  /** Limits.maxFileBytes for this model. Default: `env.limits`'s (2 GiB). */
  maxFileBytes?: number | undefined;
  /**
   * Limits.maxPlannedBytes for this model. Default: `env.limits`'s (1 GiB);
   * 0 means the default too.
   */
  maxPlannedBytes?: number | undefined;
  /** Limits.maxTensorElements for this model. Default: `env.limits`'s (2^31 - 1). */
  maxTensorElements?: number | undefined;
  /** Limits.maxInstructionsPerRun for this model. Default: `env.limits`'s (100,000,000). */
  maxInstructionsPerRun?: number | undefined;
  /** Limits.maxWasmMemoryBytes for this model. Default: `env.limits`'s (4 GiB). */
  maxWasmMemoryBytes?: number | undefined;
  /**
   * Which build serves this model: overrides `env.threads` ('auto' uses
   * the threads build where shared memory exists: Node, and cross-origin
   * isolated pages).
   */
  threads?: 'auto' | boolean | undefined;
  /**
   * Threads this model's runs spread their kernels over, the calling thread
   * included; at most the pool's size (`env.numThreads`: a larger number
   * uses the whole pool, with one console notice). Default (or 0): all of
   * the pool. 1 keeps every kernel on the calling thread. `model.numThreads`
   * changes it later.
   */
  numThreads?: number | undefined;
  /**
   * Run the load-time graph passes (default true): today, fusing
   * convolution → batch norm → relu/hardtanh chains into one kernel. false
   * runs the program's instructions as written, e.g. to profile or compare
   * them one by one.
   */
  optimize?: boolean | undefined;
  /**
   * Where a .pte method's memory plan comes from. 'auto' (default) and
   * 'lifetimes' make it again at load from the tensors' lifetimes, wherever
   * that provably runs the same program (plain activations; no state kept
   * across runs, delegates or control flow): views (view_copy, squeeze,
   * clone...) then sit on their input's bytes and copy nothing, and kernels
   * split across threads do not write over memory the other core has just
   * used. 'file' keeps the file's plan. 'per-shape' places each run's
   * tensors at the shapes that run has, from an arena that grows to the
   * largest run so far (within maxPlannedBytes), wherever the same rules
   * allow; runs with the same shapes reuse the same placement. 'auto' and
   * 'lifetimes' plan that way too a method whose file plan is over
   * maxPlannedBytes: ExecuTorch plans a bounded-dynamic method at its upper
   * bound, which can be gigabytes while real inputs need a few megabytes.
   * The method info's `memoryPlan` says which plan each method got, and
   * Model.memory() what the runs took.
   */
  memoryPlan?: 'auto' | 'file' | 'lifetimes' | 'per-shape' | undefined;
  /**
   * Keep the whole file in memory while the model lives (default false).
   * By default, once a .pte is loaded, the part of it that only delegates
   * read (the XNNPACK blob and the weights it packed into its own layout)
   * is freed, so those weights are held once: Model.memory() reports it as
   * fileBytesReleased, and weight() cannot read those weights then. Set it
   * to inspect a model's weights, as the viewer does.
   */
  keepFileBytes?: boolean | undefined;
  /**
   * Run this model in a dedicated worker (a Web Worker; a worker_threads
   * Worker in Node), so that runs never block the page. The Model API is
   * the same. Models loaded this way share one worker, which ends when the
   * last of them is disposed, giving its memory back. Default:
   * `env.worker`.
   */
  worker?: boolean | undefined;
  /**
   * Receives what the program prints (TFRT's `tfrt.print.*` kernels in a
   * .bef or .mlir file), once per run that printed, as one string of lines.
   * Default: each run's text goes to `console.log`.
   */
  onPrint?: ((text: string) => void) | undefined;
}

const MEMORY_PLANS = { auto: 0, file: 1, lifetimes: 2, 'per-shape': 3 } as const;

/**
 * Loads a model: reads `source` (see {@link ModelSource}), detects its
 * format from its bytes and opens it with the runtime, which checks the
 * whole file and resolves every operator before anything runs. Rejects with
 * a TridentError saying what is wrong and where (or the signal's reason on
 * abort).
 */
export async function load(source: ModelSource, options: LoadOptions = {}): Promise<Model> {
  if (typeof options !== 'object' || options === null) {
    throw new TridentError(`load: options must be an object, got ${options === null ? 'null' : typeof options}`, ErrorCode.InvalidArgument);
  }
  const { dataFiles = [], signal, threads = env.threads, numThreads = 0, optimize = true, memoryPlan = 'auto', keepFileBytes = false, onPrint, worker = env.worker } = options;
  if (typeof worker !== 'boolean') {
    throw new TridentError(`load: worker must be true or false, got ${String(worker)}`, ErrorCode.InvalidArgument);
  }
  if (!Object.hasOwn(MEMORY_PLANS, memoryPlan)) {
    throw new TridentError(`load: memoryPlan must be 'auto', 'file', 'lifetimes' or 'per-shape', got ${String(memoryPlan)}`, ErrorCode.InvalidArgument);
  }
  if (typeof optimize !== 'boolean') {
    throw new TridentError(`load: optimize must be true or false, got ${String(optimize)}`, ErrorCode.InvalidArgument);
  }
  if (typeof keepFileBytes !== 'boolean') {
    throw new TridentError(`load: keepFileBytes must be true or false, got ${String(keepFileBytes)}`, ErrorCode.InvalidArgument);
  }
  checkThreadCount(numThreads, 'load: numThreads');
  const limits = resolveLimits(
    { ...options, maxPlannedBytes: options.maxPlannedBytes === 0 ? undefined : options.maxPlannedBytes },
    env.limits,
    'load',
  );
  if (!Array.isArray(dataFiles)) {
    throw new TridentError('load: dataFiles must be an array of sources', ErrorCode.InvalidArgument);
  }
  if (onPrint !== undefined && typeof onPrint !== 'function') {
    throw new TridentError(`load: onPrint must be a function, got ${typeof onPrint}`, ErrorCode.InvalidArgument);
  }
  throwIfAborted(signal);
  const { maxFileBytes, ...runtimeLimits } = limits;
  const settings = { ...runtimeLimits, optimize, keepFileBytes, memoryPlan: MEMORY_PLANS[memoryPlan] };
  if (worker) return loadInWorker([source, ...dataFiles], options, maxFileBytes, threads, numThreads, settings, onPrint);
  // Fetch the wasm while the file downloads.
  const module = loadWasm(threads);
  module.catch(() => {});
  const [program, ...data] = await readSources([source, ...dataFiles], options, maxFileBytes);
  const wasm = await module;
  throwIfAborted(signal);
  const threadCount = threadsWithin(numThreads, wasm.poolThreads, 'load: numThreads');
  const engine = LocalEngine.open(
    wasm,
    program!.bytes,
    data.map((d) => d.bytes),
    { ...settings, numThreads: threadCount, sourceName: program!.name },
  );
  return Model.over(engine, threadCount, onPrint);
}

/** load() with `worker: true`: the files are read here (progress, abort, cache) and handed to the worker. */
async function loadInWorker(
  sources: readonly ModelSource[],
  options: LoadOptions,
  maxFileBytes: number,
  threads: 'auto' | boolean,
  numThreads: number,
  settings: Omit<OpenOptions, 'numThreads' | 'sourceName'>,
  onPrint: ((text: string) => void) | undefined,
): Promise<Model> {
  const { signal } = options;
  const starting = WorkerRuntime.acquire(threads);
  starting.catch(() => {});
  let files;
  try {
    files = await readSources(sources, options, maxFileBytes);
  } catch (err) {
    void starting.then((runtime) => runtime.release(), () => {});
    throw err;
  }
  const runtime = await starting;
  let engine;
  try {
    throwIfAborted(signal);
    const threadCount = threadsWithin(numThreads, runtime.poolThreads, 'load: numThreads');
    // The bytes read here are this call's own: they move to the worker. The
    // caller's own buffers are copied.
    const callers = new Set(sources.filter((s) => s instanceof ArrayBuffer || ArrayBuffer.isView(s)).map((s) => (ArrayBuffer.isView(s) ? s.buffer : s)));
    const transfer = files.map((f) => f.bytes.buffer).filter((b): b is ArrayBuffer => b instanceof ArrayBuffer && !callers.has(b));
    engine = await loadRemote(runtime, files, { ...settings, numThreads: threadCount }, [...new Set(transfer)]);
    const model = Model.over(engine, threadCount, onPrint);
    throwIfAborted(signal);
    return model;
  } catch (err) {
    if (engine === undefined) runtime.release();
    else engine.dispose();
    throw err;
  }
}

export interface RuntimeInfo {
  /** The runtime's version string. */
  version: string;
  /** True when the pthreads build was chosen (see `env.threads`). */
  threads: boolean;
  /** Size of the kernel thread pool, the calling thread included (1 without threads). */
  numThreads: number;
  /**
   * Where the wasm came from: its URL, or 'embedded' for the copy inside the
   * package, used where the app's bundler did not emit the .wasm file.
   */
  wasm: string;
  /** True for a model loaded in worker mode: this build runs in its worker. */
  worker: boolean;
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
  /**
   * Bytes allocated in wasm memory now (the heap's blocks in use): what the
   * loaded models, their plans and the runtime hold. Disposing a model
   * gives its share back here, though `memoryBytes` never shrinks.
   */
  heapBytes: number;
}

/**
 * Which runtime build serves this page or process (loads the wasm if
 * needed), or, given a model, the build that model runs on (`load()`'s
 * `threads` option may pick another than the default).
 */
export async function runtimeInfo(model?: Model): Promise<RuntimeInfo> {
  if (model === undefined) return buildInfo(await loadWasm());
  const info = model instanceof Model ? modelRuntimeInfo(model) : undefined;
  if (info === undefined) throw new TridentError('runtimeInfo: the argument is not a Model that load() returned', ErrorCode.InvalidArgument);
  return info;
}
