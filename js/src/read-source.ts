// Turns whatever the caller has (a URL, a path, bytes, a Response, a Blob)
// into the file's bytes, reporting progress and honouring an AbortSignal.

import { throwIfAborted, type AbortSignalLike } from './abort.js';
import { ErrorCode, TridentError } from './errors.js';
import { checkFileSize } from './limits.js';
import { describeValue } from './tensor.js';
import { cachedResponse, checkCacheAvailable, isCacheable, keepResponse } from './model-cache.js';
import { isNode, nodePlatform, type ReportProgress } from './platform.js';

/**
 * Where a model (or external-data) file comes from. A string is a URL
 * (http, https, data, blob, file); in Node any other string is a file path,
 * and in a browser it is resolved against the page's URL. A string that
 * holds a line break, or starts with `func.func` or `module`, is TFRT MLIR
 * source text instead, loaded as it is.
 *
 * The object types are structural (see {@link UrlLike}, {@link ResponseLike},
 * {@link BlobLike}), so these declarations need neither the DOM library nor
 * Node's types: a WHATWG `URL`, `Response`, `Blob` or `File` fits them.
 */
export type ModelSource = string | UrlLike | ArrayBuffer | Uint8Array | ResponseLike | BlobLike;

export interface ReadOptions {
  /** Called as bytes arrive; `total` is undefined while the size is unknown. */
  onProgress?: ((loaded: number, total: number | undefined) => void) | undefined;
  /** Aborts reading (and loading): a WHATWG `AbortSignal`. */
  signal?: AbortSignalLike | undefined;
  /**
   * Keep http(s) downloads in the browser's Cache API and read them from
   * there next time (see `cache`); other sources are read as usual.
   * Default false. Node has no Cache API: true is refused there
   * (NotSupported).
   */
  cache?: boolean | undefined;
}

/** What the API reads of a WHATWG `URL`. */
export interface UrlLike {
  readonly href: string;
  readonly protocol: string;
}

/** What the API reads of a fetch `Response`: its status, headers and body stream. */
export interface ResponseLike {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly url: string;
  readonly bodyUsed: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: unknown;
}

/** What the API reads of a `Blob` or `File`. */
export interface BlobLike {
  readonly size: number;
  readonly type: string;
  stream(): unknown;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** A file's bytes and what messages call it (its path or URL; '' for bytes and text). */
export interface SourceBytes {
  bytes: Uint8Array;
  name: string;
}

const URL_SCHEMES = new Set(['http:', 'https:', 'data:', 'blob:', 'file:']);

/**
 * Reads several sources one after another. Progress is cumulative over all of
 * them; the total grows as each file's size becomes known. A file over
 * `maxFileBytes` fails with LimitExceeded as soon as its size or what has
 * arrived says so, without reading the rest.
 */
export async function readSources(
  sources: readonly ModelSource[],
  options: ReadOptions = {},
  maxFileBytes = Number.POSITIVE_INFINITY,
): Promise<SourceBytes[]> {
  const { onProgress, signal, cache = false } = options;
  throwIfAborted(signal);
  if (typeof cache !== 'boolean') throw new TridentError(`load: cache must be true or false, got ${describeValue(cache)}`, ErrorCode.InvalidArgument);
  if (cache) checkCacheAvailable();
  const out: SourceBytes[] = [];
  let doneBytes = 0;
  let doneTotal: number | undefined = 0;
  for (const source of sources) {
    const report: ReportProgress = (loaded, total) =>
      onProgress?.(doneBytes + loaded, doneTotal === undefined || total === undefined ? undefined : doneTotal + total);
    const read = await readSource(source, { report, maxBytes: maxFileBytes }, cache, signal);
    doneBytes += read.bytes.length;
    if (doneTotal !== undefined) doneTotal += read.bytes.length;
    out.push(read);
  }
  throwIfAborted(signal);
  return out;
}

/**
 * Whether a string given as a source is MLIR text rather than a location:
 * paths and URLs hold no line breaks, and none starts like a TFRT program.
 */
export function isSourceText(text: string): boolean {
  return /[\r\n]/.test(text) || /^\s*(func\.func|module)\b/.test(text);
}

/** Where one file's progress goes, and the most bytes it may have. */
interface Reading {
  report: ReportProgress;
  maxBytes: number;
}

async function readSource(source: ModelSource, reading: Reading, cache: boolean, signal?: AbortSignalLike): Promise<SourceBytes> {
  throwIfAborted(signal);
  const unnamed = async (bytes: Promise<Uint8Array> | Uint8Array): Promise<SourceBytes> => ({ bytes: await bytes, name: '' });
  if (typeof source === 'string') {
    if (isSourceText(source)) return unnamed(whole(new TextEncoder().encode(source), reading, 'the text'));
    const location = parseLocation(source);
    return { bytes: await readLocation(location, reading, cache, signal), name: typeof location === 'string' ? location : shortUrl(location) };
  }
  if (isUrlLike(source)) {
    const url = source instanceof URL ? source : parseUrl(source.href);
    return { bytes: await readLocation(url, reading, cache, signal), name: shortUrl(url) };
  }
  if (isArrayBuffer(source)) return unnamed(whole(new Uint8Array(source), reading, 'the ArrayBuffer'));
  if (ArrayBuffer.isView(source)) {
    return unnamed(whole(new Uint8Array(source.buffer, source.byteOffset, source.byteLength), reading, `the ${source.constructor.name}`));
  }
  if (typeof Response !== 'undefined' && source instanceof Response) {
    return { bytes: await readResponse(source, reading, signal), name: source.url === '' ? '' : shortUrl(source.url) };
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    const name = typeof (source as { name?: unknown }).name === 'string' ? (source as unknown as { name: string }).name : '';
    return { bytes: await readStream(source.stream(), source.size, reading, name === '' ? 'the Blob' : `'${name}'`, signal), name };
  }
  throw new TridentError(
    `load: unsupported source ${describeValue(source)}; expected a URL string or path, URL, ArrayBuffer, Uint8Array, Response, Blob or File`,
    ErrorCode.InvalidArgument,
  );
}

/** A string as a URL, or (Node only) as a file path. */
function parseLocation(text: string): URL | string {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*:)/.exec(text)?.[1]?.toLowerCase();
  // A one-letter "scheme" is a Windows drive ("C:\models\x.pte"), not a URL.
  if (scheme !== undefined && scheme.length > 2 && URL_SCHEMES.has(scheme)) return parseUrl(text);
  if (isNode) return text;
  const base = (globalThis as { document?: { baseURI?: string } }).document?.baseURI ?? globalThis.location?.href;
  if (base === undefined) {
    throw new TridentError(`load: cannot resolve relative URL '${text}' (no page URL to resolve it against)`, ErrorCode.InvalidArgument);
  }
  return parseUrl(text, base);
}

function parseUrl(text: string, base?: string): URL {
  try {
    return new URL(text, base);
  } catch (err) {
    throw new TridentError(`load: ${JSON.stringify(shortUrl(text))} is not a valid URL (${(err as Error).message})`, ErrorCode.InvalidArgument, { cause: err });
  }
}

async function readLocation(location: URL | string, reading: Reading, cache: boolean, signal?: AbortSignalLike): Promise<Uint8Array> {
  if (cache && typeof location !== 'string' && isCacheable(location)) {
    const kept = await cachedResponse(location);
    if (kept !== undefined) return readResponse(kept, reading, signal, location);
    const { bytes, contentType } = await download(location, reading, signal);
    await keepResponse(location, bytes, contentType);
    return bytes;
  }
  return (await download(location, reading, signal)).bytes;
}

async function download(location: URL | string, reading: Reading, signal?: AbortSignalLike): Promise<{ bytes: Uint8Array; contentType: string | null }> {
  if (typeof location === 'string') {
    const node = nodePlatform(`load('${shortUrl(location)}')`);
    return { bytes: await node.readFile(location, reading.report, signal, reading.maxBytes), contentType: null };
  }
  if (location.protocol === 'file:' && isNode) {
    const node = nodePlatform(`load('${shortUrl(location)}')`);
    return { bytes: await node.readFile(node.fileUrlToPath(location), reading.report, signal, reading.maxBytes), contentType: null };
  }
  let response: Response;
  try {
    response = await fetch(location, signal ? { signal: signal as AbortSignal } : {});
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    throw new TridentError(`cannot fetch ${shortUrl(location)}: ${(err as Error).message}${cause ? ` (${cause})` : ''}`, ErrorCode.AccessFailed, {
      cause: err,
    });
  }
  return { bytes: await readResponse(response, reading, signal, location), contentType: response.headers.get('content-type') };
}

async function readResponse(response: Response, reading: Reading, signal?: AbortSignalLike, url?: URL): Promise<Uint8Array> {
  const where = shortUrl(url ?? response.url);
  if (!response.ok && response.status !== 0) {
    throw new TridentError(
      `cannot fetch ${where}: HTTP ${response.status} ${response.statusText}`.trimEnd(),
      response.status === 404 || response.status === 410 ? ErrorCode.NotFound : ErrorCode.AccessFailed,
    );
  }
  if (response.bodyUsed) throw new TridentError(`load: the Response body for ${where} was already read`, ErrorCode.InvalidArgument);
  const what = where === '' ? 'the Response' : where;
  if (response.body === null) return whole(new Uint8Array(0), reading, what);
  // Content-Length counts encoded bytes; with compression the stream yields
  // more than that, so the total is unknown.
  const length = Number(response.headers.get('content-length') ?? NaN);
  const total = Number.isSafeInteger(length) && !response.headers.get('content-encoding') ? length : undefined;
  if (total !== undefined && total > reading.maxBytes) {
    await (response.body as ReadableStream<Uint8Array>).cancel().catch(() => {});
    checkFileSize(what, total, reading.maxBytes);
  }
  return readStream(response.body, total, reading, what, signal);
}

async function readStream(
  stream: ReadableStream<Uint8Array>,
  total: number | undefined,
  { report, maxBytes }: Reading,
  what: string,
  signal?: AbortSignalLike,
): Promise<Uint8Array> {
  if (total !== undefined) checkFileSize(what, total, maxBytes);
  const reader = stream.getReader();
  const onAbort = (): void => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    let buffer = new Uint8Array(total ?? 64 * 1024);
    let loaded = 0;
    report(0, total);
    for (;;) {
      const { done, value } = await reader.read();
      throwIfAborted(signal);
      if (done) break;
      if (loaded + value.length > maxBytes) {
        // A server may send more than it announced, or announce nothing.
        void reader.cancel().catch(() => {});
        checkFileSize(what, loaded + value.length, maxBytes, true);
      }
      if (loaded + value.length > buffer.length) {
        const grown = new Uint8Array(Math.max(buffer.length * 2, loaded + value.length));
        grown.set(buffer.subarray(0, loaded));
        buffer = grown;
      }
      buffer.set(value, loaded);
      loaded += value.length;
      report(loaded, total);
    }
    return loaded === buffer.length ? buffer : buffer.slice(0, loaded);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

function whole(bytes: Uint8Array, { report, maxBytes }: Reading, what: string): Uint8Array {
  checkFileSize(what, bytes.length, maxBytes);
  report(bytes.length, bytes.length);
  return bytes;
}

function isUrlLike(v: unknown): v is UrlLike {
  return typeof v === 'object' && v !== null && typeof (v as UrlLike).href === 'string' && typeof (v as UrlLike).protocol === 'string';
}

function isArrayBuffer(v: unknown): v is ArrayBuffer {
  // instanceof fails across realms (iframes, vm contexts); the tag does not.
  return Object.prototype.toString.call(v) === '[object ArrayBuffer]';
}

/** URLs in messages: data: URLs can be megabytes long. */
function shortUrl(url: URL | string): string {
  const text = String(url);
  return text.length > 120 ? `${text.slice(0, 100)}...` : text;
}
