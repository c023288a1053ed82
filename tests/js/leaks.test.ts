// Loading, running and disposing gives every byte back: 1,000 cycles over
// programs of two formats leave the wasm heap within 1 MB of where it
// started, in the single-threaded build and the threads build.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/fixtures.js';
import { runtimeInfoOfBuild } from '../helpers/runtime-of-build.js';
import { Tensor, load, type InputValue, type Model, type ModelSource } from '../helpers/trident.js';

const MLIR = `func.func @triple(%x: i32) -> i32 {
  %two = tfrt.constant.i32 2
  %double = tfrt.mul.i32 %x, %two
  %y = tfrt.add.i32 %double, %x
  tfrt.return %y : i32
}
`;

const SOURCES: ModelSource[] = [
  new Uint8Array(readFileSync(fixture('add.pte'))),
  new Uint8Array(readFileSync(fixture('mlp.pte'))),
  new Uint8Array(readFileSync(fixture('multi_method.pte'))),
  MLIR,
];

function inputsFor(model: Model, method: string): InputValue[] {
  return model.method(method).inputs.map((info) => (info.kind === 'Tensor' ? Tensor.zeros(info.dtype!, info.shape!) : 3));
}

async function cycle(source: ModelSource, threads: boolean): Promise<void> {
  const model = await load(source, { threads });
  for (const { name } of model.methods) await model.run(name, inputsFor(model, name));
  model.dispose();
}

async function heapBytes(threads: boolean): Promise<number> {
  return (await runtimeInfoOfBuild(threads)).heapBytes;
}

describe('load, run, dispose', () => {
  for (const threads of [false, true]) {
    it(`1,000 cycles leave the heap within 1 MB (${threads ? 'threads' : 'single-threaded'} build)`, async () => {
      // The first cycles set up what lives as long as the module (kernel
      // registry, thread pool); the count starts after them.
      for (const source of SOURCES) await cycle(source, threads);
      const before = await heapBytes(threads);
      for (let i = 0; i < 1000; ++i) await cycle(SOURCES[i % SOURCES.length]!, threads);
      const after = await heapBytes(threads);
      console.info(`heap ${threads ? 'threads' : 'single'}: ${before} bytes before 1,000 cycles, ${after} after`);
      expect(Math.abs(after - before)).toBeLessThan(1 << 20);
    }, 120_000);
  }

  it('a loaded model shows in heapBytes, and its bytes come back on dispose', async () => {
    const before = await heapBytes(false);
    const model = await load(SOURCES[1]!, { threads: false });
    const loaded = await heapBytes(false);
    expect(loaded).toBeGreaterThan(before);
    model.dispose();
    expect(await heapBytes(false)).toBeLessThanOrEqual(before);
  });
});
