// File access for Node, reached only through the Node entry's platform
// (node-platform.ts): browsers never load this file.

import { open, stat } from 'node:fs/promises';

import { throwIfAborted, type AbortSignalLike } from '../abort.js';
import { ErrorCode, TridentError } from '../errors.js';
import { checkFileSize } from '../limits.js';
import type { ReportProgress } from '../platform.js';

const CHUNK_BYTES = 1 << 20;

/**
 * Reads a whole file in chunks, so that progress is reported and an abort
 * stops the read between chunks. A file over `maxBytes` is refused before
 * anything is allocated for it (LimitExceeded).
 */
export async function readFileWithProgress(
  path: string,
  report: ReportProgress = () => {},
  signal?: AbortSignalLike,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Uint8Array> {
  throwIfAborted(signal);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw fileError(path, err);
  }
  try {
    const { size } = await handle.stat();
    checkFileSize(`'${path}'`, size, maxBytes);
    const out = new Uint8Array(size);
    report(0, size);
    let offset = 0;
    while (offset < size) {
      throwIfAborted(signal);
      const { bytesRead } = await handle.read(out, offset, Math.min(CHUNK_BYTES, size - offset), offset);
      if (bytesRead === 0) {
        throw new TridentError(`cannot read '${path}': file shrank to ${offset} bytes while reading (expected ${size})`, ErrorCode.AccessFailed);
      }
      offset += bytesRead;
      report(offset, size);
    }
    return out;
  } catch (err) {
    if (err instanceof TridentError || signal?.aborted) throw err;
    throw fileError(path, err);
  } finally {
    await handle.close();
  }
}

/** True if `path` names an existing regular file. */
export async function fileExists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function fileError(path: string, err: unknown): TridentError {
  const code = (err as { code?: string }).code;
  const reason =
    code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : String((err as Error).message ?? err);
  return new TridentError(`cannot read '${path}': ${reason}`, code === 'ENOENT' ? ErrorCode.NotFound : ErrorCode.AccessFailed, {
    cause: err,
  });
}
