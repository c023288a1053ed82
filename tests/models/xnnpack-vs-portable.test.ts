// The XNNPACK-delegated mobilenet_v2 against the same model through the
// portable kernels: same weights, same input. The delegated file must hold
// one XnnpackBackend delegate and the portable one none, and both must give
// the same outputs. Their speeds go to the log (interleaved runs after
// warm-up, medians of 15) and are not judged here: this file shares two
// cores with the rest of npm test. The speed target (the delegate no slower
// than the portable kernels) is `npm run bench`'s (bench/lib/targets.mjs).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNpy } from '../../bin/cli/npy.mjs';
import { REPO_ROOT } from '../helpers/paths.js';
import { errorBound, maxErrors } from '../helpers/model-errors.js';
import { Tensor, load, type Model } from '../helpers/trident.js';

const MODELS_DIR = path.join(REPO_ROOT, 'build', 'models');
const PORTABLE = path.join(MODELS_DIR, 'mobilenet_v2.pte');
const DELEGATED = path.join(MODELS_DIR, 'mobilenet_v2_xnnpack.pte');
const RUNS = 15;
const WARMUP = 3;
// The same float32 arithmetic in other orders (XNNPACK's NHWC kernels, the
// portable NCHW ones) differs by rounding: about 2e-7 on this model. A tenth
// of what each file may differ from PyTorch (1e-4 * max(1, max|ref|),
// build/models/*.json) still leaves room for reordering.
const TOLERANCE = { max_abs_error_rel_to_max_ref: 1e-5 };

const present = existsSync(PORTABLE) && existsSync(DELEGATED);
if (!present && process.env['CI'] === 'true') {
  describe('XNNPACK delegate against portable kernels', () => {
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

(present ? describe : describe.skip)('XNNPACK delegate against portable kernels', () => {
  it('mobilenet_v2 delegated to XNNPACK gives the portable kernels\' outputs (both medians logged)', async () => {
    const input = parseNpy(new Uint8Array(readFileSync(path.join(MODELS_DIR, 'mobilenet_v2.input.npy'))), 'input') as Tensor;
    const portable = await load(PORTABLE);
    const delegated = await load(DELEGATED);
    try {
      expect(delegated.method('forward').delegates.map((d) => d.backend)).toEqual(['XnnpackBackend']);
      expect(portable.method('forward').delegates).toEqual([]);

      const [p] = await portable.run('forward', [input]);
      const [d] = await delegated.run('forward', [input]);
      expect((d as Tensor).shape).toEqual((p as Tensor).shape);
      const { err, refMax } = maxErrors((d as Tensor).data as Float32Array, (p as Tensor).data as Float32Array);
      const bound = errorBound(TOLERANCE, refMax);
      expect(err, `max |delegated - portable| ${err} > ${bound}`).toBeLessThanOrEqual(bound);

      for (let i = 0; i < WARMUP; i++) {
        await timed(portable, input);
        await timed(delegated, input);
      }
      const pt: number[] = [];
      const dt: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        pt.push(await timed(portable, input));
        dt.push(await timed(delegated, input));
      }
      const mp = median(pt);
      const md = median(dt);
      console.log(
        `mobilenet_v2, median of ${RUNS}: portable ${mp.toFixed(2)} ms, XNNPACK delegate ${md.toFixed(2)} ms ` +
          `(delegate/portable ${(md / mp).toFixed(3)}; max |delegated - portable| ${err.toExponential(2)}, bound ${bound.toExponential(2)}; ` +
          'not judged here: npm run bench has the target)',
      );
    } finally {
      portable.dispose();
      delegated.dispose();
    }
  }, 120_000);
});
