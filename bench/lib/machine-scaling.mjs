// What this machine gives two threads at this moment, measured in the same
// run as the threads table: an ALU kernel, a memory stream and a gemm tile
// over L1 data (bench/ceiling) on one worker, then on two at once. The tile
// scales below 2 when one of the two vCPUs is in this VM's slow state. Two cores of a VM share their memory
// system with the neighbours: when the stream scales poorly, memory-bound
// layers cannot scale either, whatever the runtime does. The table reports
// it next to the speedups; the target is judged on the speedups alone.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { REPO } from './cases.mjs';

const WASM = path.join(REPO, 'build', 'wasm', 'bench', 'ceiling', 'ceiling.wasm');
const WORKER = new URL('./machine-worker.mjs', import.meta.url);

function start() {
  return new Promise((resolve, reject) => {
    const w = new Worker(WORKER, { workerData: { wasm: WASM } });
    w.once('message', () => resolve(w));
    w.once('error', reject);
  });
}

function ask(w, kernel, ms) {
  return new Promise((resolve, reject) => {
    const failed = (e) => reject(e);
    w.once('error', failed);
    w.once('message', (m) => {
      w.off('error', failed);
      resolve(m.rate);
    });
    w.postMessage({ kernel, ms });
  });
}

const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];

/** { alu, memory, tile }: each { one, two, scaling } (rates of one worker, of two together, two / one). */
export async function measureMachineScaling({ reps, ms }) {
  if (!existsSync(WASM)) throw new Error(`${WASM} is missing: run 'bash scripts/build.sh wasm'`);
  const workers = [await start(), await start()];
  try {
    for (const w of workers) {
      await ask(w, 'alu', ms); // V8 tiers the kernels up
      await ask(w, 'memory', ms);
      await ask(w, 'tile', ms);
    }
    const result = {};
    for (const kernel of ['alu', 'memory', 'tile']) {
      const one = [];
      const two = [];
      for (let r = 0; r < reps; r++) {
        one.push(await ask(workers[r % 2], kernel, ms));
        const both = await Promise.all(workers.map((w) => ask(w, kernel, ms)));
        two.push(both[0] + both[1]);
      }
      result[kernel] = { one: median(one), two: median(two), scaling: median(two.map((t, i) => t / one[i])) };
    }
    return result;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
