// Process-wide settings of the wasm loader, read when the module is first
// loaded (changing them later affects only modules loaded afterwards).

import { DEFAULT_LIMITS, type Limits } from './limits.js';
import type { UrlLike } from './read-source.js';

/** Trident's wasm-side files, which env.wasmPaths can place one by one. */
export type WasmFile = 'trident.wasm' | 'trident.mjs' | 'trident-threads.wasm' | 'trident-threads.mjs' | 'trident-threads.worker.js';

/** Where each of Trident's files is served, one by one; a file left out is the package's own. */
export type WasmFileUrls = { [file in WasmFile]?: string | UrlLike | undefined };

export interface WasmEnv {
  /**
   * Where Trident's wasm files are: a folder (URL, or a path in Node)
   * holding all of them, or an object giving some files their own URLs
   * (e.g. a CDN). Default: the package's own dist/wasm/, which bundlers
   * (vite, webpack 5, Rollup) emit as assets of the app.
   */
  wasmPaths?: string | UrlLike | WasmFileUrls | undefined;
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
  /**
   * Load every model in worker mode (load()'s `worker` option, whose
   * default this is): in a dedicated worker, so runs never block the page.
   * Default false.
   */
  worker: boolean;
  /**
   * The limits every load() starts from (each of load()'s options of the
   * same name overrides one for that model): file size, planned memory,
   * tensor elements, instructions per run. Safe defaults; see Limits.
   */
  limits: Limits;
}

export const env: WasmEnv = { wasmPaths: undefined, threads: 'auto', numThreads: 0, simd: true, worker: false, limits: { ...DEFAULT_LIMITS } };
