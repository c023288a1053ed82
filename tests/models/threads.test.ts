// The threads build against the single-threaded one on the exported models:
// kernels that split their work over the pool must give the same bits, for
// the portable kernels, the XNNPACK delegate and the int8 paths. The pool
// is made 3 threads whatever the machine has, so the split is exercised on
// a 1-core machine too (only slower).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { parseNpy } from '../../bin/cli/npy.mjs';
import { MODELS_DIR, describeExportedModels, type ExportedModel } from '../helpers/exported-models.js';
import { Tensor, env, load, runtimeInfo } from '../helpers/trident.js';

const NAMES = [
  'mobilenet_v2',
  'mobilenet_v2_xnnpack',
  'resnet18',
  'resnet18_xnnpack',
  'transformer_layer',
  'transformer_layer_xnnpack',
  'conv3x3_mobilenet',
  'dwconv3x3_mobilenet_xnnpack',
  'sgemm_256',
  'cnn_int8_xnnpack',
];

function body(index: Record<string, ExportedModel>): void {
  it('the threads build serves Node, with the pool env.numThreads asked for', async () => {
    env.numThreads = 3;
    const info = await runtimeInfo();
    expect(info.threads).toBe(true);
    expect(info.numThreads).toBe(3);
  });

  for (const name of NAMES) {
    it(`${name}: 3 threads give the bits of the single-threaded build`, async () => {
      const entry = index[name];
      expect(entry, `${name} is in build/models/index.json`).toBeDefined();
      const bytes = readFileSync(path.join(MODELS_DIR, entry!.pte));
      const input = parseNpy(new Uint8Array(readFileSync(path.join(MODELS_DIR, entry!.input))), entry!.input) as Tensor;
      const single = await load(bytes, { threads: false });
      const threaded = await load(bytes, { threads: true });
      try {
        expect(single.numThreads).toBe(1);
        expect(threaded.numThreads).toBe(3);
        const [want] = await single.run('forward', [input]);
        // Twice: the second run reuses the pool and the planned memory.
        for (let i = 0; i < 2; i++) {
          const [got] = await threaded.run('forward', [input]);
          expect((got as Tensor).shape).toEqual((want as Tensor).shape);
          const a = (got as Tensor).data as Float32Array;
          const b = (want as Tensor).data as Float32Array;
          let differing = 0;
          for (let j = 0; j < a.length; j++) if (!Object.is(a[j], b[j])) differing++;
          expect(differing, `${name}: elements that differ from the single-threaded build`).toBe(0);
        }
      } finally {
        single.dispose();
        threaded.dispose();
      }
    }, 300_000);
  }
}

describeExportedModels('threads build against the single-threaded build', body);
