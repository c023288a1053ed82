// Turns whatever the caller has (a URL, a path, bytes, a Response, a Blob)
// into the file's bytes, reporting progress and honouring an AbortSignal.

import { ErrorCode, TridentError } from './errors.js';
import { describeValue } from './tensor.js';
import { fileUrlToPath, isNode, readFileWithProgress, type ReportProgress } from './node/node-fs.js';

/**
 * Where a model (or external-data) file comes from. A string is a URL
 * (http, https, data, blob, file); in Node any other string is a file path,
 * and in a browser it is resolved against the page's URL.
 */
export type ModelSource = string | URL | ArrayBuffer | Uint8Array | Response | Blob;

export interface ReadOptions {
  /** Called as bytes arrive; `total` is undefined while the size is unknown. */
  onProgress?: (loaded: number, total: number | undefined) => void;
  signal?: AbortSignal;
}

const URL_SCHEMES = new Set(['http:', 'https:', 'data:', 'blob:', 'file:']);

/**
 * Reads several sources one after another. Progress is cumulative over all of
 * them; the total grows as each file's size becomes known.
 */
export async function readSources(sources: readonly ModelSource[], options: ReadOptions = {}): Promise<Uint8Array[]> {
  const { onProgress, signal } = options;
  signal?.throwIfAborted();
  const out: Uint8Array[] = [];
  let doneBytes = 0;
  let doneTotal: number | undefined = 0;
  for (const source of sources) {
    const report: ReportProgress = (loaded, total) =>
      onProgress?.(doneBytes + loaded, doneTotal === undefined || total === undefined ? undefined : doneTotal + total);
    const bytes = await readSource(source, report, signal);
    doneBytes += bytes.length;
    if (doneTotal !== undefined) doneTotal += bytes.length;
    out.push(bytes);
  }
  signal?.throwIfAborted();
  return out;
}

async function readSource(source: ModelSource, report: ReportProgress, signal?: AbortSignal): Promise<Uint8Array> {
  signal?.throwIfAborted();
  if (typeof source === 'string') return readLocation(parseLocation(source), report, signal);
  if (source instanceof URL) return readLocation(source, report, signal);
  if (isArrayBuffer(source)) return whole(new Uint8Array(source), report);
  if (ArrayBuffer.isView(source)) {
    return whole(new Uint8Array(source.buffer, source.byteOffset, source.byteLength), report);
  }
  if (typeof Response !== 'undefined' && source instanceof Response) return readResponse(source, report, signal);
  if (typeof Blob !== 'undefined' && source instanceof Blob) return readStream(source.stream(), source.size, report, signal);
  throw new TridentError(
    `load: unsupported source ${describeValue(source)}; expected a URL string or path, URL, ArrayBuffer, Uint8Array, Response, Blob or File`,
    ErrorCode.InvalidArgument,
  );
}

/** A string as a URL, or (Node only) as a file path. */
function parseLocation(text: string): URL | string {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*:)/.exec(text)?.[1]?.toLowerCase();
  // A one-letter "scheme" is a Windows drive ("C:\models\x.pte"), not a URL.
  if (scheme !== undefined && scheme.length > 2 && URL_SCHEMES.has(scheme)) return new URL(text);
  if (isNode) return text;
  const base = (globalThis as { document?: { baseURI?: string } }).document?.baseURI ?? globalThis.location?.href;
  if (base === undefined) {
    throw new TridentError(`load: cannot resolve relative URL '${text}' (no page URL to resolve it against)`, ErrorCode.InvalidArgument);
  }
  return new URL(text, base);
}

async function readLocation(location: URL | string, report: ReportProgress, signal?: AbortSignal): Promise<Uint8Array> {
  if (typeof location === 'string') return readFileWithProgress(location, report, signal);
  if (location.protocol === 'file:' && isNode) return readFileWithProgress(await fileUrlToPath(location), report, signal);
  let response: Response;
  try {
    response = await fetch(location, signal ? { signal } : {});
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    throw new TridentError(`cannot fetch ${shortUrl(location)}: ${(err as Error).message}${cause ? ` (${cause})` : ''}`, ErrorCode.AccessFailed, {
      cause: err,
    });
  }
  return readResponse(response, report, signal, location);
}

async function readResponse(response: Response, report: ReportProgress, signal?: AbortSignal, url?: URL): Promise<Uint8Array> {
  const where = shortUrl(url ?? response.url);
  if (!response.ok && response.status !== 0) {
    throw new TridentError(`cannot fetch ${where}: HTTP ${response.status} ${response.statusText}`.trimEnd(), ErrorCode.AccessFailed);
  }
  if (response.bodyUsed) throw new TridentError(`load: the Response body for ${where} was already read`, ErrorCode.InvalidArgument);
  if (response.body === null) return whole(new Uint8Array(0), report);
  // Content-Length counts encoded bytes; with compression the stream yields
  // more than that, so the total is unknown.
  const length = Number(response.headers.get('content-length') ?? NaN);
  const total = Number.isSafeInteger(length) && !response.headers.get('content-encoding') ? length : undefined;
  return readStream(response.body, total, report, signal);
}

async function readStream(
  stream: ReadableStream<Uint8Array>,
  total: number | undefined,
  report: ReportProgress,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const reader = stream.getReader();
  const onAbort = (): void => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    let buffer = new Uint8Array(total ?? 64 * 1024);
    let loaded = 0;
    report(0, total);
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
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

function whole(bytes: Uint8Array, report: ReportProgress): Uint8Array {
  report(bytes.length, bytes.length);
  return bytes;
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
