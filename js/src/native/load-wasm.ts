// The single owner of the Emscripten module: finds the build, reads the
// .wasm bytes itself and instantiates the module once per location.
//
// Layout: this file compiles to dist/js/native/load-wasm.js and the build
// puts the module in dist/wasm/, so the default folder is ../../wasm/.
//
// The bytes are always passed in as `wasmBinary`: Emscripten 3.1.6's own
// loader sees Node's global fetch and tries to fetch() a file path. The build
// targets web,worker only (its Node branch is broken in ES modules: it reads
// __dirname); with the bytes passed in, the web code path runs fine in Node.

import { attachJsKernels } from '../custom-kernels.js';
import { env } from '../env.js';
import { ErrorCode, TridentError } from '../errors.js';
import { fileExists, fileUrlToPath, isNode, readFileWithProgress } from '../node/node-fs.js';
import type { ModuleFactory, TridentModule } from './types.js';

const DEFAULT_WASM_DIR = new URL('../../wasm/', import.meta.url);

/** An instantiated module and which of the two builds it is. */
export interface LoadedWasm {
  module: TridentModule;
  threads: boolean;
}

const modules = new Map<string, Promise<LoadedWasm>>();

/** The module for the current `env` settings, instantiated on first use. */
export function loadWasm(): Promise<LoadedWasm> {
  const key = `${String(env.wasmPaths ?? '')}|${String(env.threads)}`;
  let module = modules.get(key);
  if (module === undefined) {
    module = instantiate();
    modules.set(key, module);
    // A failed load (missing file, offline) must not poison later attempts.
    module.catch(() => modules.delete(key));
  }
  return module;
}

async function instantiate(): Promise<LoadedWasm> {
  const dir = await wasmDir();
  const threads = await useThreads(dir);
  const name = threads ? 'trident-threads' : 'trident';
  const scriptUrl = new URL(`${name}.mjs`, dir);
  const wasmBinary = await readWasm(new URL(`${name}.wasm`, dir));
  let factory: ModuleFactory;
  try {
    factory = ((await import(/* @vite-ignore */ scriptUrl.href)) as { default: ModuleFactory }).default;
  } catch (err) {
    throw new TridentError(`cannot import the Trident wasm loader ${scriptUrl.href}: ${(err as Error).message}`, ErrorCode.AccessFailed, {
      cause: err,
    });
  }
  try {
    const module = await factory({
      wasmBinary,
      // Emscripten asks for its side files (the pthread worker) by name.
      locateFile: (file) => new URL(file, dir).href,
      mainScriptUrlOrBlob: scriptUrl.href,
      // Runtime logs go to stderr (console.warn): stdout belongs to the
      // embedding program, e.g. the CLI's --json output.
      print: (text) => console.warn(text),
      printErr: (text) => console.warn(text),
    });
    attachJsKernels(module);
    return { module, threads };
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
  if (configured instanceof URL) url = configured;
  else if (/^[a-zA-Z][a-zA-Z0-9+.-]+:/.test(configured)) url = new URL(configured);
  else if (isNode) url = (await import('node:url')).pathToFileURL(configured);
  else url = new URL(configured, globalThis.location?.href);
  // A folder URL must end in '/' or relative resolution drops its last part.
  return url.href.endsWith('/') ? url : new URL(`${url.href}/`);
}

async function useThreads(dir: URL): Promise<boolean> {
  if (env.threads === false) return false;
  // Threads need shared memory, which browsers give only to cross-origin
  // isolated pages (COOP/COEP); the build targets browsers, not Node.
  const isolated =
    (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
  if (!isolated) {
    if (env.threads === true) {
      throw new TridentError(
        'env.threads is true, but the threads build needs a cross-origin isolated browser page (COOP/COEP headers); this environment is not one',
        ErrorCode.NotSupported,
      );
    }
    return false;
  }
  const url = new URL('trident-threads.wasm', dir);
  const present = await exists(url);
  if (!present && env.threads === true) {
    throw new TridentError(`env.threads is true but ${url.href} does not exist`, ErrorCode.NotFound);
  }
  return present;
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
      throw new TridentError(`Trident wasm build not found at ${path}; ${hint}`, ErrorCode.NotFound);
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
    throw new TridentError(`cannot fetch ${url.href}: HTTP ${response.status}; ${hint}`, ErrorCode.NotFound);
  }
  return new Uint8Array(await response.arrayBuffer());
}
