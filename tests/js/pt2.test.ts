// PT2 archives through the JS API and the real wasm build: a tiny archive
// runs, and every hostile archive of issue 9 fails with a TridentError that
// says what is wrong, leaving the module able to load and run the next one.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoPath } from '../helpers/paths.js';
import { Tensor, TridentError, load } from '../helpers/trident.js';
import { mutatingArchive, tinyArchive, tinyModelJson, tinyRecords } from '../helpers/pt2-archive.js';
import { makeZip } from '../helpers/zip.js';

async function expectTinyRuns(): Promise<void> {
  const model = await load(tinyArchive());
  const [y] = await model.run('model', [Tensor.from('float32', [1, -1, 0.5, 2])]);
  expect((y as Tensor).toArray()).toEqual([1, -2, 1.5, 8]);
  model.dispose();
}

describe('PT2 archives', () => {
  it('load, describe and run', async () => {
    const model = await load(tinyArchive());
    expect(model.format).toBe('pt2');
    expect(model.methods.map((m) => m.name)).toEqual(['model']);
    const info = model.method('model');
    expect(info.inputs).toEqual([{ kind: 'Tensor', dtype: 'float32', shape: [4], dynamism: 'static' }]);
    expect(info.intermediateBytes).toBe(32);
    expect(info.plannedBytes).toBeGreaterThanOrEqual(32);
    expect(model.sampleInputs('model')).toBeNull();
    model.dispose();
    await expectTinyRuns();
  });

  // x [s0, 4] * w, viewed through sym_size to [s0, 2, 2], summed, flattened
  // to [2*s0] (the fuzzer's seed graph), with s0 bounded or unbounded.
  const dynamicArchive = (range: { min_val: number; max_val: number | null }): Uint8Array => {
    const graph = JSON.parse(readFileSync(repoPath('tests', 'fuzz', 'pt2_seeds', 'dynamic_batch.json'), 'utf8'));
    graph.range_constraints = { s0: range };
    return tinyArchive({ ...tinyRecords(), 'tiny/models/model.json': JSON.stringify(graph) });
  };
  const expectDynamicRun = async (model: Awaited<ReturnType<typeof load>>, batch: number) => {
    const x = Array.from({ length: batch * 4 }, (_, i) => i / 4);
    const [z] = (await model.run('model', [Tensor.from('float32', x, [batch, 4])])) as Tensor[];
    const w = [1, 2, 3, 4];
    const want = Array.from({ length: 2 * batch }, (_, k) => {
      const [i, j] = [Math.floor(k / 2), k % 2];
      return w[2 * j]! * x[4 * i + 2 * j]! + w[2 * j + 1]! * x[4 * i + 2 * j + 1]!;
    });
    expect(z!.shape).toEqual([2 * batch]);
    expect(Array.from(z!.data as Float32Array)).toEqual(want.map(Math.fround));
  };

  it('dynamic shapes: planned for the range, checked against it', async () => {
    const model = await load(dynamicArchive({ min_val: 1, max_val: 8 }));
    expect(model.method('model').inputs[0]).toMatchObject({ shape: [8, 4], dynamism: 'bounded' });
    for (const batch of [3, 8, 1]) await expectDynamicRun(model, batch);
    await expect(model.run('model', [Tensor.from('float32', new Array(36).fill(0), [9, 4])])).rejects.toThrow(/upper bound/);
    await expectDynamicRun(model, 2);
    model.dispose();
  });

  it('dynamic shapes: an unbounded dimension plans again for larger inputs', async () => {
    const model = await load(dynamicArchive({ min_val: 2, max_val: null }));
    expect(model.method('model').inputs[0]).toMatchObject({ shape: [5, 4], dynamism: 'unbounded' });
    for (const batch of [5, 2, 7, 300, 4]) await expectDynamicRun(model, batch);
    await expect(model.run('model', [Tensor.from('float32', [0, 0, 0, 0], [1, 4])])).rejects.toThrow(/s0 must be at least 2/);
    model.dispose();
  });

  it('a mutated user input is written back into the caller\'s tensor', async () => {
    const model = await load(mutatingArchive());
    expect(model.method('model').mutatedInputs).toEqual([0]);
    const x = Tensor.from('float32', [1, -1, 0.5, 2]);
    const [y] = await model.run('model', [x]);
    expect((y as Tensor).toArray()).toEqual([1, -2, 1.5, 8]);
    expect(x.toArray()).toEqual([2, 0, 1.5, 3]);
    model.dispose();
  });

  const cut = (bytes: Uint8Array, n: number) => bytes.subarray(0, n);
  const badDirectory = (): Uint8Array => {
    const bytes = tinyArchive().slice();
    const view = new DataView(bytes.buffer);
    const directory = view.getUint32(bytes.length - 22 + 16, true);
    bytes[directory] = 0x58;
    return bytes;
  };
  const records = tinyRecords();
  const { 'tiny/data/weights/weight_0': _, ...noWeight } = records;
  const hostile: Array<[string, Uint8Array, RegExp]> = [
    ['a truncated zip', cut(tinyArchive(), 300), /no end of central directory/],
    ['a bad central directory', badDirectory(), /central directory entry 0 has a bad signature/],
    ['a JSON nesting bomb', makeZip({ ...records, 'tiny/models/model.json': '['.repeat(100000) }), /nested deeper than 200 levels/],
    ['a huge declared tensor', tinyArchive(tinyRecords(tinyModelJson({ outputSizes: [1 << 20, 1 << 20, 1024] }))), /too large/],
    ['a missing weight file', makeZip(noWeight), /no entry 'tiny\/data\/weights\/weight_0'/],
    ['an unknown op', tinyArchive(tinyRecords(tinyModelJson({ target: 'torch.ops.aten.frobnicate.default' }))), /aten::frobnicate/],
    ['an unknown union key', tinyArchive(tinyRecords(tinyModelJson({ outputSpec: 'user_outptu' }))), /unknown union key 'user_outptu'/],
    ['archive_version 1', makeZip({ ...records, 'tiny/archive_version': '1' }), /archive_version is '1'/],
    [
      'an AOTInductor-only package',
      makeZip({ 'pkg/archive_format': 'pt2', 'pkg/archive_version': '0', 'pkg/data/aotinductor/model/model.so': '\x7fELF' }),
      /Compiled AOTInductor code cannot run in WebAssembly; export the model with torch\.export\.save/,
    ],
  ];
  for (const [what, bytes, message] of hostile) {
    it(`refuses ${what} clearly and stays usable`, async () => {
      await expect(load(bytes)).rejects.toSatisfy((err: unknown) => err instanceof TridentError && message.test(err.message));
      await expectTinyRuns();
    });
  }
});
