// Process-wide settings of the wasm loader, read when the module is first
// loaded (changing them later affects only modules loaded afterwards).

import type { UrlLike } from './read-source.js';

export interface WasmEnv {
  /**
   * Folder (URL, or a path in Node) holding trident.mjs/.wasm and
   * trident-threads.mjs/.wasm. Default: dist/wasm/ of this package, found
   * relative to the compiled API (dist/js/native/ -> ../../wasm/).
   */
  wasmPaths?: string | UrlLike | undefined;
  /**
   * 'auto' uses the threads build when the page is cross-origin isolated
   * (SharedArrayBuffer available) and the file exists; false never does;
   * true requires it.
   */
  threads: 'auto' | boolean;
  /**
   * Size of the threads build's kernel thread pool, the calling thread
   * included. 0 (default): the machine's logical cores. Read when the
   * threads build is first instantiated.
   */
  numThreads: number;
  /**
   * Whether kernels use their wasm SIMD128 paths (default true). false runs
   * the scalar reference paths instead, on the same build; read at every run.
   */
  simd: boolean;
}

export const env: WasmEnv = { wasmPaths: undefined, threads: 'auto', numThreads: 0, simd: true };
