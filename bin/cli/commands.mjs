// `trident inspect`, `trident run`, `trident mlir-to-bef` and `trident bef-run`.

import { readFile, writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { Tensor, jsonNumber, load, mlirToBef, runBefExecutor, stringifyJson, valueToJson, verifyMlirToBef } from '../../dist/js/index-node.js';
import { compareBundled } from './bundled.mjs';
import { formatBundled, formatGraph, formatInspect, formatProfile, formatRun, formatTop, formatWeights } from './format.mjs';
import { parseInputSpec } from './input-spec.mjs';

export async function inspect(file, options) {
  const model = await load(file, { dataFiles: options.data });
  try {
    if (options.method !== undefined && !options.graph) throw new Error('--method goes with --graph');
    const names = options.method !== undefined ? [model.method(options.method).name] : model.methods.map((m) => m.name);
    const graphs = {};
    if (options.graph) for (const name of names) graphs[name] = await model.graph(name);
    const weights = options.weights ? await model.weights() : undefined;
    if (!options.json) {
      const sections = [formatInspect(file, model)];
      for (const name of Object.keys(graphs)) sections.push(formatGraph(graphs[name]));
      if (weights !== undefined) sections.push(formatWeights(weights));
      return sections.join('\n\n');
    }
    return stringifyJson({
      format: model.format,
      methods: model.methods,
      ...(options.graph && { graphs }),
      ...(weights !== undefined && { weights }),
    });
  } finally {
    model.dispose();
  }
}

export async function run(file, options) {
  const threads = positiveInteger(options.threads, '--threads');
  const top = positiveInteger(options.top, '--top');
  let printed = '';
  const model = await load(file, {
    dataFiles: options.data,
    optimize: !options['no-optimize'],
    ...(threads !== undefined && { numThreads: threads }),
    onPrint: (text) => {
      printed += text;
    },
  });
  try {
    if (options.bundled) return await runBundled(model, options);
    const method = options.method ?? model.defaultMethod;
    if (method === undefined) {
      throw new Error(`${file} has ${model.methods.length} methods (${model.methods.map((m) => m.name).join(', ')}) and none is 'forward'; choose one with --method`);
    }
    const info = model.method(method);
    const inputs = [];
    for (const [i, spec] of options.input.entries()) {
      inputs.push(await parseInputSpec(spec, info.inputs[i], `--input ${i}`));
    }
    if (options.input.length === 0 && info.inputs.length > 0) {
      inputs.push(...(model.sampleInputs(method) ?? []));
    }
    const kinds = info.outputs.map((o) => o.kind);
    let outputs;
    let ms;
    let profile;
    if (options.profile) {
      // V8 compiles hot wasm functions again only between calls: warm up
      // first, or the profile times the baseline compiler.
      for (let i = 0; i < PROFILE_WARMUP_RUNS; i++) await model.run(method, inputs);
      printed = '';
      const profiled = await model.profile(method, inputs);
      outputs = profiled.outputs;
      ms = profiled.totalMs;
      profile = { instructions: profiled.instructions, byOperator: operatorTotals(profiled.instructions) };
    } else {
      const start = performance.now();
      outputs = await model.run(method, inputs);
      ms = performance.now() - start;
    }
    if (options.json) {
      const json = outputs.map((value, i) => valueToJson(value, kinds[i]));
      const topJson = top === undefined ? undefined : outputs.map((value) => topValues(value, top));
      return stringifyJson({ outputs: json, ms: round3(ms), top: topJson, printed: printed === '' ? undefined : printed, profile });
    }
    const sections = [];
    if (printed !== '') sections.push(printed.replace(/\n$/, ''));
    sections.push(formatRun(method, outputs, kinds, ms));
    if (top !== undefined) sections.push(formatTop(outputs.map((value) => topValues(value, top))));
    if (profile !== undefined) sections.push(formatProfile(profile.byOperator, ms));
    return sections.join('\n');
  } finally {
    model.dispose();
  }
}

/** --bundled: every embedded case of a .bpte, run and compared with its expected outputs. */
async function runBundled(model, options) {
  const tests = model.bundledTests();
  if (tests.length === 0) throw new Error(`--bundled: the file holds no bundled test cases (it is ${model.format === 'bpte' ? 'an empty bundle' : `a .${model.format}, not a .bpte`})`);
  const results = [];
  for (const [index, test] of tests.entries()) {
    if (options.method !== undefined && test.method !== options.method) continue;
    const outputs = await model.run(test.method, test.inputs);
    results.push({ index, method: test.method, ...compareBundled(outputs, test.expected) });
  }
  if (results.length === 0) throw new Error(`--bundled: no case runs method '${options.method}'`);
  const failed = results.filter((r) => !r.ok).length;
  const stdout = options.json
    ? `${stringifyJson({ cases: results.map(({ index, method, ok, maxAbsError, mismatch }) => ({ index, method, ok, maxAbsError, mismatch })), failed })}\n`
    : `${formatBundled(results)}\n`;
  return { stdout, stderr: '', exitCode: failed === 0 ? 0 : 1 };
}

/** The `k` largest values of a tensor output and their flat indices; null for other outputs. */
function topValues(value, k) {
  if (!(value instanceof Tensor) || value.dtype === 'bool') return null;
  // Raw values: int64 stays exact (bigints compare like numbers). NaN sorts last.
  const values = value.toArray();
  const rank = (v) => (typeof v === 'number' && Number.isNaN(v) ? -Infinity : v);
  const order = values.map((_, i) => i).sort((a, b) => (rank(values[a]) > rank(values[b]) ? -1 : rank(values[a]) < rank(values[b]) ? 1 : a - b));
  return order.slice(0, k).map((index) => ({ index, value: typeof values[index] === 'number' ? jsonNumber(values[index]) : values[index] }));
}

function positiveInteger(text, option) {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new Error(`${option} takes a positive integer, got '${text}'`);
  return Number(text);
}

const PROFILE_WARMUP_RUNS = 3;
const round3 = (ms) => Math.round(ms * 1000) / 1000;

// Instructions grouped by operator, slowest first.
function operatorTotals(instructions) {
  const totals = new Map();
  for (const p of instructions) {
    const t = totals.get(p.name) ?? { name: p.name, instructions: 0, calls: 0, ms: 0 };
    t.instructions += 1;
    t.calls += p.calls;
    t.ms += p.ms;
    totals.set(p.name, t);
  }
  return [...totals.values()].sort((a, b) => b.ms - a.ms);
}

export async function mlirToBefCommand(file, options) {
  if (options['verify-diagnostics'] === true) {
    const check = await verifyMlirToBef(await readFile(file, 'utf8'), { filename: file, splitInputFile: options['split-input-file'] === true });
    return { stdout: '', stderr: check.stderr, exitCode: check.exitCode };
  }
  if (options.output === undefined) throw new Error('mlir-to-bef needs -o OUT.bef (or --verify-diagnostics)');
  const bytes = await mlirToBef(await readFile(file, 'utf8'), { filename: file });
  await writeFile(options.output, bytes);
  return { stdout: '', stderr: '', exitCode: 0 };
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

export async function befRun(file, options) {
  const bytes = file === '-' ? await readStdin() : new Uint8Array(await readFile(file));
  const queue = options.work_queue_type ?? 's';
  if (!/^(s|mstd(:\d+)?)$/.test(queue)) throw new Error(`unknown --work_queue_type '${queue}'; expected s or mstd[:N]`);
  const report = await runBefExecutor(bytes, {
    functions: options.functions === undefined ? undefined : options.functions.split(',').filter((f) => f !== ''),
    initFunction: options.test_init_function,
    printErrorCode: options.print_error_code === true,
    multiThreadedQueue: queue !== 's',
    allowUnknownKernels: options['allow-unknown-kernels'] === true,
    verifySource: options['verify-diagnostics'] === undefined ? undefined : await readFile(options['verify-diagnostics'], 'utf8'),
  });
  return report;
}

export { mlirToBefCommand as 'mlir-to-bef', befRun as 'bef-run' };
