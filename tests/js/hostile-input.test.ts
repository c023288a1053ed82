// Damaged real ExecuTorch files (the project's own hostile fixtures are in
// fixtures.test.ts): each must fail with a TridentError that says
// what is wrong, and leave the module able to load and run the next program.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode, Tensor, TridentError, load, type LoadOptions, type ModelSource } from '../helpers/trident.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { CORPUS, corpusFile, describeShared } from '../helpers/shared.js';

const bytesOf = (fixture: string): Uint8Array => new Uint8Array(readFileSync(corpusFile(fixture)));

/** Expects load() to fail, then checks the module still works. */
async function expectLoadFailure(source: ModelSource, options: LoadOptions = {}): Promise<TridentError> {
  let error: unknown;
  try {
    const model = await load(source, options);
    model.dispose();
  } catch (err) {
    error = err;
  }
  expect(error, 'load() should have failed').toBeInstanceOf(TridentError);
  const err = error as TridentError;
  expect(err.message.length).toBeGreaterThan(10);
  // The same module instance must still work afterwards.
  const add = await load(corpusFile(CORPUS.add));
  const [sum] = await add.run('forward', [Tensor.from('float32', [1]), Tensor.from('float32', [2])]);
  expect((sum as Tensor).toArray()).toEqual([3]);
  add.dispose();
  return err;
}

describeShared('hostile input made from corpus files', () => {
  it('a truncated file', async () => {
    const bytes = bytesOf(CORPUS.add);
    for (const length of [8, 64, bytes.length >> 1, bytes.length - 1]) {
      await expectLoadFailure(bytes.subarray(0, length));
    }
  });

  it('a wrong flatbuffer identifier version', async () => {
    const bytes = bytesOf(CORPUS.add).slice();
    bytes.set([0x39, 0x39], 6); // "ET99": passes format detection, not the runtime
    const err = await expectLoadFailure(bytes);
    expect(err.message).toMatch(/ET99|identifier|version/i);
  });

  it('flatbuffer offsets out of range', async () => {
    const root = bytesOf(CORPUS.add).slice();
    new DataView(root.buffer).setUint32(0, 0x7fff_fff0, true); // root table offset
    await expectLoadFailure(root);

    // Scribble over the middle of the flatbuffer: any resulting offset must
    // be caught by verification, never followed.
    const scribbled = bytesOf(CORPUS.add).slice();
    for (let i = 64; i < scribbled.length - 64; i += 16) scribbled[i] = 0xff;
    await expectLoadFailure(scribbled);
  });

  it('a segment past the end of the file', async () => {
    // AddModel carries the 32-byte extended header: "eh00" at 8, then
    // u32 length, u64 program_size, u64 segment_base_offset (at 24).
    const bytes = bytesOf('pytorch__executorch/examples__arduino__examples__AddModel__model.pte').slice();
    expect(new TextDecoder().decode(bytes.subarray(8, 12))).toBe('eh00');
    new DataView(bytes.buffer).setBigUint64(24, BigInt(bytes.length + 4096), true);
    const err = await expectLoadFailure(bytes);
    expect(err.message).toMatch(/segment/i);
  });

  // load() prepares every method, external tensors included, so a missing
  // key fails there, not at the first run.
  it('an external-data key that is missing', async () => {
    const wrongData = { dataFiles: [corpusFile('pytorch__executorch/extension__module__test__resources__linear.ptd')] };
    const err = await expectLoadFailure(corpusFile(CORPUS.dataMap), wrongData);
    expect(err.message).toMatch(/'a'/);
    expect(err.message).toMatch(/key|external/i);
    // And with no data file at all.
    const none = await expectLoadFailure(corpusFile(CORPUS.dataMap), {});
    expect(none.message).toMatch(/external data file/);
  });

  it('a memory plan larger than the configured limit', async () => {
    // The file's plan is refused ('auto' would plan it per shape instead).
    const err = await expectLoadFailure(corpusFile(CORPUS.softmax), { maxPlannedBytes: 1024, memoryPlan: 'file' });
    expect(err.code).toBe(ErrorCode.LimitExceeded);
    // The same program loads under the default limit.
    (await load(corpusFile(CORPUS.softmax))).dispose();
  });

  it('a data file that is not a .ptd', async () => {
    await expectLoadFailure(corpusFile(CORPUS.dataMap), { dataFiles: [new TextEncoder().encode('not flat tensor data')] });
  });
});

describe('names that are not UTF-8', () => {
  // A .pte the fuzzer made (tests/fuzz/regressions/pte/): its method is
  // named "\x92orward". Every JSON answer quoting it once aborted the wasm
  // instance; invalid bytes now read as U+FFFD.
  it('describe(), graph() and weights() answer, and the module stays usable', async () => {
    const bytes = new Uint8Array(readFileSync(path.join(REPO_ROOT, 'tests/fuzz/regressions/pte/method-name-not-utf8.pte')));
    const model = await load(bytes);
    try {
      expect(model.methods.map((m) => m.name)).toEqual(['\uFFFDorward']);
      const graph = await model.graph(model.methods[0]!.name);
      expect(graph.name).toBe('\uFFFDorward');
      expect(graph.nodes).toHaveLength(model.methods[0]!.instructions!);
      await model.weights();
    } finally {
      model.dispose();
    }
    const again = await load(bytes);
    expect(again.methods).toHaveLength(1);
    again.dispose();
  });
});
