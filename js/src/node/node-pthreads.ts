// What Node 20 needs to run the threads build, whose generated loader is
// Emscripten's web code (ENVIRONMENT=web,worker: its Node branch is broken
// in ES modules). Reached only through the Node entry's platform
// (node-platform.ts): browsers never load this file.
//
// - Emscripten starts each pthread with `new Worker(url)`: Node has no web
//   Worker, so WebWorkerOnNode wraps a worker_threads Worker whose bootstrap
//   provides the worker globals the generated .worker.js reads, then
//   evaluates that file (read as text, so the package's "type":"module"
//   does not matter).
// - Idle pool workers would keep the process alive forever: they are
//   unref'd once the module is up (not before: the workers' "loaded"
//   messages are what keeps Node running while they start).

import { fileURLToPath } from 'node:url';
import { Worker as NodeWorker } from 'node:worker_threads';

const BOOTSTRAP = `
const { parentPort, workerData } = require('node:worker_threads');
Object.assign(globalThis, {
  self: globalThis,
  location: { href: workerData.href },
  importScripts() { throw new Error('importScripts is not available'); },
  postMessage: (message, transfer) => parentPort.postMessage(message, transfer),
});
parentPort.on('message', (data) => globalThis.onmessage({ data }));
(0, eval)(require('node:fs').readFileSync(workerData.path, 'utf8'));
`;

type MessageHandler = ((event: { data: unknown }) => void) | undefined;

/** The part of the web Worker API that Emscripten's pthread code uses. */
class WebWorkerOnNode {
  onmessage: MessageHandler;
  onerror: ((error: unknown) => void) | undefined;
  private readonly worker: NodeWorker;

  constructor(url: string | URL) {
    const href = String(url);
    this.worker = new NodeWorker(BOOTSTRAP, { eval: true, workerData: { href, path: fileURLToPath(href) } });
    this.worker.on('message', (data: unknown) => this.onmessage?.({ data }));
    this.worker.on('error', (error: unknown) => this.onerror?.(error));
  }

  postMessage(message: unknown, transfer?: readonly Transferable[]): void {
    this.worker.postMessage(message, transfer as never);
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }

  unref(): void {
    this.worker.unref();
  }
}

/**
 * Runs `start` (the factory call) with WebWorkerOnNode as the Worker global,
 * then puts back whatever was there. Emscripten creates its whole pool
 * synchronously inside the factory call (PTHREAD_POOL_SIZE_STRICT forbids
 * later workers), so the global is needed only then; another library's
 * Worker polyfill (onnxruntime-web installs worker_threads' own, which
 * wants paths, not file:// URLs) is left as it was.
 */
export function withWebWorkers<T>(start: () => T): T {
  const g = globalThis as { Worker?: unknown };
  const had = Object.prototype.hasOwnProperty.call(g, 'Worker');
  const previous = g.Worker;
  g.Worker = WebWorkerOnNode;
  try {
    return start();
  } finally {
    if (had) g.Worker = previous;
    else delete g.Worker;
  }
}

interface PThreadRegistry {
  unusedWorkers: { unref?: () => void }[];
  runningWorkers: { unref?: () => void }[];
  allocateUnusedWorker: () => void;
}

/** Lets Node exit while the module's pthread workers live. */
export function unrefPthreadWorkers(module: object): void {
  const registry = (module as { PThread?: PThreadRegistry }).PThread;
  if (registry === undefined) return;
  for (const worker of [...registry.unusedWorkers, ...registry.runningWorkers]) worker.unref?.();
  const allocate = registry.allocateUnusedWorker;
  registry.allocateUnusedWorker = function (this: PThreadRegistry) {
    allocate.call(this);
    this.unusedWorkers.at(-1)?.unref?.();
  };
}
