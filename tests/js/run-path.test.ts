// The lean run path: after a method's first run, a run allocates nothing in
// the wasm heap (runtime, host layer and bindings alike: every malloc in the
// module is counted), in both builds; and values cross the boundary whole:
// Ints beyond 2^53 as bigints, methods addressed by their index.
import { afterEach, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/fixtures.js';
import { runtimeInfoOfBuild } from '../helpers/runtime-of-build.js';
import { Tensor, env, load, type InputValue, type Model } from '../helpers/trident.js';

async function heapAllocations(threads: boolean): Promise<number> {
  return (await runtimeInfoOfBuild(threads)).heapAllocations;
}

function zerosFor(model: Model, method: string): InputValue[] {
  return model.method(method).inputs.map((info) => {
    if (info.kind === 'Int') return 3;
    if (info.kind === 'Double') return 0.25;
    if (info.kind === 'Bool') return true;
    return Tensor.zeros(info.dtype!, info.shape!);
  });
}

const PROGRAMS: Array<[file: string, method: string]> = [
  ['add_vec4.pte', 'forward'],
  ['mlp.pte', 'forward'],
  ['scalars.pte', 'forward'],
  ['int_types.pte', 'forward'],
  ['jump.pte', 'forward'],
  ['multi_method.pte', 'double'],
  ['multi_method.pte', 'get_answer'],
  ['xnnpack_conv.pte', 'forward'],
];

describe('run path', () => {
  afterEach(() => {
    env.threads = 'auto';
  });

  for (const threads of [false, true]) {
    const build = threads ? 'threads build' : 'single-threaded build';
    for (const [file, method] of PROGRAMS) {
      it(`${file} ${method}: runs after the first allocate nothing (${build})`, async () => {
        const before = await heapAllocations(threads);
        const model = await load(fixture(file), { threads });
        try {
          // The counter sees the heap: loading a program allocates.
          expect(await heapAllocations(threads)).toBeGreaterThan(before);
          const inputs = zerosFor(model, method);
          const first = await model.run(method, inputs);
          const settled = await heapAllocations(threads);
          for (let i = 0; i < 10; i++) {
            const again = await model.run(method, inputs);
            expect(again).toEqual(first);
          }
          expect(await heapAllocations(threads)).toBe(settled);
          // And it would see one: a profile's JSON report is allocated.
          await model.profile(method, inputs);
          expect(await heapAllocations(threads)).toBeGreaterThan(settled);
        } finally {
          model.dispose();
        }
      });
    }
  }

  it('a dynamic input resized within its bound allocates nothing either', async () => {
    const model = await load(fixture('dynamic.pte'), { threads: false });
    try {
      const sizes = [1, 4, 8, 4, 1];
      for (const n of sizes) await model.run('forward', [Tensor.zeros('float32', [n])]);
      const settled = await heapAllocations(false);
      for (const n of sizes) {
        const [y] = await model.run('forward', [new Tensor('float32', new Float32Array(n).fill(3), [n])]);
        expect((y as Tensor).shape).toEqual([n]);
        expect(Array.from((y as Tensor).data as Float32Array)).toEqual(new Array(n).fill(6));
      }
      expect(await heapAllocations(false)).toBe(settled);
    } finally {
      model.dispose();
    }
  });

  it('passes Ints beyond 2^53 whole, both ways, as bigints', async () => {
    const model = await load(fixture('scalars.pte'));
    try {
      for (const i of [-(2n ** 31n) - 7n, 2n ** 31n + 11n, -1n, 0n]) {
        const [out, d, flag] = await model.run('forward', [i, -2.5, false]);
        const want = (i + 5n) * i;
        expect(out).toBe(Number.isSafeInteger(Number(want)) ? Number(want) : want);
        expect(d).toBe(-3.75);
        expect(flag).toBe(false);
      }
      // A number input takes the same path as a bigint.
      const [small] = await model.run('forward', [-7, 1, true]);
      expect(small).toBe(14);
    } finally {
      model.dispose();
    }
  });

  it('addresses each method by its own index', async () => {
    const model = await load(fixture('multi_method.pte'));
    try {
      const x = new Tensor('float32', new Float32Array([1, 2]), [2]);
      const [plus] = await model.run('forward', [x]);
      const [twice] = await model.run('double', [x]);
      const [answer] = await model.run('get_answer');
      expect(Array.from((plus as Tensor).data as Float32Array)).toEqual([2, 3]);
      expect(Array.from((twice as Tensor).data as Float32Array)).toEqual([2, 4]);
      expect(answer).toBe(42);
    } finally {
      model.dispose();
    }
  });
});
