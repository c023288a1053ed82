// What the runtime needs from Node beyond the web platform: file paths, the
// core count and a Worker for the threads build. The browser entry
// (index.ts) imports nothing from node: so that no bundler sees such a
// module; the Node entry (index-node.ts, picked by the package's "node"
// export condition) installs node/node-platform.ts before anything runs.

import type { AbortSignalLike } from './abort.js';
import { ErrorCode, TridentError } from './errors.js';

export type ReportProgress = (loaded: number, total: number | undefined) => void;

/** A worker as worker mode uses it: a web Worker, or Node's worker_threads Worker. */
export interface WorkerEndpoint {
  post(message: unknown, transfer: Transferable[]): void;
  /** `onMessage` for each message; `onFailure` once, if the worker fails or exits. */
  listen(onMessage: (data: unknown) => void, onFailure: (reason: string) => void): void;
  /** Whether the worker keeps Node's process alive (it should only while requests are pending). */
  keepAlive(alive: boolean): void;
  terminate(): void;
}

export interface NodePlatform {
  /** A whole file, read in chunks so that progress is reported and an abort stops it. */
  readFile(path: string, report?: ReportProgress, signal?: AbortSignalLike, maxBytes?: number): Promise<Uint8Array>;
  /** True if `path` names an existing regular file. */
  fileExists(path: string): Promise<boolean>;
  fileUrlToPath(url: URL): string;
  pathToFileUrl(path: string): URL;
  /** Logical cores available to this process. */
  availableParallelism(): number;
  /** Runs `start` (the threads build's factory call) with a web Worker global backed by worker_threads. */
  withPthreadWorkers<T>(start: () => T): T;
  /** Lets Node exit while the module's pthread workers live. */
  unrefPthreadWorkers(module: object): void;
  /** Starts a worker_threads Worker running worker mode's Node entry. */
  startWorker(): WorkerEndpoint;
}

/** True when running under Node (not a browser, nor a worker in one). */
export const isNode: boolean =
  typeof process !== 'undefined' && typeof process.versions === 'object' && typeof process.versions.node === 'string';

let installed: NodePlatform | undefined;

export function installNodePlatform(platform: NodePlatform): void {
  installed = platform;
}

/** The Node platform, or an error naming `what` needed it and how to get it. */
export function nodePlatform(what: string): NodePlatform {
  if (installed !== undefined) return installed;
  throw new TridentError(
    `${what} needs Node's file system, which trident-runtime's browser entry does not include; ` +
      "under Node, import 'trident-runtime' (its \"node\" export condition picks the Node entry)",
    ErrorCode.NotSupported,
  );
}
