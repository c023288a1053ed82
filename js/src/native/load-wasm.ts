// The single owner of the Emscripten module: finds the build, reads the
// .wasm bytes itself and instantiates the module once per location.
//
// Layout: this file compiles to dist/js/native/load-wasm.js and the build
// puts the module in dist/wasm/, so the default folder is ../../wasm/.
//
// The bytes are always passed in as `wasmBinary`: Emscripten 3.1.6's own
// loader sees Node's global fetch and tries to fetch() a file path. The build
// targets web,worker only (its Node branch is broken in ES modules: it reads
// __dirname); with the bytes passed in, the web code path runs fine in Node,
// and node/node-pthreads.ts gives the threads build the Worker it expects.

import { attachJsKernels } from '../custom-kernels.js';
import { env } from '../env.js';
import { ErrorCode, TridentError } from '../errors.js';
import { fileExists, fileUrlToPath, isNode, readFileWithProgress } from '../node/node-fs.js';
import { notice } from '../threads.js';
import type { ModuleFactory, ModuleFactoryOptions, TridentModule } from './types.js';

const DEFAULT_WASM_DIR = new URL('../../wasm/', import.meta.url);

/** An instantiated module and which of the two builds it is. */
export interface LoadedWasm {
  module: TridentModule;
  threads: boolean;
  /** Size of the kernel thread pool, the calling thread included (1: none). */
  poolThreads: number;
}

export type ThreadsChoice = 'auto' | boolean;

const modules = new Map<string, Promise<LoadedWasm>>();

/**
 * The module for the current `env` settings, instantiated on first use.
 * `threads` overrides env.threads for this call (load()'s option).
 */
export function loadWasm(threads: ThreadsChoice = env.threads): Promise<LoadedWasm> {
  if (threads !== 'auto' && typeof threads !== 'boolean') {
    return Promise.reject(new TridentError(`threads must be 'auto', true or false, got ${String(threads)}`, ErrorCode.InvalidArgument));
  }
  const key = `${String(env.wasmPaths ?? '')}|${String(threads)}`;
  let module = modules.get(key);
  if (module === undefined) {
    module = instantiate(threads);
    modules.set(key, module);
    // A failed load (missing file, offline) must not poison later attempts.
    module.catch(() => modules.delete(key));
  }
  return module;
}

async function instantiate(choice: ThreadsChoice): Promise<LoadedWasm> {
  const dir = await wasmDir();
  const threads = await useThreads(dir, choice);
  const wantedPool = threads ? await poolSize() : 1;
  const name = threads ? 'trident-threads' : 'trident';
  const scriptUrl = new URL(`${name}.mjs`, dir);
  const wasmBinary = await readWasm(new URL(`${name}.wasm`, dir));
  const pthreads = threads && isNode ? await import('../node/node-pthreads.js') : null;
  let factory: ModuleFactory;
  try {
    factory = ((await import(/* @vite-ignore */ scriptUrl.href)) as { default: ModuleFactory }).default;
  } catch (err) {
    throw new TridentError(`cannot import the Trident wasm loader ${scriptUrl.href}: ${(err as Error).message}`, ErrorCode.AccessFailed, {
      cause: err,
    });
  }
  try {
    const options: ModuleFactoryOptions = {
      wasmBinary,
      // Emscripten asks for its side files (the pthread worker) by name.
      locateFile: (file) => new URL(file, dir).href,
      mainScriptUrlOrBlob: scriptUrl.href,
      // Runtime logs go to stderr (console.warn): stdout belongs to the
      // embedding program, e.g. the CLI's --json output.
      print: (text) => console.warn(text),
      printErr: (text) => {
        // Node's main thread may block (Atomics.wait works there): the
        // warning Emscripten prints for browsers' main threads is noise.
        if (isNode && text.startsWith('Blocking on the main thread is very dangerous')) return;
        console.warn(text);
      },
      // The pool's threads beyond the caller, started before the module
      // resolves (see wasm/CMakeLists.txt).
      tridentWorkers: wantedPool - 1,
    };
    const module = await (pthreads ? pthreads.withWebWorkers(() => factory(options)) : factory(options));
    pthreads?.unrefPthreadWorkers(module);
    attachJsKernels(module);
    const poolThreads = threads ? module.startThreadPool(wantedPool) : 1;
    return { module, threads, poolThreads };
  } catch (err) {
    throw new TridentError(`cannot instantiate ${name}.wasm: ${(err as Error).message ?? String(err)}`, ErrorCode.Internal, {
      cause: err,
    });
  }
}

async function wasmDir(): Promise<URL> {
  const configured = env.wasmPaths;
  if (configured === undefined) return DEFAULT_WASM_DIR;
  let url: URL;
  if (typeof configured === 'object' && configured !== null) url = new URL(configured.href);
  else if (/^[a-zA-Z][a-zA-Z0-9+.-]+:/.test(configured)) url = new URL(configured);
  else if (isNode) url = (await import('node:url')).pathToFileURL(configured);
  else url = new URL(configured, globalThis.location?.href);
  // A folder URL must end in '/' or relative resolution drops its last part.
  return url.href.endsWith('/') ? url : new URL(`${url.href}/`);
}

async function useThreads(dir: URL, choice: ThreadsChoice): Promise<boolean> {
  if (choice === false) return false;
  // Threads need shared memory. Node has it; browsers give it only to
  // cross-origin isolated pages (COOP/COEP headers).
  const shared = typeof SharedArrayBuffer === 'function';
  const isolated = isNode ? shared : (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true && shared;
  if (!isolated) {
    const why = 'this page is not cross-origin isolated (serve it with the COOP/COEP headers to get SharedArrayBuffer)';
    if (choice === true) {
      throw new TridentError(`threads were required, but ${why}`, ErrorCode.NotSupported);
    }
    notice(`Trident: using the single-threaded build: ${why}.`);
    return false;
  }
  const url = new URL('trident-threads.wasm', dir);
  const present = await exists(url);
  if (!present) {
    if (choice === true) throw new TridentError(`threads were required but ${url.href} does not exist`, ErrorCode.BackendMissing);
    notice(`Trident: using the single-threaded build: ${url.href} was not found.`);
  }
  return present;
}

/** env.numThreads, or the machine's logical cores. */
async function poolSize(): Promise<number> {
  const asked = env.numThreads;
  if (asked !== 0) {
    if (!Number.isSafeInteger(asked) || asked < 1) {
      throw new TridentError(`env.numThreads must be a positive integer or 0, got ${String(asked)}`, ErrorCode.InvalidArgument);
    }
    return asked;
  }
  // Node 20 has no navigator.
  const cores = isNode
    ? (await import('node:os')).availableParallelism()
    : (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  return typeof cores === 'number' && cores > 0 ? cores : 1;
}

async function exists(url: URL): Promise<boolean> {
  if (url.protocol === 'file:' && isNode) return fileExists(await fileUrlToPath(url));
  try {
    return (await fetch(url, { method: 'HEAD' })).ok;
  } catch {
    return false;
  }
}

async function readWasm(url: URL): Promise<Uint8Array> {
  const hint = "build it with 'bash scripts/build.sh', or point env.wasmPaths at the folder holding it";
  if (url.protocol === 'file:' && isNode) {
    const path = await fileUrlToPath(url);
    if (!(await fileExists(path))) {
      throw new TridentError(`Trident wasm build not found at ${path}; ${hint}`, ErrorCode.BackendMissing);
    }
    return readFileWithProgress(path);
  }
  let response: Response;
  try {
    response = await fetch(url);
  } catch (err) {
    throw new TridentError(`cannot fetch ${url.href}: ${(err as Error).message}`, ErrorCode.AccessFailed, { cause: err });
  }
  if (!response.ok) {
    throw new TridentError(`cannot fetch ${url.href}: HTTP ${response.status}; ${hint}`, response.status === 404 ? ErrorCode.BackendMissing : ErrorCode.AccessFailed);
  }
  return new Uint8Array(await response.arrayBuffer());
}
