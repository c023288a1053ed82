// `trident inspect`, `trident run`, `trident mlir-to-bef` and `trident bef-run`.

import { readFile, writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { load, mlirToBef, runBefExecutor, stringifyJson, valueToJson, verifyMlirToBef } from '../../dist/js/index.js';
import { formatInspect, formatProfile, formatRun } from './format.mjs';
import { parseInputSpec } from './input-spec.mjs';

export async function inspect(file, options) {
  const model = await load(file);
  try {
    if (!options.json) return formatInspect(file, model);
    return stringifyJson({ format: model.format, methods: model.methods });
  } finally {
    model.dispose();
  }
}

export async function run(file, options) {
  const model = await load(file, { dataFiles: options.data, optimize: !options['no-optimize'] });
  try {
    const method = options.method ?? defaultMethod(model);
    const info = model.method(method);
    const inputs = [];
    for (const [i, spec] of options.input.entries()) {
      inputs.push(await parseInputSpec(spec, info.inputs[i], `--input ${i + 1}`));
    }
    if (options.input.length === 0 && info.inputs.length > 0) {
      inputs.push(...(model.sampleInputs(method) ?? []));
    }
    const kinds = info.outputs.map((o) => o.kind);
    if (options.profile) {
      // V8 compiles hot wasm functions again only between calls: warm up
      // first, or the profile times the baseline compiler.
      for (let i = 0; i < PROFILE_WARMUP_RUNS; i++) await model.run(method, inputs);
      const profile = await model.profile(method, inputs);
      const byOperator = operatorTotals(profile.instructions);
      if (!options.json) return `${formatRun(method, profile.outputs, kinds, profile.totalMs)}\n${formatProfile(byOperator, profile.totalMs)}`;
      const json = profile.outputs.map((value, i) => valueToJson(value, kinds[i]));
      return stringifyJson({ outputs: json, ms: round3(profile.totalMs), profile: { instructions: profile.instructions, byOperator } });
    }
    const start = performance.now();
    const outputs = await model.run(method, inputs);
    const ms = performance.now() - start;
    if (!options.json) return formatRun(method, outputs, kinds, ms);
    const json = outputs.map((value, i) => valueToJson(value, kinds[i]));
    return stringifyJson({ outputs: json, ms: round3(ms) });
  } finally {
    model.dispose();
  }
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

// 'forward' (ExecuTorch's convention), else the one method a file has (a
// .pt2 names its model 'model').
function defaultMethod(model) {
  const names = model.methods.map((m) => m.name);
  return names.length === 1 && !names.includes('forward') ? names[0] : 'forward';
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
