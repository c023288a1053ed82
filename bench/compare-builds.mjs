// node bench/compare-builds.mjs DIST_A DIST_B MODEL INPUT.npy [--threads N] [--runs N]
//
// Two builds of Trident (two copies of dist/, e.g. before and after a change)
// on one model, per instruction, in one Node process: profiled runs of A and
// B alternate, so that this VM's slow spells (a slow vCPU, or a while when
// work shared between cores costs more) hit both alike. Separate processes
// per build disagreed by more than most changes are worth. Prints each
// instruction's median ms for A and B, and the medians of the totals.
//
//   cp -r dist /tmp/a/ ... rebuild ... cp -r dist /tmp/b/
//   node bench/compare-builds.mjs /tmp/a/dist /tmp/b/dist build/pt2/mobilenet_v2.core.C.pt2 \
//     build/pt2/mobilenet_v2.input.npy --threads 2

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { parseNpy } from '../bin/cli/npy.mjs';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    threads: { type: 'string', default: '1' },
    runs: { type: 'string', default: '21' },
  },
});
if (positionals.length !== 4) {
  console.error('usage: node bench/compare-builds.mjs DIST_A DIST_B MODEL INPUT.npy [--threads N] [--runs N]');
  process.exit(2);
}
const [distA, distB, modelPath, inputPath] = positionals;
const threads = Number(args.threads);
const runs = Number(args.runs);
const bytes = new Uint8Array(readFileSync(modelPath));
const input = parseNpy(new Uint8Array(readFileSync(inputPath)), inputPath);

async function open(dist) {
  const api = await import(pathToFileURL(path.resolve(dist, 'js/index.js')).href);
  const model = await api.load(bytes, { threads: true, numThreads: threads });
  const x = new api.Tensor(input.dtype, input.data, input.shape);
  const method = model.methods[0].name;
  for (let i = 0; i < 20; i++) await model.run(method, [x]);
  return { model, x, method, perInstruction: new Map(), totals: [] };
}

const sides = [await open(distA), await open(distB)];
// Long enough for the other build's pool workers to stop spinning.
const pause = () => new Promise((resolve) => setTimeout(resolve, 15));
for (let r = 0; r < runs; r++) {
  for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
    await pause();
    for (let k = 0; k < 3; k++) await side.model.run(side.method, [side.x]);
    const profile = await side.model.profile(side.method, [side.x]);
    side.totals.push(profile.totalMs);
    for (const ins of profile.instructions) {
      const key = `${ins.index} ${ins.name}`;
      if (!side.perInstruction.has(key)) side.perInstruction.set(key, []);
      side.perInstruction.get(key).push(ins.ms);
    }
  }
}

const median = (values) => [...values].sort((p, q) => p - q)[values.length >> 1];
const [a, b] = sides;
for (const [key, times] of a.perInstruction) {
  const other = b.perInstruction.get(key);
  const bText = other ? median(other).toFixed(3) : '—';
  console.log(`${key.padEnd(48)} ${median(times).toFixed(3)}  ${bText}`);
}
console.log(`total (median of ${runs}, ${threads} thread(s)): A ${median(a.totals).toFixed(2)} ms, B ${median(b.totals).toFixed(2)} ms`);
process.exit(0);
