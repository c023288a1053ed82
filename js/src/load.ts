// load(): bytes from any source, then the runtime, which detects the format
// from the bytes and opens the file with that format's front end.

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
}

export async function load(source: ModelSource, options: LoadOptions = {}): Promise<Model> {
  const { dataFiles = [], maxPlannedBytes = 0, signal } = options;
  if (!Number.isSafeInteger(maxPlannedBytes) || maxPlannedBytes < 0) {
    throw new TridentError(`load: maxPlannedBytes must be a non-negative integer, got ${maxPlannedBytes}`, ErrorCode.InvalidArgument);
  }
  if (!Array.isArray(dataFiles)) {
    throw new TridentError('load: dataFiles must be an array of sources', ErrorCode.InvalidArgument);
  }
  signal?.throwIfAborted();
  // Fetch the wasm while the file downloads.
  const module = loadWasm();
  module.catch(() => {});
  const [bytes, ...data] = await readSources([source, ...dataFiles], options);
  const runtime = (await module).module;
  signal?.throwIfAborted();
  return Model.open(runtime, bytes!, data, maxPlannedBytes);
}

export interface RuntimeInfo {
  /** The runtime's version string. */
  version: string;
  /** True when the pthreads build was chosen (see `env.threads`). */
  threads: boolean;
  /**
   * Bytes of wasm memory the module holds now. Wasm memory grows and never
   * shrinks, so this is also the peak since the module was instantiated.
   */
  memoryBytes: number;
}

/** Which runtime build serves this page or process (loads the wasm if needed). */
export async function runtimeInfo(): Promise<RuntimeInfo> {
  const { module, threads } = await loadWasm();
  return { version: module.version(), threads, memoryBytes: module.HEAPU8.buffer.byteLength };
}
