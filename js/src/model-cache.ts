// load()'s `cache` option: downloaded model files kept in the browser's
// Cache API (one named cache), so that a second visit reads them from disk;
// and `cache`, which lets an app see and drop what is kept. Only http(s)
// URLs are cached. Node has no Cache API: the option is refused there with
// a clear error (a Node program reads its files from disk by path).

import { ErrorCode, TridentError } from './errors.js';
import { isNode } from './platform.js';
import type { UrlLike } from './read-source.js';

/** The Cache API cache that holds Trident's downloads. */
export const CACHE_NAME = 'trident-runtime';

/** The browser's CacheStorage, or a NotSupported error saying why there is none. */
function storage(what: string): CacheStorage {
  const caches = (globalThis as { caches?: CacheStorage }).caches;
  if (caches !== undefined) return caches;
  throw new TridentError(
    isNode
      ? `${what} needs the browser's Cache API, which Node does not have; in Node, keep a copy of the file and load it by path`
      : `${what} needs the Cache API, which this page does not have (it exists only in secure contexts: https, or http on localhost)`,
    ErrorCode.NotSupported,
  );
}

/** @internal Throws unless the Cache API exists: load() checks before it reads anything. */
export function checkCacheAvailable(): void {
  storage("load's cache option");
}

/** @internal */
export function isCacheable(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/** @internal The kept response for `url`, if any. */
export async function cachedResponse(url: URL): Promise<Response | undefined> {
  return (await storage("load's cache option").open(CACHE_NAME)).match(url.href);
}

/**
 * @internal Keeps `bytes` as `url`'s content. A full disk (quota) or a refused write
 * must not fail the load that downloaded them: it is reported and dropped.
 */
export async function keepResponse(url: URL, bytes: Uint8Array, contentType: string | null): Promise<void> {
  try {
    const store = await storage("load's cache option").open(CACHE_NAME);
    const headers: Record<string, string> = { 'Content-Length': String(bytes.length) };
    if (contentType) headers['Content-Type'] = contentType;
    await store.put(url.href, new Response(bytes as Uint8Array<ArrayBuffer>, { headers }));
  } catch (err) {
    console.warn(`Trident: could not keep ${url.href} in the cache: ${(err as Error).message}`);
  }
}

function absolute(url: string | UrlLike, what: string): string {
  const text = typeof url === 'string' ? url : url.href;
  const base = (globalThis as { document?: { baseURI?: string } }).document?.baseURI ?? (globalThis as { location?: { href?: string } }).location?.href;
  try {
    return new URL(text, base).href;
  } catch (err) {
    throw new TridentError(`${what}: ${JSON.stringify(text)} is not a valid URL (${(err as Error).message})`, ErrorCode.InvalidArgument, { cause: err });
  }
}

/**
 * The model files `load(url, { cache: true })` kept in the browser's Cache
 * API (in the cache named `'trident-runtime'`). Each method rejects with
 * NotSupported where there is no Cache API (Node, or a page that is not a
 * secure context).
 */
export const cache = {
  /** Whether `url` (absolute, or relative to the page) is kept. */
  async has(url: string | UrlLike): Promise<boolean> {
    const store = await storage('cache.has').open(CACHE_NAME);
    return (await store.match(absolute(url, 'cache.has'))) !== undefined;
  },

  /** Drops `url`; true if it was kept. */
  async delete(url: string | UrlLike): Promise<boolean> {
    const store = await storage('cache.delete').open(CACHE_NAME);
    return store.delete(absolute(url, 'cache.delete'));
  },

  /** The URLs kept. */
  async keys(): Promise<string[]> {
    const store = await storage('cache.keys').open(CACHE_NAME);
    return (await store.keys()).map((request) => request.url);
  },

  /** Bytes kept, over every URL. */
  async size(): Promise<number> {
    const store = await storage('cache.size').open(CACHE_NAME);
    let bytes = 0;
    for (const request of await store.keys()) {
      const response = await store.match(request);
      const length = Number(response?.headers.get('content-length') ?? NaN);
      bytes += Number.isSafeInteger(length) ? length : ((await response?.blob())?.size ?? 0);
    }
    return bytes;
  },

  /** Drops everything kept. */
  async clear(): Promise<void> {
    await storage('cache.clear').delete(CACHE_NAME);
  },
};
