// Worker mode under Node: a worker_threads Worker running
// worker/worker-entry-node.js.

import { Worker } from 'node:worker_threads';

import type { WorkerEndpoint } from '../platform.js';

export function startNodeWorker(): WorkerEndpoint {
  const worker = new Worker(new URL('../worker/worker-entry-node.js', import.meta.url));
  return {
    post: (message, transfer) => worker.postMessage(message, transfer as never),
    listen(onMessage, onFailure) {
      worker.on('message', onMessage);
      worker.on('error', (err: Error) => onFailure(`failed: ${err.message}`));
      worker.on('exit', (code) => onFailure(`exited (code ${code})`));
    },
    keepAlive: (alive) => (alive ? worker.ref() : worker.unref()),
    terminate: () => void worker.terminate(),
  };
}
