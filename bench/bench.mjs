// npm run bench [-- --json] [--quick] [--runs N] [--warmup N] [--threads N] [--only a,b] [--no-cold]
// npm run bench -- --print saved.json   (the table of a saved --json report)
//
// Trident against onnxruntime-web on the same models with the same weights,
// in one Node process, runs interleaved (ORT, then each Trident path, in
// turn) so that a noisy neighbour slows both alike. Reports per model and
// path: median and quartiles, ours / ORT, GFLOP/s and the fraction of the
// SIMD128 ceiling measured in the same run, time from bytes to first output
// and peak wasm memory (each in a fresh process), and the builds' sizes and
// the cost of one run. docs/performance.md shows a full run and its targets.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseNpy } from '../bin/cli/npy.mjs';
import { benchCases, REPO } from './lib/cases.mjs';
import { ceilingSampler, measureCeiling, stateSampler } from './lib/ceiling.mjs';
import { measureMachineScaling } from './lib/machine-scaling.mjs';
import { ortEngine, tridentEngine } from './lib/engines.mjs';
import { checkOutput } from './lib/check-output.mjs';
import { buildSizes } from './lib/sizes.mjs';
import { measureRunOverhead } from './lib/run-overhead.mjs';
import { measureLlmDecode } from './lib/llm-decode.mjs';
import { printReport } from './lib/report.mjs';
import { quantile, summarize } from './lib/stats.mjs';
import { measureThreadScaling } from './lib/thread-scaling.mjs';
import { evaluateTargets } from './lib/targets.mjs';

const USAGE = `usage: npm run bench [-- --json] [--quick] [--runs N] [--warmup N] [--threads N] [--only a,b] [--no-cold]
       npm run bench -- --print saved.json   (the table of a saved --json report)
docs/performance.md says what each column and target means.`;

let parsed;
try {
  parsed = parseArgs({
    options: {
      help: { type: 'boolean', short: 'h', default: false },
      json: { type: 'boolean', default: false },
      quick: { type: 'boolean', default: false },
      runs: { type: 'string' },
      warmup: { type: 'string' },
      threads: { type: 'string', default: '1' },
      only: { type: 'string' },
      'no-cold': { type: 'boolean', default: false },
      print: { type: 'string' },
    },
  });
} catch (e) {
  console.error(`bench: ${e.message}\n${USAGE}`);
  process.exit(2);
}
const { values: args } = parsed;
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

if (args.print) {
  // Re-print a saved --json report as the table (docs/performance.md).
  printReport(JSON.parse(readFileSync(args.print, 'utf8')));
  process.exit(0);
}

const positive = (text, what) => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${what} must be a positive integer, got ${text}`);
  return n;
};
const quick = args.quick;
const runs = positive(args.runs ?? (quick ? '3' : '15'), 'runs');
const warmup = positive(args.warmup ?? (quick ? '1' : '3'), 'warmup');
const threads = positive(args.threads, 'threads');
const warmupMs = quick ? 300 : 2000;
const cases = benchCases({ quick, only: args.only?.split(',').filter(Boolean) });
const log = args.json ? (...m) => console.error(...m) : (...m) => console.log(...m);

const trident = await tridentEngine({ threads });
const ort = await ortEngine({ threads });

log(`measuring the SIMD128 ceiling ...`);
const sampleCeiling = await ceilingSampler();
const ceiling = measureCeiling(sampleCeiling, quick ? { reps: 2, seconds: 0.2 } : { reps: 5, seconds: 1.5 });
// The load side against the chains, on this thread, before the tables,
// between them and after: it tells a run in this VM's slow state from a
// quiet one (docs/performance.md).
const sampleState = await stateSampler();
const stateProbe = quick ? { ms: 40, slices: 2 } : { ms: 1000, slices: 10 };
const stateBefore = sampleState(stateProbe);
// SGEMM cases also time the ceiling kernel in each of their rounds, so that
// their fraction of it compares the two at the same moment: a spell of
// this VM's slow state during one case moved SGEMM 512 from 85% to 47% of
// the ceiling measured a minute before.
const CEILING_SAMPLE_MS = 10;
// Each case's rounds last at least this long as well as `runs` rounds. 15
// rounds of the transformer layer or sgemm_512 take about half a second,
// and this VM's slow state comes in spells of seconds: such a case's
// median was whichever state that half second fell in (sgemm_512 at 58%
// of the ceiling, its quartiles 7.3-11.7 ms, in a run where the rest were
// quick). Over 4 s the median is the state the machine was mostly in.
const caseMinMs = quick ? 0 : 4000;

function readInput(file) {
  const t = parseNpy(new Uint8Array(readFileSync(file)), path.basename(file));
  if (t.dtype !== 'float32') throw new Error(`${file}: expected float32 input, got ${t.dtype}`);
  return { data: t.data, shape: [...t.shape] };
}

function cold(engine, file, input) {
  const child = spawnSync(process.execPath, [path.join(REPO, 'bench', 'lib', 'cold.mjs'), engine, file, input, String(threads)], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (child.status !== 0) throw new Error(`cold run of ${engine} on ${file} failed:\n${child.stderr}`);
  const line = child.stdout.trim().split('\n').at(-1);
  return JSON.parse(line);
}

const results = [];
for (const c of cases) {
  log(`${c.name}: loading ...`);
  const input = readInput(c.files.input);
  const expected = parseNpy(new Uint8Array(readFileSync(c.files.expected)), 'expected').data;
  const contenders = [{ path: 'onnx', engine: ort, file: c.files.onnx }];
  for (const p of c.paths) contenders.push({ path: p, engine: trident, file: c.files[p] });
  for (const k of contenders) {
    k.session = await k.engine.open(new Uint8Array(readFileSync(k.file)));
    k.check = checkOutput(await k.session.run(input), expected, c.tolerance, `${c.name} (${k.path})`);
    k.times = [];
  }
  // V8 compiles a hot wasm function again (optimized) in the background,
  // and only calls after that use it: warm up for a number of runs *and* a
  // minimum time, or the first timed runs still use baseline code.
  const warmStart = performance.now();
  for (let i = 0; i < warmup || performance.now() - warmStart < warmupMs; i++) {
    for (const k of contenders) await k.session.run(input);
  }
  const caseCeiling = [];
  const timedStart = performance.now();
  for (let i = 0; i < runs || performance.now() - timedStart < caseMinMs; i++) {
    // Rotate who goes first so that no engine always runs right after another.
    for (let j = 0; j < contenders.length; j++) {
      const k = contenders[(i + j) % contenders.length];
      const start = performance.now();
      await k.session.run(input);
      k.times.push(performance.now() - start);
    }
    if (c.ceilingRounds) caseCeiling.push(sampleCeiling(CEILING_SAMPLE_MS));
  }
  for (const k of contenders) k.session.close();

  const ortStats = summarize(contenders[0].times);
  const entry = { name: c.name, kind: c.kind, description: c.description, flops: c.flops, paths: {} };
  // The median of the case's own ceiling samples: the state its rounds ran in.
  if (caseCeiling.length) entry.ceiling_in_rounds_gflops = quantile(caseCeiling, 0.5);
  for (const k of contenders) {
    const stats = summarize(k.times);
    const gflops = c.flops ? c.flops / (stats.median_ms * 1e6) : null;
    const record = {
      engine: k.engine.name,
      file: path.relative(REPO, k.file),
      ...stats,
      ratio_to_ort: k.path === 'onnx' ? 1 : stats.median_ms / ortStats.median_ms,
      gflops,
      ceiling_fraction: gflops === null ? null : gflops / (ceiling.gflops * threads),
      ...(entry.ceiling_in_rounds_gflops && gflops !== null
        ? { ceiling_fraction_in_rounds: gflops / (entry.ceiling_in_rounds_gflops * threads) }
        : {}),
      max_abs_error: k.check.maxAbsError,
      error_bound: k.check.bound,
    };
    if (!args['no-cold'] && (!quick || c === cases[0])) {
      const r = cold(k.path === 'onnx' ? 'ort' : 'trident', k.file, c.files.input);
      record.first_output_ms = r.first_output_ms;
      record.peak_wasm_memory_bytes = r.wasm_memory_bytes;
    }
    entry.paths[k.path] = record;
  }
  results.push(entry);
  log(`${c.name}: ${Object.entries(entry.paths).map(([p, r]) => `${p} ${r.median_ms.toFixed(2)} ms`).join(', ')}`);
}

const stateBetween = sampleState(stateProbe);

const scalingThreads = threads > 1 ? threads : 2;
const scalingMinMs = quick ? 0 : 8000;
// Cases timed on threads: the machine probe brackets them.
const scaled = cases.some((c) => c.scaling);
const probe = quick ? { reps: 2, ms: 50 } : { reps: 7, ms: 200 };
if (scaled) log('measuring what the machine gives 2 threads ...');
const machineBefore = scaled ? await measureMachineScaling(probe) : null;
log(`timing ${scalingThreads} threads against 1 ...`);
const threadScaling = await measureThreadScaling(trident, cases, {
  threads: scalingThreads,
  runs,
  minMs: scalingMinMs,
  warmup,
  warmupMs,
  readInput,
  log,
});

const machineAfter = scaled ? await measureMachineScaling(probe) : null;
const stateAfter = sampleState(stateProbe);

log('measuring the cost of one run ...');
const runOverhead = await measureRunOverhead(trident, quick ? { runs: 200, warmup: 50 } : { runs: 5000, warmup: 500 });

const llmDecode = await measureLlmDecode(trident, { tokens: quick ? 8 : 64, rounds: quick ? 1 : 5, threadCounts: [1, scalingThreads], log });

const report = {
  date: new Date().toISOString(),
  machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.arch()}` },
  settings: { quick, runs, warmup, threads, interleaved: true, case_min_ms: caseMinMs, scaling_min_ms: scalingMinMs, ceiling_sample_ms: CEILING_SAMPLE_MS },
  engines: { trident: { build: trident.build, version: trident.version }, ort: { build: ort.build, version: ort.version } },
  ceiling,
  sizes: buildSizes(ort.ortWasmPath),
  run_overhead: runOverhead,
  llm_decode: llmDecode,
  models: results,
  thread_scaling: threadScaling,
  machine_scaling: scaled ? { before: machineBefore, after: machineAfter } : null,
  state_probe: { ...stateProbe, before: stateBefore, between: stateBetween, after: stateAfter },
};
report.targets = evaluateTargets(report);

if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
else printReport(report);
