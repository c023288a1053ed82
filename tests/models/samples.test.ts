// The web viewer's samples, written by tools/export/samples/export_samples.py
// into build/samples/ (`bash scripts/fixtures.sh`; not committed): every file
// of build/samples/index.json loads through the wasm build with the public
// API, and does what the manifest says. The digit recognizer's three programs
// (portable .pte, XNNPACK .pte, .pt2) agree with each other and classify the
// whole test split (digits_test.json) with the manifest's accuracy; the
// .bpte's bundled cases pass; the .pt2's stored sample input runs; fib.mlir
// prints the manifest's text; yolox_nano and large_5000 have the manifest's
// node counts and run on zeros. Without build/samples the suite is skipped,
// saying so, except in CI (CI=true), where that is a failure (as for the
// other exported-model suites, tests/helpers/exported-models.ts).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';
import { Model, Tensor, load } from '../helpers/trident.js';

const SAMPLES_DIR = path.join(REPO_ROOT, 'build', 'samples');

interface SampleEntry {
  id: string;
  name: string;
  file: string;
  format: string;
  method: string;
  description: string;
  input: { kind: string; shape?: number[]; size?: number; scale?: number; labels?: string };
  nodes?: number;
  expectPrinted?: string;
  bundledCases?: number;
  sampleInput?: { testIndex: number; label: number };
}

interface Manifest {
  samples: SampleEntry[];
  digits: {
    accuracy: number;
    correct: number;
    total: number;
    testSet: string;
    testImages: Record<string, number[]>;
    testImageIndices: Record<string, number>;
    input: { shape: number[]; scale: number };
  };
}

interface DigitsTestSet {
  images: number[][];
  labels: number[];
  predictions: number[];
}

function describeSamples(title: string, body: (manifest: Manifest) => void): void {
  const index = path.join(SAMPLES_DIR, 'index.json');
  if (existsSync(index)) {
    const manifest = JSON.parse(readFileSync(index, 'utf8')) as Manifest;
    describe(title, () => body(manifest));
  } else if (process.env['CI'] === 'true') {
    describe(title, () => {
      it('needs the exported samples in build/samples', () => {
        throw new Error(`${index} is missing, but CI=true: run 'bash scripts/fixtures.sh' (npm run fixtures) first`);
      });
    });
  } else {
    console.warn(`[skipped] ${title}: ${index} does not exist (run 'bash scripts/fixtures.sh')`);
    describe.skip(title, () => body({ samples: [], digits: undefined as never }));
  }
}

const samplePath = (entry: SampleEntry): string => path.join(SAMPLES_DIR, entry.file);

/** The digits input convention: float32[1,1,8,8] = pixel / scale. */
function digitTensor(pixels: readonly number[], scale: number): Tensor {
  return Tensor.from('float32', pixels.map((p) => p / scale), [1, 1, 8, 8]);
}

function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}

async function probabilities(model: Model, method: string, input: Tensor): Promise<Float32Array> {
  const [out] = await model.run(method, [input]);
  const t = out as Tensor;
  expect(t.dtype).toBe('float32');
  expect(t.shape).toEqual([1, 10]);
  return t.data as Float32Array;
}

describeSamples('the web viewer samples (build/samples)', (manifest) => {
  const byId = new Map(manifest.samples.map((e) => [e.id, e]));
  const entry = (id: string): SampleEntry => {
    const e = byId.get(id);
    if (e === undefined) throw new Error(`build/samples/index.json has no sample '${id}'`);
    return e;
  };

  it('lists every sample, and every listed file exists', () => {
    for (const id of ['digits', 'digits_xnnpack', 'digits_pt2', 'digits_bundled', 'mobilenet_v2_xnnpack', 'fib', 'yolox_nano', 'large_5000']) {
      expect(byId.has(id), id).toBe(true);
    }
    for (const e of manifest.samples) expect(existsSync(samplePath(e)), e.file).toBe(true);
    expect(existsSync(path.join(SAMPLES_DIR, 'imagenet_labels.json'))).toBe(true);
    const labels = JSON.parse(readFileSync(path.join(SAMPLES_DIR, entry('mobilenet_v2_xnnpack').input.labels!), 'utf8')) as string[];
    expect(labels.length).toBe(1000);
  });

  for (const e of manifest.samples) {
    it(`${e.file} loads as ${e.format}${e.nodes !== undefined ? ` with ${e.nodes} nodes` : ''}`, async () => {
      const model = await load(samplePath(e));
      try {
        expect(model.format).toBe(e.format);
        expect(model.defaultMethod).toBe(e.method);
        if (e.nodes !== undefined) expect((await model.graph(e.method)).nodes.length).toBe(e.nodes);
      } finally {
        model.dispose();
      }
    }, 120_000);
  }

  describe('digit recognizer', () => {
    const digits = manifest.digits;
    let test: DigitsTestSet;
    const models = new Map<string, Model>();

    beforeAll(async () => {
      test = JSON.parse(readFileSync(path.join(SAMPLES_DIR, digits.testSet), 'utf8')) as DigitsTestSet;
      for (const id of ['digits', 'digits_xnnpack', 'digits_pt2']) models.set(id, await load(samplePath(entry(id))));
    });
    afterAll(() => {
      for (const m of models.values()) m.dispose();
    });

    it('keeps the input convention: float32[1,1,8,8], pixel / 16', () => {
      expect(digits.input.shape).toEqual([1, 1, 8, 8]);
      expect(digits.input.scale).toBe(16);
      for (const id of ['digits', 'digits_xnnpack', 'digits_pt2']) {
        const model = models.get(id)!;
        const method = model.method(entry(id).method);
        expect(method.inputs.map((i) => ({ dtype: i.dtype, shape: i.shape }))).toEqual([{ dtype: 'float32', shape: [1, 1, 8, 8] }]);
        expect(method.outputs.map((o) => ({ dtype: o.dtype, shape: o.shape }))).toEqual([{ dtype: 'float32', shape: [1, 10] }]);
      }
    });

    it('the three programs agree and classify the test split with the manifest accuracy', async () => {
      expect(test.images.length).toBe(digits.total);
      expect(test.labels.length).toBe(digits.total);
      const correct = new Map<string, number>();
      let maxDiff = 0;
      for (let k = 0; k < test.images.length; k++) {
        const x = digitTensor(test.images[k]!, digits.input.scale);
        const probs: Float32Array[] = [];
        for (const [id, model] of models) {
          const p = await probabilities(model, entry(id).method, x);
          probs.push(p);
          let sum = 0;
          for (const v of p) sum += v;
          expect(Math.abs(sum - 1), `${id}: probabilities of test image ${k} sum to ${sum}`).toBeLessThan(1e-5);
          const pred = argmax(p);
          expect(pred, `${id}: test image ${k}`).toBe(test.predictions[k]);
          if (pred === test.labels[k]) correct.set(id, (correct.get(id) ?? 0) + 1);
        }
        for (const p of probs.slice(1)) {
          for (let i = 0; i < 10; i++) maxDiff = Math.max(maxDiff, Math.abs(p[i]! - probs[0]![i]!));
        }
      }
      expect(maxDiff, 'max |difference| between the programs\' probabilities').toBeLessThan(1e-4);
      for (const id of models.keys()) {
        const n = correct.get(id) ?? 0;
        expect(n, id).toBe(digits.correct);
        expect(n / digits.total).toBeCloseTo(digits.accuracy, 5);
      }
      expect(digits.accuracy).toBeGreaterThanOrEqual(0.95);
    }, 600_000);

    it('classifies the manifest\'s test images (a 7 and a 0)', async () => {
      expect(Object.keys(digits.testImages).sort()).toEqual(['0', '7']);
      for (const [label, pixels] of Object.entries(digits.testImages)) {
        expect(pixels.length).toBe(64);
        for (const p of pixels) expect(Number.isInteger(p) && p >= 0 && p <= 16).toBe(true);
        // They come from the test split.
        expect(test.images[digits.testImageIndices[label]!]).toEqual(pixels);
        for (const [id, model] of models) {
          const p = await probabilities(model, entry(id).method, digitTensor(pixels, digits.input.scale));
          expect(argmax(p), `${id} on the ${label}`).toBe(Number(label));
        }
      }
    });

    it('digits.pt2 stores a sample input, the manifest\'s 7, and runs on it', async () => {
      const e = entry('digits_pt2');
      const model = models.get('digits_pt2')!;
      const stored = model.sampleInputs();
      expect(stored).not.toBeNull();
      expect(stored!.length).toBe(1);
      const x = stored![0] as Tensor;
      expect(x.shape).toEqual([1, 1, 8, 8]);
      const want = digitTensor(test.images[e.sampleInput!.testIndex]!, digits.input.scale);
      expect(x.toArray()).toEqual(want.toArray());
      const [out] = await model.run(stored!);
      expect(argmax((out as Tensor).data as Float32Array)).toBe(e.sampleInput!.label);
    });

    it('digits.bpte\'s bundled cases pass (ExecuTorch\'s tolerance: rtol 1e-5, atol 1e-8)', async () => {
      const e = entry('digits_bundled');
      const model = await load(samplePath(e));
      try {
        expect(model.format).toBe('bpte');
        const cases = model.bundledTests();
        expect(cases.length).toBe(e.bundledCases);
        const labels = new Set<number>();
        for (const test of cases) {
          expect(test.method).toBe('forward');
          const outputs = await model.run(test.method, test.inputs);
          expect(outputs.length).toBe(test.expected.length);
          const got = (outputs[0] as Tensor).data as Float32Array;
          const want = test.expected[0] as Tensor;
          expect(want.shape).toEqual([1, 10]);
          const w = want.data as Float32Array;
          for (let i = 0; i < w.length; i++) {
            expect(Math.abs(got[i]! - w[i]!), `output ${i}: ${got[i]} vs ${w[i]}`).toBeLessThanOrEqual(1e-8 + 1e-5 * Math.abs(w[i]!));
          }
          labels.add(argmax(w));
        }
        // One case per digit.
        expect([...labels].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      } finally {
        model.dispose();
      }
    });
  });

  it('fib.mlir prints the manifest\'s text', async () => {
    const e = entry('fib');
    const printed: string[] = [];
    const model = await load(samplePath(e), { onPrint: (text) => printed.push(text) });
    try {
      expect(model.format).toBe('mlir');
      const outputs = await model.run();
      expect(outputs).toEqual([]);
      expect(printed.join('')).toBe(e.expectPrinted);
      expect(e.expectPrinted!.split('\n')[49]).toBe('int64 = 7778742049');
    } finally {
      model.dispose();
    }
  });

  for (const id of ['mobilenet_v2_xnnpack', 'yolox_nano', 'large_5000']) {
    it(`${id} runs on zeros`, async () => {
      const e = entry(id);
      const model = await load(samplePath(e));
      try {
        const shape = e.input.shape!;
        expect(model.method(e.method).inputs.map((i) => i.shape)).toEqual([shape]);
        const outputs = await model.run(e.method, [Tensor.zeros('float32', shape)]);
        expect(outputs.length).toBe(1);
        const data = (outputs[0] as Tensor).data as Float32Array;
        expect(data.length).toBeGreaterThan(0);
        expect(data.every((v) => Number.isFinite(v)), `${id}: non-finite outputs`).toBe(true);
      } finally {
        model.dispose();
      }
    }, 300_000);
  }
});
