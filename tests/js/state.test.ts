// State a program keeps across runs (mutable buffers: an LLM's KV caches)
// persists from one run to the next, and Model.resetState() puts it back to
// its state after load, in this thread and in worker mode.
import { afterAll, describe, expect, it } from 'vitest';
import { Tensor, load, type Model } from '../helpers/trident.js';
import { fixture } from '../helpers/fixtures.js';

const ones = () => new Tensor('float32', new Float32Array([1, 1, 1]), [3]);

async function totals(model: Model, runs: number): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [total] = await model.runTensors([ones()]);
    const values = Array.from(total!.data as Float32Array);
    expect(new Set(values).size).toBe(1); // every element counts the same runs
    seen.push(values[0]!);
  }
  return seen;
}

for (const worker of [false, true]) {
  describe(`mutable buffers ${worker ? 'in worker mode' : 'in this thread'}`, () => {
    const models: Model[] = [];
    afterAll(() => models.forEach((m) => m.dispose()));

    it('keep their values across runs until resetState()', async () => {
      const model = await load(fixture('state_counter.pte'), { worker });
      models.push(model);
      expect(await totals(model, 3)).toEqual([1, 2, 3]);
      await model.resetState();
      expect(await totals(model, 2)).toEqual([1, 2]);
    });

    it('are per model: two loads of one program do not share state', async () => {
      const a = await load(fixture('state_counter.pte'), { worker });
      const b = await load(fixture('state_counter.pte'), { worker });
      models.push(a, b);
      expect(await totals(a, 2)).toEqual([1, 2]);
      expect(await totals(b, 1)).toEqual([1]);
      await b.resetState();
      expect(await totals(a, 1)).toEqual([3]);
    });

    it('resetState() on a disposed model fails with InvalidState', async () => {
      const model = await load(fixture('state_counter.pte'), { worker });
      model.dispose();
      await expect(model.resetState()).rejects.toMatchObject({ codeName: 'InvalidState' });
    });
  });
}
