// What a run costs beyond its kernels: a one-op program (aten::add.out of two
// f32[4], build/fixtures/add_vec4.pte) run from JS, each run timed alone.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './cases.mjs';
import { quantile } from './stats.mjs';

const FILE = path.join(REPO, 'build', 'fixtures', 'add_vec4.pte');

export async function measureRunOverhead(trident, { runs, warmup }) {
  if (!existsSync(FILE)) throw new Error(`${FILE} is missing: run 'bash scripts/build.sh'`);
  const { api } = trident;
  const model = await api.load(new Uint8Array(readFileSync(FILE)));
  try {
    const a = new api.Tensor('float32', new Float32Array([1, 2, 3, 4]), [4]);
    const b = new api.Tensor('float32', new Float32Array([10, 20, 30, 40]), [4]);
    for (let i = 0; i < warmup; i++) await model.run('forward', [a, b]);
    const times = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await model.run('forward', [a, b]);
      times.push((performance.now() - start) * 1000);
    }
    const [out] = await model.run('forward', [a, b]);
    if (String(Array.from(out.data)) !== '11,22,33,44') throw new Error(`add_vec4 gave ${Array.from(out.data)}`);
    return { model: 'add_vec4.pte', runs, median_us: quantile(times, 0.5), q1_us: quantile(times, 0.25), q3_us: quantile(times, 0.75) };
  } finally {
    model.dispose();
  }
}
