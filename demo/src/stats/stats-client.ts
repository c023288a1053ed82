// The page's side of the stats worker.

import type { AnyTensor } from 'trident-runtime';
import type { TensorStats } from './tensor-stats.js';

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, { resolve(stats: TensorStats): void; reject(err: Error): void }>();

function statsWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL('./stats-worker.ts', import.meta.url), { type: 'module', name: 'trident-viewer-stats' });
  worker.onmessage = (event: MessageEvent<{ id: number; stats?: TensorStats; error?: string }>) => {
    const { id, stats, error } = event.data;
    const waiter = pending.get(id);
    pending.delete(id);
    if (stats) waiter?.resolve(stats);
    else waiter?.reject(new Error(error ?? 'no statistics'));
  };
  return worker;
}

/** Statistics of a tensor (bool counts as 0/1). Copies the data to the worker. */
export function statsOf(tensor: AnyTensor): Promise<TensorStats> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    statsWorker().postMessage({ id, dtype: tensor.dtype, data: tensor.data });
  });
}
