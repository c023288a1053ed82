// A big model's memory comes back: loading and disposing resnet18 (47 MB)
// 20 times grows the wasm memory by at most one model's size, and after each
// dispose the heap holds what it held before the load. Its XNNPACK export
// holds its weights once, packed.
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
  it('holds them once, packed: the file bytes the delegate read are freed after load', async () => {
    const bytes = new Uint8Array(readFileSync(path.join(MODELS_DIR, index['resnet18_xnnpack']!.pte)));
    const start = (await runtimeInfo()).heapBytes;
    const model = await load(bytes);
    try {
      const memory = await model.memory();
      const [forward] = memory.methods;
      const heap = (await runtimeInfo(model)).heapBytes - start;
      console.info(
        `resnet18 (XNNPACK): of its ${bytes.length}-byte file, ${memory.fileBytesReleased} freed after load and ${memory.fileBytes} kept; weights packed into ${memory.packedWeightBytes} bytes; the model holds ${heap} bytes of heap`,
      );
      expect(memory.fileBytes + memory.fileBytesReleased).toBe(bytes.length);
      // Nearly the whole file is the delegate's weights (11.7 M parameters,
      // f32), and only the packed copy stays.
      expect(memory.fileBytesReleased).toBeGreaterThan(0.99 * bytes.length);
      expect(memory.packedFromBytes).toBe(0);
      // Packing pads output channels and adds the bias: never smaller.
      expect(memory.packedWeightBytes).toBeGreaterThanOrEqual(0.99 * bytes.length);
      expect(forward!.packedWeightBytes).toBe(memory.packedWeightBytes);
      expect(forward!.methodBytes).toBeGreaterThan(forward!.packedWeightBytes);
      // The heap holds the weights once (plus activations and scratch).
      expect(heap).toBeLessThan(1.3 * bytes.length);
    } finally {
      model.dispose();
    }
  }, 120_000);

  it('keepFileBytes keeps the file as it was, and the weights twice', async () => {
    const bytes = new Uint8Array(readFileSync(path.join(MODELS_DIR, index['resnet18_xnnpack']!.pte)));
    const start = (await runtimeInfo()).heapBytes;
    const model = await load(bytes, { keepFileBytes: true });
    try {
      const memory = await model.memory();
      const heap = (await runtimeInfo(model)).heapBytes - start;
      console.info(
        `resnet18 (XNNPACK), keepFileBytes: file ${memory.fileBytes} bytes, of which ${memory.packedFromBytes} are weights the delegate packed into ${memory.packedWeightBytes} bytes; the model holds ${heap} bytes of heap`,
      );
      expect(memory.fileBytes).toBe(bytes.length);
      expect(memory.fileBytesReleased).toBe(0);
      expect(memory.packedFromBytes).toBeGreaterThan(0.99 * bytes.length);
      expect(memory.packedFromBytes).toBeLessThanOrEqual(bytes.length);
      expect(heap).toBeGreaterThan(memory.fileBytes + memory.packedWeightBytes);
    } finally {
      model.dispose();
    }
  }, 120_000);
});
