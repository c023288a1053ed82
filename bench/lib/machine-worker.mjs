// One worker of the machine-scaling probe (machine-scaling.mjs): its own
// instance of bench/ceiling's module, which runs a kernel for a given time
// when asked and answers with its rate.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { instance } = await WebAssembly.instantiate(readFileSync(workerData.wasm), {});
const e = instance.exports;
const CHAIN_ITERATIONS = 10000;
const TILE_PASSES = 40;
const kernels = {
  // GFLOP/s of the 12 mul+add chains.
  alu: { call: () => e.mul_add_chains(CHAIN_ITERATIONS, 1), units: CHAIN_ITERATIONS * e.flops_per_iteration() },
  // GB/s of the 24 MB stream.
  memory: { call: () => e.stream_pass(1), units: e.stream_bytes_per_pass() },
  // GFLOP/s of the gemm tile over L1 data: loads and mul+add together, where
  // this VM's slow state shows (the chains keep their speed there).
  tile: { call: () => e.gemm_tile_passes(TILE_PASSES, 1), units: TILE_PASSES * e.tile_flops_per_pass() },
};

parentPort.on('message', ({ kernel, ms }) => {
  const k = kernels[kernel];
  let sink = 0;
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    sink += k.call();
    calls += 1;
    elapsed = performance.now() - start;
  }
  parentPort.postMessage({ rate: (calls * k.units) / (elapsed * 1e6), sink });
});
parentPort.postMessage({ ready: true });
