// Worker mode under Node (a worker_threads Worker): the same Model API and
// results as in-thread, errors with their codes, progress and abort, printed
// text, in-place input updates, one worker shared by its models and ended
// (its memory given back) when the last one is disposed.
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/fixtures.js';
import { mutatingArchive } from '../helpers/pt2-archive.js';
import { ErrorCode, Tensor, TridentError, load, registerKernel, runtimeInfo, unregisterKernel } from '../helpers/trident.js';

describe('worker mode under Node', () => {
  it('gives the same outputs, method info and profile as a model in this thread', async () => {
    const here = await load(fixture('mlp.pte'));
    const there = await load(fixture('mlp.pte'), { worker: true });
    try {
      expect(there.format).toBe(here.format);
      expect(there.methods).toEqual(here.methods);
      const input = here.methods[0]!.inputs[0]!;
      const shape = input.kind === 'Tensor' && input.shape ? input.shape : [];
      const x = Tensor.from('float32', Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i)), shape);
      const want = await here.runTensors([x]);
      const got = await there.runTensors([x]);
      expect(got.map((t) => t.toJSON())).toEqual(want.map((t) => t.toJSON()));
      expect(Array.from(x.data as Float32Array).slice(0, 2)).toEqual([Math.fround(Math.sin(0)), Math.fround(Math.sin(1))]);
      const profile = await there.profile([x]);
      expect(profile.instructions.map((p) => p.name)).toEqual((await here.profile([x])).instructions.map((p) => p.name));
      expect((await runtimeInfo(there)).worker).toBe(true);
      expect((await runtimeInfo(here)).worker).toBe(false);
    } finally {
      here.dispose();
      there.dispose();
    }
  });

  it('frees what XNNPACK packed after load, as in this thread, unless keepFileBytes', async () => {
    const file = fixture('xnnpack_conv.pte');
    const size = statSync(file).size;
    for (const worker of [false, true]) {
      const freed = await load(file, { worker });
      const kept = await load(file, { worker, keepFileBytes: true });
      try {
        const a = await freed.memory();
        const b = await kept.memory();
        expect(a.fileBytesReleased, `worker: ${worker}`).toBeGreaterThan(0);
        expect(a.fileBytes + a.fileBytesReleased).toBe(size);
        expect(a.packedFromBytes).toBe(0);
        expect(b.fileBytes).toBe(size);
        expect(b.fileBytesReleased).toBe(0);
        expect(b.packedFromBytes).toBeGreaterThan(0);
        const input = freed.methods[0]!.inputs[0]!;
        const shape = input.kind === 'Tensor' && input.shape ? input.shape : [];
        const x = Tensor.from('float32', Array.from({ length: shape.reduce((p, d) => p * d, 1) }, (_, i) => Math.sin(i)), shape);
        expect((await freed.runTensors([x]))[0]!.toJSON()).toEqual((await kept.runTensors([x]))[0]!.toJSON());
      } finally {
        freed.dispose();
        kept.dispose();
      }
    }
  });

  it('answers graph(), weights() and weight() as a model in this thread does', async () => {
    const here = await load(fixture('mlp.pte'));
    const there = await load(fixture('mlp.pte'), { worker: true });
    try {
      expect(await there.graph()).toEqual(await here.graph());
      const weights = await there.weights();
      expect(weights).toEqual(await here.weights());
      expect(weights.length).toBeGreaterThan(0);
      const got = await there.weight(weights[0]!.name);
      expect(got.toJSON()).toEqual((await here.weight(weights[0]!.name)).toJSON());
      await expect(there.weight('no such weight')).rejects.toMatchObject({ code: ErrorCode.NotFound });
    } finally {
      here.dispose();
      there.dispose();
    }
  });

  it('writes a mutated input back into the caller\'s tensor', async () => {
    const model = await load(mutatingArchive(), { worker: true });
    const x = Tensor.from('float32', [1, -1, 0.5, 2]);
    const [y] = await model.runTensors('model', [x]);
    expect(y!.toArray()).toEqual([1, -2, 1.5, 8]);
    expect(x.toArray()).toEqual([2, 0, 1.5, 3]);
    model.dispose();
  });

  it('rejects with the same TridentError codes, and the model stays usable', async () => {
    const hostile = new Uint8Array(64).fill(7);
    const failure = (pending: Promise<unknown>): Promise<TridentError> => pending.then(() => new TridentError('loaded'), (e: unknown) => e as TridentError);
    const here = await failure(load(hostile));
    const there = await failure(load(hostile, { worker: true }));
    expect(there).toBeInstanceOf(TridentError);
    expect(there.code).toBe(here.code);
    expect(there.message).toBe(here.message);
    const model = await load('func.func @divide(%a: i32, %b: i32) -> (i32, i32) {\n  %q, %r = tfrt.div.i32 %a, %b\n  tfrt.return %q, %r : i32, i32\n}', { worker: true });
    await expect(model.run('nope', [])).rejects.toMatchObject({ code: ErrorCode.MethodMissing });
    expect(await model.run('divide', [7, 2])).toEqual([3, 1]);
    model.dispose();
    await expect(model.run('divide', [7, 2])).rejects.toMatchObject({ code: ErrorCode.InvalidState });
  });

  it('reports progress, honours an abort signal, and hands printed text to onPrint', async () => {
    const seen: number[] = [];
    const model = await load(fixture('add.pte'), { worker: true, onProgress: (loaded) => seen.push(loaded) });
    expect(seen.at(-1)).toBeGreaterThan(0);
    model.dispose();
    const aborted = AbortSignal.abort();
    await expect(load(fixture('add.pte'), { worker: true, signal: aborted })).rejects.toMatchObject({ name: 'AbortError' });
    const printed: string[] = [];
    const printing = await load('func.func @shout(%x: i32, %ch: !tfrt.chain) -> !tfrt.chain {\n  %ch1 = tfrt.print.i32 %x, %ch\n  tfrt.return %ch1 : !tfrt.chain\n}\n', {
      worker: true,
      onPrint: (text) => printed.push(text),
    });
    await printing.run([7, null]);
    expect(printed).toEqual(['int32 = 7\n']);
    printing.dispose();
  });

  it('shares one worker between models and ends it, with its memory, after the last dispose', async () => {
    const first = await load(fixture('add.pte'), { worker: true });
    const fresh = (await runtimeInfo(first)).memoryBytes;
    // A file bigger than the free heap grows the worker's memory, even
    // though it fails to load; the first model sees it: the same worker.
    await expect(load(new Uint8Array(fresh + (8 << 20)), { worker: true })).rejects.toThrow();
    expect((await runtimeInfo(first)).memoryBytes).toBeGreaterThan(fresh);
    first.dispose();
    // A new worker, with a new memory.
    const next = await load(fixture('add.pte'), { worker: true });
    expect((await runtimeInfo(next)).memoryBytes).toBe(fresh);
    next.dispose();
  });

  it('runs JavaScript kernels on the page, bound at load as in this thread', async () => {
    const plain = await load(fixture('add.pte'), { worker: true });
    // out = self + 10 * other + 1: reads both inputs and the alpha scalar's slot order.
    await registerKernel(
      'aten::add.out',
      (inputs, outputs) => {
        const [a, b] = inputs as Tensor<'float32'>[];
        const out = outputs[0]!.data as Float32Array;
        for (let i = 0; i < out.length; i++) out[i] = a!.data[i]! + 10 * b!.data[i]! + 1;
      },
      { override: true },
    );
    try {
      const here = await load(fixture('add.pte'));
      const there = await load(fixture('add.pte'), { worker: true });
      const inputs = here.methods[0]!.inputs.map((info, k) =>
        info.kind === 'Tensor' ? Tensor.from('float32', Array.from({ length: info.shape!.reduce((a, b) => a * b, 1) }, (_, i) => i + k), info.shape!) : 1,
      );
      const want = await here.runTensors(inputs);
      expect(want[0]!.toArray()).toEqual([11, 22, 33, 44]);
      expect((await there.runTensors(inputs)).map((t) => t.toJSON())).toEqual(want.map((t) => t.toJSON()));
      // Loaded before the registration: the built-in kernel, as in this thread.
      expect((await plain.runTensors(inputs))[0]!.toArray()).toEqual([1, 3, 5, 7]);
      here.dispose();
      there.dispose();
      await registerKernel('aten::add.out', () => {
        throw new Error('no adding today');
      }, { override: true });
      const failing = await load(fixture('add.pte'), { worker: true });
      await expect(failing.run(inputs)).rejects.toThrowError(/no adding today/);
      failing.dispose();
    } finally {
      unregisterKernel('aten::add.out');
      plain.dispose();
    }
  });
});
