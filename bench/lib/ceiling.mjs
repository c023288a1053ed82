// The SIMD128 mul+add ceiling (bench/ceiling/ceiling.cpp, built by
// scripts/build.sh into build/wasm/bench/ceiling/ceiling.wasm), measured in
// this process so that GFLOP/s can be read as a fraction of what this core
// can do right now.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './cases.mjs';

const WASM = path.join(REPO, 'build', 'wasm', 'bench', 'ceiling', 'ceiling.wasm');
const ITERATIONS = 10000; // per call: ~20 us, so V8 tiers the function up

/**
 * The ceiling kernel, instantiated and tiered up, as a function that runs it
 * for about `ms` and returns the GFLOP/s it reached.
 */
export async function ceilingSampler() {
  if (!existsSync(WASM)) throw new Error(`${WASM} is missing: run 'bash scripts/build.sh wasm'`);
  const { instance } = await WebAssembly.instantiate(readFileSync(WASM), {});
  const chains = instance.exports.mul_add_chains;
  const flopsPerIteration = instance.exports.flops_per_iteration();
  let sink = 0;
  for (let i = 0; i < 300; i++) sink += chains(1000, 1); // warm-up and tier-up
  return (ms) => {
    let calls = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < ms) {
      for (let i = 0; i < 50; i++) sink += chains(ITERATIONS, 1);
      calls += 50;
      elapsed = performance.now() - start;
    }
    if (!Number.isFinite(sink)) throw new Error('ceiling kernel produced a non-finite sum');
    return (calls * ITERATIONS * flopsPerIteration) / (elapsed * 1e6);
  };
}

/** Best of `reps` timed batches of `sample` (a ceilingSampler), in GFLOP/s on one core. */
export function measureCeiling(sample, { reps, seconds }) {
  const results = [];
  for (let r = 0; r < reps; r++) results.push(sample((seconds * 1000) / reps));
  return { gflops: Math.max(...results), reps: results, kernel: '12 independent f32x4 mul+add chains, 1 thread' };
}

const TILE_PASSES = 40; // per call: ~20 us, as for the chains

/**
 * The run's state, read on this thread: the chains and the gemm tile of
 * bench/ceiling alternate in `slices` turns of `ms / slices` each (so both
 * see the same moments); returns their median GFLOP/s and the tile's
 * fraction of the chains. Near 1 on a quiet core; about three quarters in this
 * VM's slow state, where our gemm kernels lose a third.
 */
export async function stateSampler() {
  const { instance } = await WebAssembly.instantiate(readFileSync(WASM), {});
  const e = instance.exports;
  const chainFlops = ITERATIONS * e.flops_per_iteration();
  const tileFlops = TILE_PASSES * e.tile_flops_per_pass();
  let sink = 0;
  const rate = (call, flops, ms) => {
    let calls = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < ms) {
      for (let i = 0; i < 10; i++) sink += call();
      calls += 10;
      elapsed = performance.now() - start;
    }
    return (calls * flops) / (elapsed * 1e6);
  };
  const chains = () => e.mul_add_chains(ITERATIONS, 1);
  const tile = () => e.gemm_tile_passes(TILE_PASSES, 1);
  for (let i = 0; i < 300; i++) sink += chains() + tile(); // tier-up
  return ({ ms, slices }) => {
    const c = [];
    const t = [];
    for (let s = 0; s < slices; s++) {
      c.push(rate(chains, chainFlops, ms / slices / 2));
      t.push(rate(tile, tileFlops, ms / slices / 2));
    }
    if (!Number.isFinite(sink)) throw new Error('state probe kernels produced a non-finite sum');
    const median = (v) => [...v].sort((p, q) => p - q)[v.length >> 1];
    const chainsGflops = median(c);
    const tileGflops = median(t);
    return { chains_gflops: chainsGflops, tile_gflops: tileGflops, tile_fraction: tileGflops / chainsGflops };
  };
}
