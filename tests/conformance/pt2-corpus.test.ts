// The real .pt2 archives of ../shared/corpus/pt2 through the JS API and the
// wasm build, checked against what MANIFEST.md records:
// - linear.pt2 (torch 2.9 dev, layout C) on its own stored sample input;
// - hades-pid's exported_program.pt2 (torch 2.2, legacy layout A, all-tag
//   unions, training-mode batch norm) on the MANIFEST's input.
import path from 'node:path';
import { expect, it } from 'vitest';
import { Tensor, load } from '../helpers/trident.js';
import { SHARED_DIR, describeShared } from '../helpers/shared.js';

const PT2_CORPUS = path.join(SHARED_DIR, 'corpus', 'pt2');

function expectClose(got: ArrayLike<number>, want: readonly number[], tolerance: number): void {
  expect(got.length).toBe(want.length);
  want.forEach((w, i) => expect(Math.abs(got[i]! - w), `element ${i}: ${got[i]} vs ${w}`).toBeLessThanOrEqual(tolerance));
}

describeShared('PT2 corpus', () => {
  it('linear.pt2 runs its stored sample input and matches the golden within 1e-6', async () => {
    const model = await load(path.join(PT2_CORPUS, 'pytorch__executorch', 'linear.pt2'));
    expect(model.format).toBe('pt2');
    const inputs = model.sampleInputs('model');
    expect(inputs).not.toBeNull();
    expect((inputs![0] as Tensor).shape).toEqual([3]);
    const [y] = await model.run('model', inputs!);
    expectClose((y as Tensor).data as Float32Array, [-0.32473868, -0.12328657, -0.12577079], 1e-6);
    model.dispose();
  });

  it('the legacy hades-pid archive matches the MANIFEST cross-check values', async () => {
    const model = await load(path.join(PT2_CORPUS, 'KladovValentin__hades-pid', 'exported_program.pt2'));
    const info = model.method('model');
    expect(info.outputs.map((o) => (o.kind === 'Tensor' ? o.shape : null))).toEqual([[2, 5], [2, 2]]);
    // The plan shares memory between intermediates whose lifetimes do not overlap.
    expect(info.plannedBytes!).toBeLessThan(info.intermediateBytes!);
    const x = Tensor.from(
      'float32',
      Array.from({ length: 20 }, (_, k) => (10 * Math.floor(k / 10) + (k % 10)) / 20 - 0.5),
      [2, 10],
    );
    for (let run = 0; run < 2; run++) {
      const [addmm6, squeeze] = (await model.run('model', [x])) as Tensor[];
      // Float32 rounding through batch norm over a batch of 2 (MANIFEST.md).
      expectClose(
        addmm6!.data as Float32Array,
        [-0.2881288, -0.7204041, 0.9200709, 0.5160028, 0.178767, -0.07786625, 0.7666453, 0.2766277, -0.5435733, 0.3397685],
        2e-5,
      );
      expectClose(squeeze!.data as Float32Array, [-0.6919238, -0.6922219, -0.694372, -0.6940733], 1e-5);
    }
    model.dispose();
  });
});
