// Real models exported by tools/export/models/export_models.py into
// build/models/ (`bash scripts/fixtures.sh`; large, not committed): each .pte
// goes through the wasm build with the public API, runs on the saved input and
// must match the reference output within the entry's tolerance: 1e-4 *
// max(1, max|ref|) for float models, an absolute bound (one output
// quantization step) for int8 ones. The *_xnnpack entries are
// XnnpackBackend-delegated: their method must have the delegates the exporter
// wrote, with the same node types per delegate. The CLI must inspect every
// file. Without build/models the suite is skipped, saying so, except in CI
// (CI=true), where that is a failure, as for ../shared.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNpy } from '../../bin/cli/npy.mjs';
import { CLI, REPO_ROOT } from '../helpers/paths.js';
import { Tensor, load } from '../helpers/trident.js';
import { describeExported, MODELS_DIR } from '../helpers/exported-models.js';
import { errorBound, maxErrors } from '../helpers/model-errors.js';


interface TensorSpec {
  dtype: string;
  shape: number[];
}

interface ModelEntry {
  name: string;
  description: string;
  pte: string;
  onnx: string | null;
  input: string;
  expected: string;
  inputs: TensorSpec[];
  outputs: TensorSpec[];
  /** Relative (float models) or absolute (int8 models) bound on max |got - ref|. */
  tolerance: { max_abs_error_rel_to_max_ref?: number; max_abs_error?: number };
  operators: Record<string, number>;
  instructions: number;
  /** DelegateCalls in the method (0 or absent: portable only). */
  delegates?: number;
  /** Node counts by type per delegate, in delegate order (delegated entries). */
  delegate_node_counts?: Array<Record<string, number>>;
}

function readNpy(file: string): Tensor {
  return parseNpy(new Uint8Array(readFileSync(path.join(MODELS_DIR, file))), file) as Tensor;
}

function describeModels(name: string, body: (models: ModelEntry[]) => void): void {
  describeExported<ModelEntry>(MODELS_DIR, name, (index) => body(Object.values(index)));
}

describeModels('exported models against eager PyTorch', (models) => {
  it('build/models lists at least one model', () => {
    expect(models.length).toBeGreaterThan(0);
  });

  for (const entry of models) {
    it(`${entry.name}: runs in the wasm build and matches PyTorch`, async () => {
      const model = await load(path.join(MODELS_DIR, entry.pte));
      try {
        const method = model.method('forward');
        expect(method.inputs.map((i) => ({ dtype: i.dtype, shape: i.shape }))).toEqual(entry.inputs);
        expect(method.outputs.map((o) => ({ dtype: o.dtype, shape: o.shape }))).toEqual(entry.outputs);
        if (entry.delegates !== undefined) {
          expect(method.delegates.length, `${entry.name}: delegates`).toBe(entry.delegates);
          for (const d of method.delegates) expect(d.backend).toBe('XnnpackBackend');
        }
        if (entry.delegate_node_counts !== undefined) {
          // The runtime reads the node types the exporter wrote, per delegate.
          expect(method.delegates.map((d) => ({ ...d.nodeCounts }))).toEqual(entry.delegate_node_counts);
        }

        const input = readNpy(entry.input);
        const want = readNpy(entry.expected);
        expect(input.shape).toEqual(entry.inputs[0]!.shape);
        const start = performance.now();
        const [out] = await model.run('forward', [input]);
        const ms = performance.now() - start;
        const got = out as Tensor;
        expect(got.dtype).toBe('float32');
        expect(got.shape).toEqual(want.shape);
        const { err, refMax } = maxErrors(got.data as Float32Array, want.data as Float32Array);
        const bound = errorBound(entry.tolerance, refMax);
        console.info(`${entry.name}: max abs error ${err.toExponential(2)} (bound ${bound.toExponential(2)}), ${ms.toFixed(0)} ms`);
        expect(err, `${entry.name}: max abs error ${err} > ${bound}`).toBeLessThanOrEqual(bound);
      } finally {
        model.dispose();
      }
    }, 600_000);

    it(`${entry.name}: trident inspect accepts it`, () => {
      const r = spawnSync(process.execPath, [CLI, 'inspect', path.join(MODELS_DIR, entry.pte), '--json'], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const info = JSON.parse(r.stdout) as { format: string; methods: Array<{ name: string; inputs: TensorSpec[] }> };
      expect(info.format).toBe('pte');
      expect(info.methods.map((m) => m.name)).toEqual(['forward']);
      expect(info.methods[0]!.inputs.map((i) => i.shape)).toEqual(entry.inputs.map((i) => i.shape));
    }, 120_000);

    it(`${entry.name}: its .pte, ONNX twin and data files are there`, () => {
      for (const file of [entry.pte, entry.input, entry.expected, ...(entry.onnx ? [entry.onnx] : [])]) {
        expect(existsSync(path.join(MODELS_DIR, file)), file).toBe(true);
      }
    });
  }
});
