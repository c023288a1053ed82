// load(..., { memoryPlan }): a .pte method's memory plan made again at load
// by lifetimes (cpp/formats/pte/pte_lifetime_plan.h) must run the same
// program: every exported model gives bit-identical outputs under the
// file's plan and the new one, twice in a row (no state leaks between runs
// through shared memory), and so must planning at each run's shapes
// (memoryPlan 'per-shape'). Methods with delegates keep the file's plan.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNpy } from '../../bin/cli/npy.mjs';
import { MODELS_DIR, describeExported } from '../helpers/exported-models.js';
import { ErrorCode, Tensor, load } from '../helpers/trident.js';

interface Entry {
  name: string;
  pte: string;
  input: string;
  delegates?: number;
}

function body(index: Record<string, Entry>): void {
  for (const entry of Object.values(index)) {
    it(`${entry.name}: the same outputs under the file's plan, one by lifetimes and one per shape`, async () => {
      const bytes = readFileSync(path.join(MODELS_DIR, entry.pte));
      const input = parseNpy(new Uint8Array(readFileSync(path.join(MODELS_DIR, entry.input))), entry.input) as Tensor;
      const byFile = await load(bytes, { memoryPlan: 'file' });
      const byLifetimes = await load(bytes, { memoryPlan: 'lifetimes' });
      const byShape = await load(bytes, { memoryPlan: 'per-shape' });
      try {
        const method = byFile.methods[0]!.name;
        expect(byFile.methods[0]!.memoryPlan).toBe('file');
        const delegated = (entry.delegates ?? 0) > 0;
        expect(byLifetimes.methods[0]!.memoryPlan).toBe(delegated ? 'file' : 'lifetimes');
        expect(byShape.methods[0]!.memoryPlan).toBe(delegated ? 'file' : 'per-shape');
        const want = ((await byFile.run(method, [input]))[0] as Tensor).data;
        for (const model of [byLifetimes, byShape]) {
          for (let run = 0; run < 2; run++) {
            const got = ((await model.run(method, [input]))[0] as Tensor).data;
            expect(got.length).toBe(want.length);
            expect(Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(
              Buffer.from(want.buffer, want.byteOffset, want.byteLength)), model.methods[0]!.memoryPlan).toBe(true);
          }
        }
      } finally {
        byFile.dispose();
        byLifetimes.dispose();
        byShape.dispose();
      }
    }, 300_000);
  }

  it("'auto' re-plans on any number of threads; the plan is smaller than the file's", async () => {
    const entry = index['mobilenet_v2'];
    expect(entry, 'mobilenet_v2 is in build/models/index.json').toBeDefined();
    const bytes = readFileSync(path.join(MODELS_DIR, entry!.pte));
    const shared = await load(bytes);
    const alone = await load(bytes, { numThreads: 1 });
    const byFile = await load(bytes, { memoryPlan: 'file' });
    try {
      expect(shared.methods[0]!.memoryPlan).toBe('lifetimes');
      expect(alone.methods[0]!.memoryPlan).toBe('lifetimes');
      // The lifetime planner shares more memory than the exporter's plan.
      expect(alone.methods[0]!.plannedBytes!).toBeLessThan(byFile.methods[0]!.plannedBytes!);
    } finally {
      shared.dispose();
      alone.dispose();
      byFile.dispose();
    }
  }, 300_000);

  it('views of a tensor that dies there take its bytes: the transformer layer re-planned needs less', async () => {
    const entry = index['transformer_layer'];
    expect(entry, 'transformer_layer is in build/models/index.json').toBeDefined();
    const bytes = readFileSync(path.join(MODELS_DIR, entry!.pte));
    const byFile = await load(bytes, { memoryPlan: 'file' });
    const byLifetimes = await load(bytes, { memoryPlan: 'lifetimes' });
    try {
      // Its view_copy ops of addmm outputs ([128, 768], [128, 1024]) take
      // fresh memory under the file's plan: 1280 KiB. By lifetimes with the
      // views copied it was 1152 KiB; with them on their inputs, 896.
      expect(byLifetimes.methods[0]!.plannedBytes!).toBeLessThanOrEqual(byFile.methods[0]!.plannedBytes! - 256 * 1024);
    } finally {
      byFile.dispose();
      byLifetimes.dispose();
    }
  }, 300_000);
}

describe('load option memoryPlan', () => {
  it("must be 'auto', 'file', 'lifetimes' or 'per-shape'", async () => {
    await expect(load(new Uint8Array(8), { memoryPlan: 'greedy' as unknown as 'auto' })).rejects.toMatchObject({
      code: ErrorCode.InvalidArgument,
      message: expect.stringContaining("memoryPlan must be 'auto', 'file', 'lifetimes' or 'per-shape'"),
    });
  });
});

describeExported<Entry>(MODELS_DIR, 'memory plans of exported models', body);
