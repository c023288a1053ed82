// Running out of wasm memory is an error, not the end of the module: models
// are loaded and kept until the 4 GiB wasm memory cannot hold another (a
// failed memory growth), which must be a MemoryAllocationFailed
// TridentError; then, in the same module, the models are disposed and a
// model loads and runs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { fixture } from '../helpers/fixtures.js';
import { MODELS_DIR, describeExportedModels } from '../helpers/exported-models.js';
import { ErrorCode, Tensor, TridentError, load, runtimeInfo, type Model } from '../helpers/trident.js';

describeExportedModels('a module that runs out of wasm memory', (index) => {
  it('answers with MemoryAllocationFailed, and loads and runs once memory is free again', async () => {
    const bytes = new Uint8Array(readFileSync(path.join(MODELS_DIR, index['resnet18']!.pte)));
    const kept: Model[] = [];
    let failure: unknown;
    try {
      // 4 GiB holds about 60 of them; the bound only stops a runaway loop.
      for (let i = 0; i < 100 && failure === undefined; ++i) {
        try {
          kept.push(await load(bytes, { threads: false }));
        } catch (err) {
          failure = err;
        }
      }
      const info = await runtimeInfo(kept[0]);
      console.info(`out of memory after ${kept.length} models: wasm memory ${info.memoryBytes} bytes, heap ${info.heapBytes}`);
      expect(failure).toBeInstanceOf(TridentError);
      expect(failure).toMatchObject({ code: ErrorCode.MemoryAllocationFailed });
      expect(info.memoryBytes).toBeGreaterThan(3 * 2 ** 30);
      // Models loaded past 2 GiB (addresses the JS side must read unsigned) run.
      const last = kept.at(-1)!;
      const input = last.methods[0]!.inputs[0]!;
      const [out] = await last.runTensors([Tensor.zeros('float32', input.shape!)]);
      expect(out!.shape).toEqual([1, 1000]);
    } finally {
      for (const model of kept) model.dispose();
    }
    const add = await load(fixture('add.pte'), { threads: false });
    const a = Tensor.from('float32', [1, 2, 3, 4], [2, 2]);
    const [sum] = await add.runTensors([a, a]);
    expect(sum!.toArray()).toEqual([2, 4, 6, 8]);
    add.dispose();
  }, 300_000);
});
