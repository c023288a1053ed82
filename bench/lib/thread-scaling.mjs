// The threads target: the same model on the threads build with 2 threads
// against 1, interleaved in one process like the ORT comparison (so a noisy
// neighbour slows both alike). Both sessions use the threads build, so the
// ratio is the pool's doing, not a difference between builds.
//
// A model's paths are timed together, round by round (a 1-thread and a
// 2-thread run of each path per round), for at least `minMs` per path as
// well as `runs` rounds. This VM has spells of seconds to tens of seconds
// in which one vCPU runs at about 0.6 of the other's speed while both are
// busy (two single-thread runs side by side: one at 25 ms, the other at
// 41), which caps any 2-thread speedup near 1.6. Timed one after another
// in windows of a few seconds, one path's median could fall inside a spell
// and the next path's outside it; round by round, every path of a model
// sees the same share of the spells, and a longer window makes that share
// the machine's usual one rather than one moment's.

import { readFileSync } from 'node:fs';
import { summarize } from './stats.mjs';

export async function measureThreadScaling(trident, cases, { threads, runs, minMs, warmup, warmupMs, readInput, log }) {
  const results = [];
  for (const c of cases.filter((k) => k.scaling)) {
    const input = readInput(c.files.input);
    const paths = [];
    for (const p of c.paths) {
      const bytes = new Uint8Array(readFileSync(c.files[p]));
      const one = await trident.open(bytes, { threads: true, numThreads: 1 });
      const many = await trident.open(bytes, { threads: true, numThreads: threads });
      paths.push({ path: p, sessions: [one, many], times: [[], []] });
    }
    const warmStart = performance.now();
    for (let i = 0; i < warmup || performance.now() - warmStart < warmupMs; i++) {
      for (const { sessions } of paths) for (const s of sessions) await s.run(input);
    }
    const timedStart = performance.now();
    for (let i = 0; i < runs || performance.now() - timedStart < minMs * paths.length; i++) {
      for (const { sessions, times } of paths) {
        for (let j = 0; j < 2; j++) {
          const k = (i + j) % 2;
          const start = performance.now();
          await sessions[k].run(input);
          times[k].push(performance.now() - start);
        }
      }
    }
    for (const { path: p, sessions, times } of paths) {
      for (const s of sessions) s.close();
      const a = summarize(times[0]);
      const b = summarize(times[1]);
      const entry = {
        model: c.name,
        kind: c.kind,
        path: p,
        threads,
        runs: a.runs,
        one_thread_ms: a.median_ms,
        threads_ms: b.median_ms,
        one_thread_quartiles_ms: [a.q1_ms, a.q3_ms],
        threads_quartiles_ms: [b.q1_ms, b.q3_ms],
        speedup: a.median_ms / b.median_ms,
      };
      log(`${c.name} ${p}: 1 thread ${a.median_ms.toFixed(2)} ms, ${threads} threads ${b.median_ms.toFixed(2)} ms (×${entry.speedup.toFixed(2)})`);
      results.push(entry);
    }
  }
  return results;
}
