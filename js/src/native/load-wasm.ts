// The single owner of the Emscripten module: finds the build's files,
// compiles the wasm itself (streaming where the server allows it) and
// instantiates the module once per location and build.
//
// The wasm is compiled here and handed to the generated loader through
// `instantiateWasm`: Emscripten 3.1.6's own fetch sees Node's global fetch
// and tries to fetch() a file path, and a compiled module can be shared.
// The build targets web,worker only (its Node branch is broken in ES
// modules: it reads __dirname); the web code path runs fine in Node once
// the Node platform gives the threads build the Worker it expects.
//
// The generated loader (.mjs) is imported from its URL at run time, never
// bundled: the threads build's workers import that same file by URL, and a
// bundler would otherwise rewrite its `new Worker(new URL(...))`.

import { attachJsKernels } from '../custom-kernels.js';
import { env, type WasmFile, type WasmFileUrls } from '../env.js';
import { ErrorCode, TridentError } from '../errors.js';
import { isNode, nodePlatform } from '../platform.js';
import type { UrlLike } from '../read-source.js';
import { notice } from '../threads.js';
import type { HandedBuild } from '../worker/protocol.js';
import type { ModuleFactory, ModuleFactoryOptions, TridentModule } from './types.js';
import { packagedFile, WASM_FILES } from './wasm-files.js';

/** An instantiated module and which of the two builds it is. */
export interface LoadedWasm {
  module: TridentModule;
  threads: boolean;
  /** Size of the kernel thread pool, the calling thread included (1: none). */
  poolThreads: number;
  /** The wasm's URL, or 'embedded'. */
  wasm: string;
}

export type ThreadsChoice = 'auto' | boolean;

type FileUrl = (file: WasmFile) => URL;

const modules = new Map<string, Promise<LoadedWasm>>();
const compiled = new Map<string, Promise<WebAssembly.Module>>();

const HINT = "build it with 'bash scripts/build.sh', or point env.wasmPaths at the folder holding it";

/**
 * The module for the current `env` settings, instantiated on first use.
 * `threads` overrides env.threads for this call (load()'s option).
 */
export function loadWasm(threads: ThreadsChoice = env.threads): Promise<LoadedWasm> {
  if (handedBuild !== undefined) return handedBuild;
  if (threads !== 'auto' && typeof threads !== 'boolean') {
    return Promise.reject(new TridentError(`threads must be 'auto', true or false, got ${String(threads)}`, ErrorCode.InvalidArgument));
  }
  let files: FileUrl;
  try {
    files = fileUrls(env.wasmPaths);
  } catch (err) {
    return Promise.reject(err);
  }
  const key = `${WASM_FILES.map((file) => files(file).href).join('|')}|${String(threads)}`;
  let module = modules.get(key);
  if (module === undefined) {
    module = instantiate(files, threads, env.wasmPaths === undefined);
    modules.set(key, module);
    // A failed load (missing file, offline) must not poison later attempts.
    module.catch(() => modules.delete(key));
  }
  return module;
}

/** A build's generated loader, its compiled wasm, and the URLs its pthread workers start from. */
interface Build {
  factory: ModuleFactory;
  wasmModule: WebAssembly.Module;
  /** The loader's URL, which each pthread worker imports. */
  scriptUrl: string;
  /** The pthread worker script ('' for the single-threaded build). */
  workerUrl: string;
  /** The wasm's URL, or 'embedded'. */
  wasm: string;
}

/** Which build runs, fetched and compiled, and its thread pool's size. */
interface ChosenBuild {
  threads: boolean;
  build: Build;
  poolThreads: number;
}

async function chooseBuild(files: FileUrl, choice: ThreadsChoice, packaged: boolean): Promise<ChosenBuild> {
  let threads = await useThreads(files, choice, packaged);
  let build: Build;
  try {
    build = await fetchBuild(files, threads, packaged);
  } catch (err) {
    if (!threads || choice === true || !isMissing(err)) throw err;
    notice(`Trident: using the single-threaded build: ${(err as Error).message}.`);
    threads = false;
    build = await fetchBuild(files, false, packaged);
  }
  return { threads, build, poolThreads: threads ? poolSize() : 1 };
}

async function instantiate(files: FileUrl, choice: ThreadsChoice, packaged: boolean): Promise<LoadedWasm> {
  return start(await chooseBuild(files, choice, packaged));
}

let handedBuild: Promise<LoadedWasm> | undefined;

/**
 * @internal The page's side of worker mode: the build the page would run,
 * compiled, for its worker, which runs the same one (a compiled module and
 * blob: URLs pass to a worker as they are).
 */
export async function handOverBuild(choice: ThreadsChoice): Promise<HandedBuild> {
  if (choice !== 'auto' && typeof choice !== 'boolean') {
    throw new TridentError(`threads must be 'auto', true or false, got ${String(choice)}`, ErrorCode.InvalidArgument);
  }
  const { threads, build, poolThreads } = await chooseBuild(fileUrls(env.wasmPaths), choice, env.wasmPaths === undefined);
  const { wasmModule, scriptUrl, workerUrl, wasm } = build;
  return { threads, poolThreads, wasmModule, scriptUrl, workerUrl, wasm };
}

/** @internal The worker's side: every load in this worker runs on the build the page handed over. */
export function useHandedBuild(handed: HandedBuild): Promise<LoadedWasm> {
  const { threads, poolThreads, wasmModule, scriptUrl, workerUrl, wasm } = handed;
  handedBuild = importFactory(scriptUrl).then((factory) => start({ threads, poolThreads, build: { factory, wasmModule, scriptUrl, workerUrl, wasm } }));
  return handedBuild;
}

async function start({ threads, build, poolThreads: wantedPool }: ChosenBuild): Promise<LoadedWasm> {
  const { factory, wasmModule, scriptUrl, workerUrl, wasm } = build;
  const name = threads ? 'trident-threads' : 'trident';
  const node = threads && isNode ? nodePlatform('the threads build') : null;
  // The generated loader never settles when instantiateWasm fails; this
  // promise carries that failure out.
  let failInstantiation: (err: unknown) => void = () => {};
  const instantiationFailed = new Promise<never>((_, reject) => (failInstantiation = reject));
  try {
    const options: ModuleFactoryOptions = {
      instantiateWasm: (imports, receive) => {
        WebAssembly.instantiate(wasmModule, imports as WebAssembly.Imports).then((instance) => receive(instance, wasmModule), failInstantiation);
        return {};
      },
      // Emscripten asks for its side files by name: the pthread worker, and
      // the wasm, which it never fetches (instantiateWasm hands it over).
      locateFile: (file) => (file === 'trident-threads.worker.js' ? workerUrl : file),
      mainScriptUrlOrBlob: scriptUrl,
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
    const started = node ? node.withPthreadWorkers(() => factory(options)) : factory(options);
    const module = await Promise.race([started, instantiationFailed]);
    node?.unrefPthreadWorkers(module);
    attachJsKernels(module);
    const poolThreads = threads ? module.startThreadPool(wantedPool) : 1;
    return { module, threads, poolThreads, wasm };
  } catch (err) {
    throw new TridentError(`cannot instantiate ${name}.wasm: ${(err as Error).message ?? String(err)}`, ErrorCode.Internal, {
      cause: err,
    });
  }
}

/** A file that is not there, or not served (as against a broken one). */
function isMissing(err: unknown): boolean {
  return err instanceof TridentError && (err.code === ErrorCode.BackendMissing || err.code === ErrorCode.AccessFailed);
}

/**
 * The build's loader and wasm from their URLs; for the package's own files
 * that the app's bundler did not emit (esbuild leaves
 * `new URL(..., import.meta.url)` alone: evanw/esbuild#795), the copy
 * embedded in the package, which such a bundler inlines.
 */
async function fetchBuild(files: FileUrl, threads: boolean, packaged: boolean): Promise<Build> {
  const name = threads ? 'trident-threads' : 'trident';
  const scriptUrl = files(`${name}.mjs`);
  try {
    const [wasmModule, factory, workerUrl] = await Promise.all([
      compileWasm(files(`${name}.wasm`)),
      importFactory(scriptUrl),
      threads ? sameOriginScript(files('trident-threads.worker.js')) : '',
    ]);
    return { factory, wasmModule, scriptUrl: scriptUrl.href, workerUrl, wasm: files(`${name}.wasm`).href };
  } catch (err) {
    // Node's pthread workers start from files (node/node-pthreads.ts).
    if (!packaged || !isMissing(err) || (threads && isNode)) throw err;
    notice(
      `Trident: ${(err as Error).message.split('; ')[0]}; using the copy of ${name}.wasm embedded in the package ` +
        '(serve its dist/wasm/ folder and set env.wasmPaths to load the files instead).',
    );
    try {
      return await embeddedBuild(threads);
    } catch (embeddedErr) {
      throw new TridentError(`${(err as Error).message}; the embedded copy failed too: ${(embeddedErr as Error).message}`, ErrorCode.BackendMissing, {
        cause: embeddedErr,
      });
    }
  }
}

async function importFactory(url: URL | string): Promise<ModuleFactory> {
  const href = String(url);
  try {
    return ((await import(/* @vite-ignore */ /* webpackIgnore: true */ href)) as { default: ModuleFactory }).default;
  } catch (err) {
    const shown = href.startsWith('data:') || href.startsWith('blob:') ? 'embedded in the package' : href;
    throw new TridentError(`cannot import the Trident wasm loader ${shown}: ${(err as Error).message}`, ErrorCode.AccessFailed, { cause: err });
  }
}

interface EmbeddedPart {
  wasm: string;
  glue?: string;
  worker?: string;
}

async function embeddedBuild(threads: boolean): Promise<Build> {
  // Literal paths, so that a bundler inlines these modules. They are
  // generated beside the wasm (tools/wasm/embed_wasm.mjs), hence unknown to
  // the compiler here.
  const [first, second] = (
    threads
      ? await Promise.all([
          // @ts-ignore: generated by the wasm build
          import('../../wasm/trident-threads-embedded-0.js'),
          // @ts-ignore: generated by the wasm build
          import('../../wasm/trident-threads-embedded-1.js'),
        ])
      : await Promise.all([
          // @ts-ignore: generated by the wasm build
          import('../../wasm/trident-embedded-0.js'),
          // @ts-ignore: generated by the wasm build
          import('../../wasm/trident-embedded-1.js'),
        ])
  ) as [EmbeddedPart, EmbeddedPart];
  const packed = atob(first.wasm + second.wasm);
  const gzipped = new Uint8Array(packed.length);
  for (let i = 0; i < packed.length; ++i) gzipped[i] = packed.charCodeAt(i);
  const bytes = await new Response(new Blob([gzipped]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
  const scriptUrl = scriptFromText(first.glue ?? '');
  return {
    factory: await importFactory(scriptUrl),
    wasmModule: await WebAssembly.compile(bytes),
    scriptUrl,
    workerUrl: threads ? scriptFromText(first.worker ?? '') : '',
    wasm: 'embedded',
  };
}

/** A URL to import `text` from: a blob: URL has the page's origin; Node imports data: URLs only. */
function scriptFromText(text: string): string {
  if (isNode || typeof URL.createObjectURL !== 'function') return `data:text/javascript,${encodeURIComponent(text)}`;
  return URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
}

/**
 * The pthread worker script's URL, as a blob: URL where a worker could not
 * start from it: a data: URL (vite inlines assets under 4 KiB, this script
 * among them), whose worker has an opaque origin and so could not import
 * the loader; or another origin (a CDN), from which no page may start a
 * worker. A blob: URL made here has the page's origin.
 */
async function sameOriginScript(url: URL): Promise<string> {
  const pageOrigin = (globalThis as { location?: { origin?: string } }).location?.origin;
  const foreign = url.protocol === 'data:' || (pageOrigin !== undefined && url.protocol !== 'blob:' && url.origin !== pageOrigin);
  if (!foreign || isNode || typeof URL.createObjectURL !== 'function') return url.href;
  const response = await fetchFile(url);
  return URL.createObjectURL(new Blob([await response.text()], { type: 'text/javascript' }));
}

/** One of Trident's files over HTTP: an ok response, or BackendMissing (404) / AccessFailed naming the URL and the fix. */
async function fetchFile(url: URL): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (err) {
    throw new TridentError(`cannot fetch ${url.href}: ${(err as Error).message}`, ErrorCode.AccessFailed, { cause: err });
  }
  if (!response.ok) {
    throw new TridentError(`cannot fetch ${url.href}: HTTP ${response.status}; ${HINT}`, response.status === 404 ? ErrorCode.BackendMissing : ErrorCode.AccessFailed);
  }
  return response;
}

/** Where each file is, from env.wasmPaths: a folder, a per-file map, or the package's own files. */
function fileUrls(configured: WasmFileUrls | string | UrlLike | undefined): FileUrl {
  if (configured === undefined) return packagedFile;
  if (typeof configured === 'string' || isUrlLike(configured)) {
    const folder = toUrl(configured, 'env.wasmPaths');
    // A folder URL must end in '/' or relative resolution drops its last part.
    const base = folder.href.endsWith('/') ? folder : new URL(`${folder.href}/`);
    return (file) => new URL(file, base);
  }
  if (typeof configured !== 'object' || configured === null) {
    throw new TridentError(`env.wasmPaths must be a folder (URL or path) or an object of file URLs, got ${String(configured)}`, ErrorCode.InvalidArgument);
  }
  const placed = new Map<WasmFile, URL>();
  for (const [file, where] of Object.entries(configured)) {
    if (!WASM_FILES.includes(file as WasmFile)) {
      throw new TridentError(`env.wasmPaths has no file '${file}'; the files are ${WASM_FILES.join(', ')}`, ErrorCode.InvalidArgument);
    }
    if (where !== undefined) placed.set(file as WasmFile, toUrl(where, `env.wasmPaths['${file}']`));
  }
  return (file) => placed.get(file) ?? packagedFile(file);
}

function toUrl(where: string | UrlLike, what: string): URL {
  if (isUrlLike(where)) return new URL(where.href);
  if (typeof where !== 'string') throw new TridentError(`${what} must be a URL or a path, got ${typeof where}`, ErrorCode.InvalidArgument);
  try {
    if (/^[a-zA-Z][a-zA-Z0-9+.-]+:/.test(where)) return new URL(where);
    if (isNode) return nodePlatform(what).pathToFileUrl(where);
    return new URL(where, (globalThis as { document?: { baseURI?: string } }).document?.baseURI ?? globalThis.location?.href);
  } catch (err) {
    if (err instanceof TridentError) throw err;
    throw new TridentError(`${what}: '${where}' is not a valid URL (${(err as Error).message})`, ErrorCode.InvalidArgument, { cause: err });
  }
}

function isUrlLike(v: unknown): v is UrlLike {
  return typeof v === 'object' && v !== null && typeof (v as UrlLike).href === 'string';
}

async function useThreads(files: FileUrl, choice: ThreadsChoice, packaged: boolean): Promise<boolean> {
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
  // The package's own files: fetchBuild falls back to the embedded copy.
  if (packaged) return true;
  const url = files('trident-threads.wasm');
  const present = await exists(url);
  if (!present) {
    if (choice === true) throw new TridentError(`threads were required but ${url.href} does not exist`, ErrorCode.BackendMissing);
    notice(`Trident: using the single-threaded build: ${url.href} was not found.`);
  }
  return present;
}

/** env.numThreads, or the machine's logical cores. */
function poolSize(): number {
  const asked = env.numThreads;
  if (asked !== 0) {
    if (!Number.isSafeInteger(asked) || asked < 1) {
      throw new TridentError(`env.numThreads must be a positive integer or 0, got ${String(asked)}`, ErrorCode.InvalidArgument);
    }
    return asked;
  }
  // Node 20 has no navigator.
  const cores = isNode
    ? nodePlatform('sizing the thread pool').availableParallelism()
    : (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  return typeof cores === 'number' && cores > 0 ? cores : 1;
}

async function exists(url: URL): Promise<boolean> {
  if (url.protocol === 'file:' && isNode) {
    const node = nodePlatform(`reading ${url.href}`);
    return node.fileExists(node.fileUrlToPath(url));
  }
  try {
    const response = await fetch(url, { method: 'HEAD' });
    // A single-page app's fallback answers any path with its index.html.
    return response.ok && !(response.headers.get('content-type') ?? '').startsWith('text/html');
  } catch {
    return false;
  }
}

/** The compiled wasm at `url`, compiled once however many times it is asked for. */
function compileWasm(url: URL): Promise<WebAssembly.Module> {
  let module = compiled.get(url.href);
  if (module === undefined) {
    module = compileFrom(url);
    compiled.set(url.href, module);
    module.catch(() => compiled.delete(url.href));
  }
  return module;
}

async function compileFrom(url: URL): Promise<WebAssembly.Module> {
  if (url.protocol === 'file:' && isNode) {
    const node = nodePlatform(`reading ${url.href}`);
    const path = node.fileUrlToPath(url);
    if (!(await node.fileExists(path))) throw new TridentError(`Trident wasm build not found at ${path}; ${HINT}`, ErrorCode.BackendMissing);
    return compileBytes(await node.readFile(path), url, undefined);
  }
  const response = await fetchFile(url);
  const type = response.headers.get('content-type') ?? undefined;
  // Served as application/wasm, the module compiles while it downloads.
  if (type?.split(';')[0]?.trim() === 'application/wasm' && typeof WebAssembly.compileStreaming === 'function') {
    try {
      return await WebAssembly.compileStreaming(response);
    } catch (err) {
      throw new TridentError(`cannot compile ${url.href}: ${(err as Error).message}`, ErrorCode.Internal, { cause: err });
    }
  }
  return compileBytes(new Uint8Array(await response.arrayBuffer()), url, type);
}

async function compileBytes(bytes: Uint8Array, url: URL, type: string | undefined): Promise<WebAssembly.Module> {
  const magic = [0x00, 0x61, 0x73, 0x6d];
  if (!magic.every((byte, i) => bytes[i] === byte)) {
    const head = new TextDecoder().decode(bytes.subarray(0, 24)).replace(/\s+/g, ' ');
    throw new TridentError(
      `${url.href} is not a wasm file: it starts with ${JSON.stringify(head)}${type === undefined ? '' : `, served as ${type}`}. ` +
        "The server answered that URL with another file (often a single-page app's index.html): serve Trident's files there, " +
        'or point env.wasmPaths at where they are',
      ErrorCode.BackendMissing,
    );
  }
  try {
    return await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
  } catch (err) {
    throw new TridentError(`cannot compile ${url.href}: ${(err as Error).message}`, ErrorCode.Internal, { cause: err });
  }
}
