// `npm run bench -- --quick`: the benchmark's own machinery, end to end, on
// small models (the full benchmark is not part of npm test; see
// docs/performance.md). Checks that every number the report promises is
// there and sane, that each engine's output matched PyTorch's before it was
// timed, and that bad arguments fail with a message.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

const BENCH = path.join(REPO_ROOT, 'bench', 'bench.mjs');
const present = existsSync(path.join(REPO_ROOT, 'build', 'models', 'index.json'));
if (!present && process.env['CI'] === 'true') {
  describe('npm run bench -- --quick', () => {
    it('needs build/models', () => {
      throw new Error("build/models is missing, but CI=true: run 'bash scripts/fixtures.sh'");
    });
  });
}

function bench(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BENCH, ...args], { encoding: 'utf8', cwd: REPO_ROOT, maxBuffer: 16 << 20 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface PathResult {
  engine: string;
  median_ms: number;
  q1_ms: number;
  q3_ms: number;
  runs: number;
  ratio_to_ort: number;
  gflops: number | null;
  ceiling_fraction: number | null;
  ceiling_fraction_in_rounds?: number;
  max_abs_error: number;
  error_bound: number;
  first_output_ms?: number;
  peak_wasm_memory_bytes?: number;
}

(present ? describe : describe.skip)('npm run bench -- --quick', () => {
  it('reports every number for every path, with outputs checked against PyTorch', () => {
    const r = bench('--quick', '--json', '--runs', '2');
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.settings).toMatchObject({ quick: true, runs: 2, threads: 1, interleaved: true, case_min_ms: 0, scaling_min_ms: 0 });
    expect(report.ceiling.gflops).toBeGreaterThan(1);
    expect(report.engines.ort.version).toBe('1.30.0');

    const names = report.models.map((m: { name: string }) => m.name);
    expect(names).toEqual(['transformer_encoder', 'sgemm_256']);
    const [transformer, sgemm] = report.models;
    expect(Object.keys(transformer.paths)).toEqual(['onnx', 'pte', 'pte_xnnpack', 'pt2']);
    expect(Object.keys(sgemm.paths)).toEqual(['onnx', 'pte']);
    expect(sgemm.flops).toBe(2 * 256 ** 3);
    // SGEMM also timed the ceiling kernel in its rounds; only SGEMM did.
    expect(sgemm.ceiling_in_rounds_gflops).toBeGreaterThan(1);
    expect(transformer.ceiling_in_rounds_gflops).toBeUndefined();
    const sgemmPte = sgemm.paths.pte as PathResult;
    expect(sgemmPte.ceiling_fraction_in_rounds).toBeCloseTo(sgemmPte.gflops! / sgemm.ceiling_in_rounds_gflops, 6);

    for (const m of report.models) {
      const ort = m.paths.onnx as PathResult;
      expect(ort.engine).toBe('onnxruntime-web');
      for (const [p, s] of Object.entries(m.paths) as Array<[string, PathResult]>) {
        expect(s.runs).toBe(2);
        expect(s.median_ms).toBeGreaterThan(0);
        expect(s.q1_ms).toBeLessThanOrEqual(s.q3_ms);
        expect(s.ratio_to_ort).toBeCloseTo(s.median_ms / ort.median_ms, 10);
        expect(s.max_abs_error).toBeLessThanOrEqual(s.error_bound);
        expect(s.gflops).toBeCloseTo(m.flops / (s.median_ms * 1e6), 6);
        expect(s.ceiling_fraction).toBeCloseTo(s.gflops! / report.ceiling.gflops, 6);
        if (p !== 'onnx') expect(s.engine).toBe('trident');
      }
    }
    // Cold numbers (a fresh process per engine) for the first case.
    for (const s of Object.values(transformer.paths) as PathResult[]) {
      expect(s.first_output_ms).toBeGreaterThan(0);
      expect(s.peak_wasm_memory_bytes).toBeGreaterThanOrEqual(1 << 20);
    }

    expect(report.sizes.trident.gzip_bytes).toBeGreaterThan(0);
    expect(report.sizes.trident.gzip_bytes).toBeLessThan(report.sizes.trident.bytes);
    expect(report.sizes.ort.bytes).toBeGreaterThan(report.sizes.trident.bytes);
    expect(report.run_overhead.model).toBe('add_vec4.pte');
    expect(report.run_overhead.median_us).toBeGreaterThan(0);
    // LLM decoding speed, one thread and two, with portable and with XNNPACK 8da4w linears.
    expect(report.llm_decode.models.map((m: { model: string }) => m.model)).toEqual(['llama_tiny.pte', 'llama_tiny_8da4w.pte']);
    for (const m of report.llm_decode.models) {
      expect(m.results.map((x: { threads: number }) => x.threads)).toEqual([1, 2]);
      for (const x of m.results) {
        expect(x.new_tokens).toBe(8);
        expect(x.decode_tok_per_s).toBeGreaterThan(0);
        expect(x.prefill_ms).toBeGreaterThan(0);
      }
    }

    const t = report.targets;
    expect(t.size.met).toBe(t.size.gzip_bytes <= t.size.limit_gzip_bytes);
    expect(t.run_overhead.met).toBe(report.run_overhead.median_us <= 20);
    // --quick runs no target model: the speed verdicts must not claim success.
    expect(t.speed.results).toEqual([]);
    expect(t.speed.met).toBe(false);
    expect(t.xnnpack).toMatchObject({ limit: 1.02, models: ['mobilenet_v2'], results: [], met: false, missing: ['mobilenet_v2'] });

    // 2 threads against 1 on the threads build, every path of the smoke model.
    const scaling = report.thread_scaling as Array<{
      model: string;
      path: string;
      threads: number;
      runs: number;
      one_thread_ms: number;
      threads_ms: number;
      one_thread_quartiles_ms: [number, number];
      threads_quartiles_ms: [number, number];
      speedup: number;
    }>;
    expect(report.settings.scaling_min_ms).toBe(0);
    expect(report.settings.ceiling_sample_ms).toBe(10);
    expect(scaling.map((s) => `${s.model}/${s.path}`)).toEqual(['transformer_encoder/pte', 'transformer_encoder/pte_xnnpack', 'transformer_encoder/pt2']);
    for (const s of scaling) {
      expect(s.threads).toBe(2);
      expect(s.one_thread_ms).toBeGreaterThan(0);
      expect(s.speedup).toBeCloseTo(s.one_thread_ms / s.threads_ms, 10);
      expect(s.runs).toBe(report.settings.runs);
      for (const [median, [q1, q3]] of [
        [s.one_thread_ms, s.one_thread_quartiles_ms],
        [s.threads_ms, s.threads_quartiles_ms],
      ] as const) {
        expect(q1).toBeLessThanOrEqual(median);
        expect(q3).toBeGreaterThanOrEqual(median);
      }
    }
    // What the machine gave 2 workers against 1, before and after that table.
    for (const when of ['before', 'after']) {
      for (const kernel of ['alu', 'memory', 'tile']) {
        const m = report.machine_scaling[when][kernel];
        expect(m.one).toBeGreaterThan(0);
        expect(m.two).toBeGreaterThan(0);
        expect(m.scaling).toBeGreaterThan(0);
      }
    }
    // The gemm tile against the chains on this thread, at three moments.
    expect(report.state_probe).toMatchObject({ ms: 40, slices: 2 });
    for (const when of ['before', 'between', 'after']) {
      const p = report.state_probe[when];
      expect(p.chains_gflops).toBeGreaterThan(1);
      expect(p.tile_gflops).toBeGreaterThan(1);
      expect(p.tile_fraction).toBeCloseTo(p.tile_gflops / p.chains_gflops, 10);
    }
    // The smoke model is not one the threads target names: no verdict.
    expect(t.threads).toMatchObject({ measured: false, met: false, results: [] });
  }, 180_000);

  it('prints the table without --json', () => {
    const r = bench('--quick', '--runs', '1', '--no-cold', '--only', 'sgemm_256');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/SIMD128 ceiling: [\d.]+ GFLOP\/s/);
    expect(r.stdout).toMatch(/\| sgemm_256 \| \.pte portable \| 1 \| [\d.]+ \(/);
    expect(r.stdout).toMatch(/SGEMM against the ceiling timed in its own rounds \(one 10 ms sample a round, median\): sgemm_256 [\d.]+ GFLOP\/s, \.pte portable \d+%/);
    expect(r.stdout).toMatch(/One run of add_vec4\.pte from JS: median [\d.]+ µs/);
    expect(r.stdout).toMatch(/This thread's state \(a 2 x 16 gemm tile over L1 data against the mul\+add chains, 40 ms a reading\): \d+% before the tables, \d+% between them, \d+% after\./);
    expect(r.stdout).toContain('- XNNPACK delegate not slower than portable (.pte XNNPACK / .pte portable median ≤ 1.02): NOT met (mobilenet_v2 not in this run)');
  }, 120_000);

  it('prints the threads table with what the machine gave 2 workers', () => {
    const r = bench('--quick', '--runs', '1', '--no-cold', '--only', 'transformer_encoder');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\| transformer_encoder \| \.pt2 \| 1 \| [\d.]+ \([\d.]+–[\d.]+\) \| 2 \| [\d.]+ \([\d.]+–[\d.]+\) \| ×[\d.]+ \|/);
    expect(r.stdout).toMatch(/The machine on 2 workers against 1, before \/ after this table: mul\+add chains ×[\d.]+ \/ ×[\d.]+; a 2 x 8 MB stream ×[\d.]+ \/ ×[\d.]+ \(one worker \d+ \/ \d+ GB\/s\); the gemm tile ×[\d.]+ \/ ×[\d.]+/);
  }, 120_000);

  it('refuses unknown cases and bad counts by name', () => {
    const unknown = bench('--quick', '--only', 'no_such_model');
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toContain('--only: unknown case no_such_model');
    const zero = bench('--runs', '0');
    expect(zero.status).not.toBe(0);
    expect(zero.stderr).toContain('--runs must be a positive integer, got 0');
    const flag = bench('--no-such-flag');
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain("bench: Unknown option '--no-such-flag'");
    expect(flag.stderr).toContain('usage: npm run bench');
  });

  it('prints its usage for --help', () => {
    const r = bench('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('usage: npm run bench [-- --json] [--quick]');
  });
});
