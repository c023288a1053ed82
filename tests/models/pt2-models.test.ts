// The exporter's models written as .pt2 archives by tools/export/pt2
// (build/pt2, from `bash scripts/fixtures.sh`): every layout (A22 = torch
// 2.2's legacy zip, A = 2.7's, B = 2.8's pickled weights, C = 2.9+'s raw
// weights) and op set (core ATen, training IR) runs through the wasm build
// and matches eager PyTorch within 1e-4 * max(1, max|ref|). Archives that
// need an op the runtime lacks are listed in index.json ("expects_unsupported")
// and must fail naming it. The writer itself is checked against the real
// linear.pt2: repacked from its own records, it must come out byte for byte.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNpy } from '../../bin/cli/npy.mjs';
import { REPO_ROOT } from '../helpers/paths.js';
import { describeShared } from '../helpers/shared.js';
import { Tensor, TridentError, load } from '../helpers/trident.js';
import { describeExported, PT2_DIR } from '../helpers/exported-models.js';
import { errorBound, maxErrors } from '../helpers/model-errors.js';


interface Pt2Entry {
  description: string;
  files: string[];
  input: string;
  expected: string;
  tolerance_rel_to_max_ref: number;
  expects_unsupported?: string[];
  file_info: Record<string, { layout: string; ir: string; schema: string }>;
}

const readNpy = (file: string): Tensor => parseNpy(new Uint8Array(readFileSync(path.join(PT2_DIR, file))), file) as Tensor;

function describePt2(name: string, body: (models: Array<[string, Pt2Entry]>) => void): void {
  describeExported<Pt2Entry>(PT2_DIR, name, (index) => body(Object.entries(index)));
}

describePt2('exported .pt2 archives against eager PyTorch', (models) => {
  it('build/pt2 has the three real models in layouts A, B and C', () => {
    const files = models.flatMap(([, e]) => e.files);
    for (const model of ['mobilenet_v2', 'resnet18', 'transformer_encoder']) {
      for (const layout of ['A22', 'A', 'B', 'C']) expect(files).toContain(`${model}.core.${layout}.pt2`);
    }
  });

  for (const [name, entry] of models) {
    for (const file of entry.files) {
      const info = entry.file_info[file]!;
      if (entry.expects_unsupported) {
        it(`${file} fails naming ${entry.expects_unsupported.join(', ')}`, async () => {
          const error = await load(path.join(PT2_DIR, file)).then(
            () => null,
            (err: unknown) => err,
          );
          expect(error).toBeInstanceOf(TridentError);
          for (const op of entry.expects_unsupported!) expect((error as TridentError).message).toContain(op);
        }, 120_000);
        continue;
      }
      it(`${file} (layout ${info.layout}, ${info.ir}, schema ${info.schema}) matches PyTorch`, async () => {
        const model = await load(path.join(PT2_DIR, file));
        try {
          expect(model.format).toBe('pt2');
          const input = readNpy(entry.input);
          const want = readNpy(entry.expected);
          // Torch 2.2's legacy layout stores no example inputs; the others do,
          // and they are the exporter's seeded input.
          const stored = model.sampleInputs('model');
          if (info.layout === 'A22') {
            expect(stored).toBeNull();
          } else {
            expect(stored).not.toBeNull();
            expect((stored![0] as Tensor).toArray()).toEqual(input.toArray());
          }
          const [out] = await model.run('model', [input]);
          const got = out as Tensor;
          expect(got.shape).toEqual(want.shape);
          const { err, refMax } = maxErrors(got.data as Float32Array, want.data as Float32Array);
          const bound = errorBound({ max_abs_error_rel_to_max_ref: entry.tolerance_rel_to_max_ref }, refMax);
          expect(err, `${name}: max abs error ${err} > ${bound}`).toBeLessThanOrEqual(bound);
          const method = model.method('model');
          expect(method.plannedBytes!).toBeLessThanOrEqual(method.intermediateBytes! + 64 * 1024);
        } finally {
          model.dispose();
        }
      }, 600_000);
    }
  }
});

describeShared('the .pt2 writer against torch', () => {
  it('repacks linear.pt2 (and torch.save output) byte for byte, and rebuilds its model.json', () => {
    for (const script of [['check_repack.py', '--torch-save'], ['check_json.py']]) {
      const r = spawnSync('/usr/bin/python3', [path.join('tools', 'export', 'pt2', script[0]!), ...script.slice(1)], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(r.status, `${script.join(' ')}: ${r.stdout}\n${r.stderr}`).toBe(0);
    }
  }, 240_000);
});
