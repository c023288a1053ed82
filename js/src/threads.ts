// How many threads a model's runs use, within the pool the build started,
// and the one-line console notices the loader gives about its choices.

import { ErrorCode, TridentError } from './errors.js';

const noticed = new Set<string>();

/** One console line per distinct text and process (or page). */
export function notice(text: string): void {
  if (noticed.has(text)) return;
  noticed.add(text);
  console.info(text);
}

/** Throws InvalidArgument unless `threads` is a thread count: a non-negative integer (0: the whole pool). */
export function checkThreadCount(threads: unknown, what: string): asserts threads is number {
  if (!Number.isSafeInteger(threads) || (threads as number) < 0) {
    throw new TridentError(`${what} must be a positive integer (or 0 for the whole thread pool), got ${String(threads)}`, ErrorCode.InvalidArgument);
  }
}

/**
 * `threads` as a model's thread count: 0 is the whole pool, and a number
 * above the pool's size is clamped to it, with a notice saying so.
 */
export function threadsWithin(threads: number, pool: number, what: string): number {
  checkThreadCount(threads, what);
  if (threads === 0) return pool;
  if (threads > pool) {
    notice(
      `Trident: ${what} ${threads} is more than the thread pool's ${pool} thread${pool === 1 ? '' : 's'}; using ${pool}` +
        (pool === 1 ? ' (this is the single-threaded build)' : ' (env.numThreads, set before the first load, sizes the pool)'),
    );
    return pool;
  }
  return threads;
}
