// Conformance on the real ExecuTorch corpus in ../shared/corpus/pte:
// 1. every GOLDENS.json case of a supported program gives the expected
//    outputs within the stated tolerance;
// 2. every .pte/.bpte in the corpus either loads and runs, or is listed below
//    as expected-unsupported and fails with a TridentError naming what it
//    needs;
// 3. a program without goldens runs every method on zeros without error,
//    each output of its declared dtype and shape and finite, and matches a
//    reference computed here from seeded inputs (../helpers/pte-references.ts;
//    the goldens of a byte-identical twin too, where one has them);
// 4. no file crashes the module: after every failure, a small program still
//    loads and runs in the same module instance.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Tensor, TridentError, load, type InputValue, type MethodInfo, type Model, type OutputValue } from '../helpers/trident.js';
import { CORPUS, PTE_CORPUS, corpusFile, describeShared, hasShared, listFiles } from '../helpers/shared.js';
import {
  argmax,
  goldenInput,
  mismatch,
  parseProperty,
  readFloat32File,
  readGoldens,
  seededNormal,
  toleranceOf,
  type GoldenEntry,
} from '../helpers/goldens.js';
import { REFERENCES } from '../helpers/pte-references.js';

/**
 * Files that cannot load or run yet, with what they need (from the corpus
 * MANIFEST: delegates and vendor kernels). The load error, or else the error
 * of the run on zeros, must name one of these. A listed file that loads and
 * runs fails the test, so the table stays true.
 */
const EXPECTED_UNSUPPORTED: Record<string, readonly string[]> = {
  'Arm-Examples__CMSIS-Executorch/ai_layer__engine__model__ethos_u_minimal_example.pte': ['EthosUBackend', 'quantized_decomposed::'],
  'corey-cole__djl-executorch-engine/src__test__resources__lstm__lstm.pte': ['etnp::lstm.out'],
  'corey-cole__executorch-numpy-runtime/tests__models__lstm__lstm.pte': ['etnp::lstm.out'],
  'fidel-makatia__ALIF_Executorch/executorch_mnist__executorch_npu__mnist_ethosu_arm_delegate_ethos-u55-128.pte': ['EthosUBackend'],
  'fidel-makatia__ALIF_Executorch/executorch_mnist__mnist_ethos_u55.pte': ['EthosUBackend'],
  'pytorch__executorch/examples__qualcomm__oss_scripts__llama__artifacts__stories260k_hybrid_llama_qnn.pte': ['QnnBackend'],
  'pytorch__executorch/operator_and_model_testing__conv2d__pte1__CadenceDemoModel.pte': ['cadence::'],
  'pytorch__executorch/operator_and_model_testing__conv2d__pte1__conv2d_quantized.pte': ['cadence::'],
  'pytorch__executorch/operator_and_model_testing__conv2d__pte__conv2d_layer0_conv1.pte': ['cadence::'],
};

/**
 * XNNPACK-delegated programs without numeric goldens: run on seeded inputs
 * at the listed input shapes (within their dynamic bounds), every output
 * must be finite and have its declared shape (static outputs).
 */
const DELEGATED_SEEDED_RUNS: Record<string, number[][][]> = {
  'corey-cole__simple-torch-model/model.pte': [[[1, 1, 28, 28]], [[1, 1, 64, 40]], [[1, 1, 1024, 1024]]],
};

/** External data of programs without a GOLDENS entry saying so. */
const EXTRA_DATA_FILES: Record<string, readonly string[]> = {
  'pytorch__executorch/extension__android__executorch_android__src__androidTest__resources__xor.pte': [
    'pytorch__executorch/extension__android__executorch_android__src__androidTest__resources__xor.ptd',
  ],
  'pytorch__executorch/extension__module__test__resources__linear.pte': ['pytorch__executorch/extension__module__test__resources__linear.ptd'],
};

const goldens: Record<string, GoldenEntry> = hasShared ? readGoldens(path.join(PTE_CORPUS, 'GOLDENS.json')) : {};
const programs: string[] = hasShared ? listPrograms(PTE_CORPUS) : [];
const tally = { passed: 0, unsupported: 0, cases: 0, references: 0, twins: [] as string[] };

/** The file with goldens whose bytes equal `file`'s (the MANIFEST lists such duplicates), if any. */
function goldenTwin(file: string): string | undefined {
  const bytes = readFileSync(corpusFile(file));
  return Object.keys(goldens).find((other) => other !== file && readFileSync(corpusFile(other)).equals(bytes));
}

function listPrograms(root: string): string[] {
  return listFiles(root, ['.pte', '.bpte']).map((full) => path.relative(root, full).split(path.sep).join('/'));
}

/** The module must survive whatever the previous file did to it. */
async function expectModuleHealthy(after: string): Promise<void> {
  const model = await load(readFileSync(corpusFile(CORPUS.add)));
  try {
    const [sum] = await model.run('forward', [Tensor.from('float32', [1]), Tensor.from('float32', [2])]);
    expect((sum as Tensor).toArray(), `module unusable after ${after}`).toEqual([3]);
  } finally {
    model.dispose();
  }
}

/** Runs every golden case of `file`; returns the failures, one line each. */
async function runGoldens(file: string, entry: GoldenEntry, model: Model): Promise<string[]> {
  const failures: string[] = [];
  const tol = toleranceOf(entry);
  const check = (ok: boolean, what: string): void => {
    if (ok) tally.cases++;
    else failures.push(what);
  };

  if (entry.method_names_superset) {
    const names = model.methods.map((m) => m.name);
    const missing = entry.method_names_superset.filter((n) => !names.includes(n));
    check(missing.length === 0, `methods ${names.join(', ')} lack ${missing.join(', ')}`);
  }

  if (entry.input_file && entry.input_split && entry.expected_file) {
    // One binary of float32 inputs, split in order into tensors (lstm form).
    const all = readFloat32File(corpusFile(entry.input_file));
    let offset = 0;
    const inputs = entry.input_split.map(([dtype, shape]) => {
      const size = shape.reduce((a, b) => a * b, 1);
      expect(dtype).toBe('float32');
      const t = new Tensor('float32', all.slice(offset, offset + size), shape);
      offset += size;
      return t;
    });
    const outputs = await model.run(entry.method ?? 'forward', inputs);
    const got = outputs[entry.expected_output_index ?? 0];
    const want = { dtype: 'float32', shape: entry.expected_shape, values: Array.from(readFloat32File(corpusFile(entry.expected_file))) };
    const diff = got === undefined ? 'missing output' : mismatch(got, 'Tensor', want, tol);
    check(diff === null, `${entry.input_file}: ${diff}`);
  }

  for (const [i, c] of (entry.cases ?? []).entries()) {
    const method = c.method ?? entry.method ?? 'forward';
    const where = `case ${i} (${method})`;
    if (c.input_file && c.expected_argmax !== undefined) {
      // KeywordSpotting form: one float32 input, the label is the argmax.
      const input = new Tensor('float32', readFloat32File(corpusFile(c.input_file)), c.input_shape);
      const [scores] = await model.run(method, [input]);
      const best = argmax((scores as Tensor).toArray() as number[]);
      check(best === c.expected_argmax, `${where}: argmax ${best}, expected ${c.expected_argmax}`);
      continue;
    }
    if (!Array.isArray(c.inputs) || !Array.isArray(c.outputs)) {
      failures.push(`${where}: unknown golden case form ${JSON.stringify(Object.keys(c))}`);
      continue;
    }
    const inputs: InputValue[] = c.inputs.map((v, j) => goldenInput(v, `${where}: input ${j}`));
    const outputs = await model.run(method, inputs);
    const kinds = model.method(method).outputs.map((o) => o.kind);
    if (outputs.length < c.outputs.length) {
      failures.push(`${where}: ${outputs.length} outputs, expected ${c.outputs.length}`);
      continue;
    }
    const diffs = c.outputs.map((want, j) => mismatch(outputs[j]!, kinds[j], want, tol)).filter((d) => d !== null);
    check(diffs.length === 0, `${where}: ${diffs[0]}`);
  }

  if (entry.embedded) {
    // Bundled programs carry their own cases; they must pass too.
    for (const [i, test] of model.bundledTests().entries()) {
      const outputs = await model.run(test.method, test.inputs);
      const kinds = model.method(test.method).outputs.map((o) => o.kind);
      const diffs = test.expected.map((want, j) => {
        const w = want instanceof Tensor ? { dtype: want.dtype, shape: want.shape, values: want.toArray() } : { value: want };
        return mismatch(outputs[j]!, kinds[j], w, tol);
      });
      const diff = diffs.find((d) => d !== null);
      check(diff === undefined, `embedded case ${i}: ${diff}`);
    }
  }

  if (entry.property !== undefined && !entry.cases && !entry.input_file && !entry.method_names_superset) {
    const property = parseProperty(entry.property);
    if (property === null) {
      failures.push(`golden of form 'property' (${entry.property}) has no automatic check; add one`);
    } else {
      // Seeded standard-normal inputs at the declared shapes.
      const method = entry.method ?? 'forward';
      const inputs = model.method(method).inputs.map((spec, i) => {
        const size = spec.shape!.reduce((a, b) => a * b, 1);
        return new Tensor('float32', seededNormal(size, i + 1), spec.shape);
      });
      const [y] = await model.run(method, inputs);
      const values = (y as Tensor).toArray() as number[];
      if (property.shape) check(JSON.stringify((y as Tensor).shape) === JSON.stringify(property.shape), `property: shape [${(y as Tensor).shape}], expected [${property.shape}]`);
      if (property.finite) check(values.every(Number.isFinite), 'property: an output is not finite');
      if (property.nonConstant) check(values.some((v) => v !== values[0]), 'property: all outputs are equal');
    }
  }
  return failures;
}

const SCALAR_TYPES: Partial<Record<string, readonly string[]>> = {
  Int: ['number', 'bigint'],
  Double: ['number'],
  Bool: ['boolean'],
  String: ['string'],
};

/**
 * Outputs as the method declares them: their number and kinds; tensors of
 * the declared dtype, of the declared shape (static) or within it (bounded:
 * same rank, no dimension above its bound), and float ones finite.
 */
function expectDeclaredOutputs(where: string, method: MethodInfo, outputs: OutputValue[]): void {
  expect(outputs.length, `${where}: number of outputs`).toBe(method.outputs.length);
  outputs.forEach((y, j) => {
    const spec = method.outputs[j]!;
    const what = `${where}: output ${j}`;
    if (spec.kind === 'None') return expect(y, what).toBeNull();
    if (spec.kind !== 'Tensor') {
      expect(SCALAR_TYPES[spec.kind], `${what}: a ${spec.kind} this test checks`).toBeDefined();
      return expect(SCALAR_TYPES[spec.kind], `${what}: ${String(y)} is a ${spec.kind}`).toContain(typeof y);
    }
    expect(y, what).toBeInstanceOf(Tensor);
    const t = y as Tensor;
    expect(t.dtype, `${what} dtype`).toBe(spec.dtype);
    if (spec.dynamism === 'static') expect(t.shape, `${what} shape`).toEqual(spec.shape);
    else if (spec.dynamism === 'bounded') {
      expect(t.shape.length, `${what} rank`).toBe(spec.shape!.length);
      t.shape.forEach((d, i) => expect(d, `${what} dim ${i} within its bound [${spec.shape}]`).toBeLessThanOrEqual(spec.shape![i]!));
    }
    if (t.data instanceof Float32Array || t.data instanceof Float64Array) {
      const bad = t.data.findIndex((v) => !Number.isFinite(v));
      expect(bad, `${what}: element ${bad} is ${t.data[bad]}, not finite`).toBe(-1);
    }
  });
}

/** Delegated programs without goldens: seeded inputs, finite outputs of the declared shapes. */
async function seededRuns(file: string, model: Model, shapes: number[][][]): Promise<void> {
  const method = model.method('forward');
  for (const [k, inputShapes] of shapes.entries()) {
    const inputs = inputShapes.map((shape, i) => new Tensor('float32', seededNormal(shape.reduce((a, b) => a * b, 1), 10 * k + i), shape));
    const outputs = await model.run('forward', inputs);
    expectDeclaredOutputs(`${file} at inputs ${JSON.stringify(inputShapes)}`, method, outputs);
    tally.cases++;
  }
}

/**
 * Every method of a program without goldens runs on zeros (on its declared
 * input shapes): it must not fail, and its outputs must be as declared.
 * Zeros are in every corpus program's domain; a program that cannot run
 * belongs in EXPECTED_UNSUPPORTED, saying what it needs.
 */
async function smokeRun(file: string, model: Model): Promise<void> {
  for (const method of model.methods) {
    const inputs = method.inputs.map((spec): InputValue => {
      if (spec.kind === 'Tensor') return Tensor.zeros(spec.dtype!, spec.shape!);
      if (spec.kind === 'Int' || spec.kind === 'Double') return 0;
      if (spec.kind === 'Bool') return false;
      if (spec.kind === 'None') return null;
      throw new Error(`${file} ${method.name}: input kind ${spec.kind} has no zero here; add one`);
    });
    const outputs = await model.run(method.name, inputs);
    expectDeclaredOutputs(`${file} ${method.name} on zeros`, method, outputs);
  }
}

/** A load or run failure of a listed file: a TridentError naming what it needs. */
async function expectNeeds(file: string, err: unknown, needs: readonly string[]): Promise<void> {
  expect(err).toBeInstanceOf(TridentError);
  const message = (err as Error).message;
  expect(needs.some((n) => message.includes(n)), `"${message}" names none of ${needs.join(', ')}`).toBe(true);
  await expectModuleHealthy(file);
  tally.unsupported++;
}

describeShared('conformance: ExecuTorch .pte corpus', () => {
  afterAll(() => {
    console.log(
      `conformance: ${tally.passed} passed, ${tally.unsupported} expected-unsupported (${tally.cases} golden checks passed; ` +
        `${tally.references} programs without goldens matched their references${tally.twins.length ? `, ${tally.twins.join(', ')}` : ''})`,
    );
  });

  it('finds the corpus, and every GOLDENS entry and table row names a corpus file', () => {
    expect(programs.length).toBeGreaterThan(30);
    for (const file of [
      ...Object.keys(goldens),
      ...Object.keys(EXPECTED_UNSUPPORTED),
      ...Object.keys(EXTRA_DATA_FILES),
      ...Object.keys(DELEGATED_SEEDED_RUNS),
      ...Object.keys(REFERENCES),
    ]) {
      expect(programs, `listed file ${file}`).toContain(file);
    }
    // A program that runs without goldens must be checked against something.
    const unchecked = programs.filter((f) => !goldens[f] && !EXPECTED_UNSUPPORTED[f] && !DELEGATED_SEEDED_RUNS[f] && !REFERENCES[f]);
    expect(unchecked, 'programs without goldens and without a reference in pte-references.ts').toEqual([]);
  });

  for (const file of programs) {
    const needs = EXPECTED_UNSUPPORTED[file];
    const entry = goldens[file];
    const reference = REFERENCES[file];
    const title = needs
      ? `${file} fails to load or run, naming ${needs.join(' or ')}`
      : entry
        ? `${file} loads and matches its goldens`
        : DELEGATED_SEEDED_RUNS[file]
          ? `${file} loads and runs on seeded inputs`
          : `${file} runs on zeros and matches its reference: ${reference?.what ?? 'none yet'}`;
    it(title, async () => {
      const dataFiles = [...(entry?.data_files ?? []), ...(EXTRA_DATA_FILES[file] ?? [])].map(corpusFile);
      let model: Model;
      try {
        model = await load(corpusFile(file), { dataFiles });
      } catch (err) {
        if (!needs) throw err;
        return expectNeeds(file, err, needs);
      }
      let unsupported: unknown = null;
      try {
        if (needs) {
          // Some needs show only when the instruction that has them runs.
          unsupported = await smokeRun(file, model).then(() => null, (err: unknown) => err);
          if (unsupported === null) {
            throw new Error(`${file} loaded and ran, but EXPECTED_UNSUPPORTED says it needs ${needs.join(' or ')}: update the table`);
          }
        } else if (entry) expect(await runGoldens(file, entry, model)).toEqual([]);
        else if (DELEGATED_SEEDED_RUNS[file]) await seededRuns(file, model, DELEGATED_SEEDED_RUNS[file]!);
        else {
          if (!reference) throw new Error(`${file} has no goldens and no reference: add one to tests/helpers/pte-references.ts`);
          await smokeRun(file, model);
          const twin = goldenTwin(file);
          if (twin) {
            expect(await runGoldens(file, goldens[twin]!, model), `the goldens of its byte-identical twin ${twin}`).toEqual([]);
            tally.twins.push(`${path.basename(file)} also passed the goldens of its twin ${twin}`);
          }
          await reference.check(model, file);
          tally.references++;
        }
      } finally {
        model.dispose();
      }
      if (needs) return expectNeeds(file, unsupported, needs);
      await expectModuleHealthy(file);
      tally.passed++;
    });
  }
});
