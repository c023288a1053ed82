// load(): bytes from any source, format from the bytes, then the runtime.

import { describeFormat, detectFormat } from './detect-format.js';
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
  // Fetch the wasm while the file downloads; a bad file is still reported
  // as such (not as a wasm problem) because its bytes are checked first.
  const module = loadWasm();
  module.catch(() => {});
  const [bytes, ...data] = await readSources([source, ...dataFiles], options);
  const format = detectFormat(bytes!);
  if (format === 'pt2' || format === 'bef') {
    throw new TridentError(
      `${describeFormat(format)} files are not supported by this build yet; it runs ExecuTorch .pte and .bpte programs`,
      ErrorCode.NotSupported,
    );
  }
  const runtime = (await module).module;
  signal?.throwIfAborted();
  return Model.open(runtime, bytes!, data, format, maxPlannedBytes);
}

export interface RuntimeInfo {
  /** The runtime's version string. */
  version: string;
  /** True when the pthreads build was chosen (see `env.threads`). */
  threads: boolean;
}

/** Which runtime build serves this page or process (loads the wasm if needed). */
export async function runtimeInfo(): Promise<RuntimeInfo> {
  const { module, threads } = await loadWasm();
  return { version: module.version(), threads };
}
