// A big model's memory comes back: loading and disposing resnet18 (47 MB)
// 20 times grows the wasm memory by at most one model's size, and after each
// dispose the heap holds what it held before the load.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { MODELS_DIR, describeExportedModels } from '../helpers/exported-models.js';
import { load, runtimeInfo } from '../helpers/trident.js';

describeExportedModels('a 47 MB model loaded and disposed 20 times', (index) => {
  it('grows the wasm memory by at most one model, and gives the heap back each time', async () => {
    const bytes = new Uint8Array(readFileSync(path.join(MODELS_DIR, index['resnet18']!.pte)));
    const first = await load(bytes);
    const held = (await runtimeInfo(first)).heapBytes;
    first.dispose();
    const start = await runtimeInfo();
    for (let i = 0; i < 20; ++i) {
      const model = await load(bytes);
      // The file's bytes, its memory plan: the model really holds them.
      expect((await runtimeInfo(model)).heapBytes - start.heapBytes).toBeGreaterThan(bytes.length);
      model.dispose();
      expect((await runtimeInfo()).heapBytes).toBeLessThanOrEqual(start.heapBytes + (1 << 20));
    }
    const end = await runtimeInfo();
    console.info(
      `resnet18 x20: memory ${start.memoryBytes} -> ${end.memoryBytes} bytes; heap ${start.heapBytes} -> ${end.heapBytes} (${held} with the model loaded)`,
    );
    expect(end.memoryBytes - start.memoryBytes).toBeLessThanOrEqual(bytes.length);
  }, 120_000);
});

describeExportedModels('where an XNNPACK model holds its weights', (index) => {
  it("memory() counts the packed weights and the file bytes they came from", async () => {
    const bytes = new Uint8Array(readFileSync(path.join(MODELS_DIR, index['resnet18_xnnpack']!.pte)));
    const model = await load(bytes);
    try {
      const memory = await model.memory();
      const [forward] = memory.methods;
      console.info(
        `resnet18 (XNNPACK): file ${memory.fileBytes} bytes, of which ${memory.packedFromBytes} are weights the delegate packed into ${memory.packedWeightBytes} bytes`,
      );
      expect(memory.fileBytes).toBe(bytes.length);
      // Nearly the whole file is the delegate's weights (11.7 M parameters, f32).
      expect(memory.packedFromBytes).toBeGreaterThan(0.9 * bytes.length);
      expect(memory.packedFromBytes).toBeLessThanOrEqual(bytes.length);
      // Packing pads output channels and adds the bias: never smaller.
      expect(memory.packedWeightBytes).toBeGreaterThanOrEqual(0.95 * memory.packedFromBytes);
      expect(forward!.packedWeightBytes).toBe(memory.packedWeightBytes);
      expect(forward!.methodBytes).toBeGreaterThan(forward!.packedWeightBytes);
    } finally {
      model.dispose();
    }
  });
});
