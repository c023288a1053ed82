// load(..., { optimize }): the load-time graph passes (operator fusion) on a
// real conv net, and the same outputs with them off.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNpy } from '../../bin/cli/npy.mjs';
import { MODELS_DIR, describeExportedModels, type ExportedModel } from '../helpers/exported-models.js';
import { ErrorCode, Tensor, load } from '../helpers/trident.js';

const FUSED = 'trident::conv_affine_clamp.out';

function body(index: Record<string, ExportedModel>): void {
  it('mobilenet_v2: fused by default, as written with optimize: false, same outputs', async () => {
    const entry = index['mobilenet_v2'];
    expect(entry, 'mobilenet_v2 is in build/models/index.json').toBeDefined();
    const bytes = readFileSync(path.join(MODELS_DIR, entry!.pte));
    const input = parseNpy(new Uint8Array(readFileSync(path.join(MODELS_DIR, entry!.input))), entry!.input) as Tensor;
    const fused = await load(bytes);
    const plain = await load(bytes, { optimize: false });
    try {
      const a = await fused.profile('forward', [input]);
      const b = await plain.profile('forward', [input]);
      const names = (p: typeof a): string[] => p.instructions.map((i) => i.name);
      expect(names(a)).toContain(FUSED);
      expect(names(b)).not.toContain(FUSED);
      expect(names(b).filter((n) => n.includes('batch_norm')).length).toBeGreaterThan(10);
      expect(a.instructions.length).toBeLessThan(b.instructions.length);
      // Each run instruction names the file's instructions it runs: as
      // written, itself; fused, its chain. Together they cover the file's
      // instructions once, in order, and a fused chain starts at a
      // convolution node of the graph.
      expect(b.instructions.every((i) => i.source === i.index && i.sourceCount === 1)).toBe(true);
      const covered = a.instructions.flatMap((i) => Array.from({ length: i.sourceCount }, (_, k) => i.source + k));
      expect(covered).toEqual(b.instructions.map((i) => i.index));
      const graph = await fused.graph('forward');
      for (const i of a.instructions.filter((x) => x.name === FUSED)) {
        expect(graph.nodes[i.source]!.op).toBe('aten::convolution.out');
        expect([2, 3]).toContain(i.sourceCount);
      }
      const x = (a.outputs[0] as Tensor).data as Float32Array;
      const y = (b.outputs[0] as Tensor).data as Float32Array;
      expect(x.length).toBe(y.length);
      let worst = 0;
      for (let i = 0; i < x.length; i++) worst = Math.max(worst, Math.abs(x[i]! - y[i]!));
      // Folding the batch norm into a scale and shift reorders float math only.
      expect(worst).toBeLessThan(1e-4);
    } finally {
      fused.dispose();
      plain.dispose();
    }
  }, 300_000);
}

describe('load option optimize', () => {
  it('must be a boolean', async () => {
    await expect(load(new Uint8Array(8), { optimize: 'no' as unknown as boolean })).rejects.toMatchObject({
      code: ErrorCode.InvalidArgument,
      message: expect.stringContaining('optimize must be true or false'),
    });
  });
});

describeExportedModels('graph passes on an exported model', body);
