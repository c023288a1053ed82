// The XNNPACK-delegated mobilenet_v2 against the same model through the
// portable kernels: same weights, same input, one process, interleaved runs
// after warm-up, medians of 15. Both times go to the log; the delegated
// model must not be slower (a 2% allowance for timer noise between two
// medians). This is a check, not the benchmark (that is `npm run bench`).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNpy } from '../../bin/cli/npy.mjs';
import { REPO_ROOT } from '../helpers/paths.js';
import { Tensor, load, type Model } from '../helpers/trident.js';

const MODELS_DIR = path.join(REPO_ROOT, 'build', 'models');
const PORTABLE = path.join(MODELS_DIR, 'mobilenet_v2.pte');
const DELEGATED = path.join(MODELS_DIR, 'mobilenet_v2_xnnpack.pte');
const RUNS = 15;
const WARMUP = 3;
const NOISE = 1.02;

const present = existsSync(PORTABLE) && existsSync(DELEGATED);
if (!present && process.env['CI'] === 'true') {
  describe('XNNPACK delegate speed', () => {
    it('needs build/models', () => {
      throw new Error(`${DELEGATED} or ${PORTABLE} is missing, but CI=true: run 'bash scripts/fixtures.sh'`);
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed(model: Model, input: Tensor): Promise<number> {
  const start = performance.now();
  await model.run('forward', [input]);
  return performance.now() - start;
}

(present ? describe : describe.skip)('XNNPACK delegate speed', () => {
  it('mobilenet_v2 delegated to XNNPACK runs no slower than through portable kernels', async () => {
    const input = parseNpy(new Uint8Array(readFileSync(path.join(MODELS_DIR, 'mobilenet_v2.input.npy'))), 'input') as Tensor;
    const portable = await load(PORTABLE);
    const delegated = await load(DELEGATED);
    try {
      expect(delegated.method('forward').delegates.map((d) => d.backend)).toEqual(['XnnpackBackend']);
      expect(portable.method('forward').delegates).toEqual([]);
      for (let i = 0; i < WARMUP; i++) {
        await timed(portable, input);
        await timed(delegated, input);
      }
      const p: number[] = [];
      const d: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        p.push(await timed(portable, input));
        d.push(await timed(delegated, input));
      }
      const mp = median(p);
      const md = median(d);
      console.log(
        `mobilenet_v2, median of ${RUNS}: portable ${mp.toFixed(2)} ms, XNNPACK delegate ${md.toFixed(2)} ms ` +
          `(delegate/portable ${(md / mp).toFixed(3)})`,
      );
      expect(md).toBeLessThanOrEqual(mp * NOISE);
    } finally {
      portable.dispose();
      delegated.dispose();
    }
  }, 120_000);
});
