// The project's own fixtures (build/fixtures, see tests/fixtures/README.md)
// through both real wasm builds: every method signature and golden case, and
// every hostile file failing cleanly with the module still usable after.
import { describe, expect, it } from 'vitest';
import { fixture, readFixtureIndex, type HostileEntry } from '../helpers/fixtures.js';
import { goldenInput, mismatch, toleranceOf } from '../helpers/goldens.js';
import { ErrorCode, Tensor, TridentError, load, type InputValue, type Model } from '../helpers/trident.js';

const index = readFixtureIndex();
const DYNAMISM: Record<string, string> = { STATIC: 'static', DYNAMIC_BOUND: 'bounded', DYNAMIC_UNBOUND: 'unbounded' };

/** The index's signature form ({type, dtype, shape, dynamism}) in the API's form. */
function expectedSignature(spec: Record<string, unknown>): Record<string, unknown> {
  if (spec['type'] !== 'Tensor') return { kind: spec['type'] };
  return { kind: 'Tensor', dtype: spec['dtype'], shape: spec['shape'], dynamism: DYNAMISM[spec['dynamism'] as string] };
}

async function expectModuleHealthy(): Promise<void> {
  const model = await load(fixture('add.pte'));
  try {
    const [sum] = await model.run('forward', [Tensor.from('float32', [[1, 2], [3, 4]]), Tensor.from('float32', [[1, 1], [1, 1]])]);
    expect((sum as Tensor).toArray()).toEqual([2, 3, 4, 5]);
  } finally {
    model.dispose();
  }
}

// Both builds: the threads build splits kernels across the pool and plans
// .pte memory by lifetimes ('auto'); the single-thread build keeps every
// kernel on one thread and the file's plan.
const BUILDS = [
  { name: 'threads build', threads: true },
  { name: 'single-thread build', threads: false },
] as const;

describe('fixture programs', () => {
  for (const [file, entry] of Object.entries(index.goldens)) {
    for (const build of BUILDS) {
      it(`${file} (${build.name}): signatures and every golden case`, async () => {
        const model = await load(fixture(file), { threads: build.threads });
        try {
          for (const [name, sig] of Object.entries(entry.methods) as Array<[string, { inputs: never[]; outputs: never[] }]>) {
            const method = model.method(name);
            expect(method.inputs, `${name} inputs`).toEqual(sig.inputs.map(expectedSignature));
            expect(method.outputs, `${name} outputs`).toEqual(sig.outputs.map(expectedSignature));
          }
          const tol = toleranceOf(entry);
          for (const [i, c] of (entry.cases ?? []).entries()) {
            const method = c.method ?? entry.method ?? 'forward';
            const where = `${file} case ${i} (${method})`;
            const inputs = (c.inputs ?? []).map((v, j) => goldenInput(v, `${where}: input ${j}`));
            const expectError = (c as { expect_error?: string }).expect_error;
            if (expectError !== undefined) {
              await expect(model.run(method, inputs), `${where} must fail: ${expectError}`).rejects.toBeInstanceOf(TridentError);
              continue;
            }
            const outputs = await model.run(method, inputs);
            const kinds = model.method(method).outputs.map((o) => o.kind);
            expect(outputs.length, where).toBe(c.outputs!.length);
            c.outputs!.forEach((want, j) => expect(mismatch(outputs[j]!, kinds[j], want, tol), `${where}: output ${j}`).toBeNull());
          }
        } finally {
          model.dispose();
        }
      });
    }
  }
});

/** Inputs for touching a method: the entry's own, else zeros of the signature. */
function touchInputs(model: Model, method: string, hostile: HostileEntry): InputValue[] {
  if (hostile.run && hostile.run.method === method) return hostile.run.inputs.map((v, j) => goldenInput(v, `input ${j}`));
  return model.method(method).inputs.map((spec) => (spec.kind === 'Tensor' ? Tensor.zeros(spec.dtype!, spec.shape!) : spec.kind === 'Bool' ? false : 0));
}

describe('hostile fixtures', () => {
  for (const [file, hostile] of Object.entries(index.hostile)) {
    it(`${file} fails cleanly: ${hostile.description}`, async () => {
      let error: unknown;
      let model: Model | undefined;
      try {
        // A limit well under the 512 MiB that huge_plan.pte asks for. Its file's
        // plan is what is refused: under 'auto' a method over the limit is planned
        // per shape instead (tests/models/frames-transformer.test.ts).
        model = await load(fixture(file), {
          maxPlannedBytes: 64 * 1024 * 1024,
          ...(file === 'hostile/huge_plan.pte' && { memoryPlan: 'file' as const }),
        });
        // Methods are prepared lazily: touching each one must fail somewhere.
        for (const method of model.methods) await model.run(method.name, touchInputs(model, method.name, hostile));
      } catch (err) {
        error = err;
      } finally {
        model?.dispose();
        model?.dispose(); // still disposable after the failure, and idempotent
      }
      expect(error, `${file} should have failed`).toBeInstanceOf(TridentError);
      const message = (error as Error).message;
      expect(hostile.error_mentions.length, `${file}: the index says what its error must name`).toBeGreaterThan(0);
      for (const mention of hostile.error_mentions) expect(message).toContain(mention);
      expect((error as TridentError).codeName, message).toBe(hostile.error_code);
      await expectModuleHealthy();
    });
  }
});
