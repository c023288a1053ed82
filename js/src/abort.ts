// Cancellation without the DOM's types: the API takes any WHATWG
// AbortSignal (browsers', Node's) through the part of it the API uses.

/** What the API uses of a WHATWG `AbortSignal`. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** Throws the signal's reason (an AbortError by default) once it has fired. */
export function throwIfAborted(signal: AbortSignalLike | undefined): void {
  if (signal?.aborted) throw signal.reason;
}
