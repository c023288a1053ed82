// The benchmark's verdicts on made-up numbers: the quick bench (npm test)
// runs no target model, so this is where a verdict is seen to go both ways.
// Today: the XNNPACK delegate against the portable path, a speed check that
// npm test cannot make on a shared 2-core machine (tests/models only logs
// it).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { printReport } from '../../bench/lib/report.mjs';
import { TARGETS, evaluateTargets } from '../../bench/lib/targets.mjs';

interface Paths {
  [path: string]: number;
}

/** A report as bench.mjs writes it, with `paths` giving each path's median (ms). */
function report(models: Record<string, Paths>): Record<string, any> {
  const stats = (median: number, ort: number) => ({
    engine: 'trident',
    runs: 15,
    median_ms: median,
    q1_ms: median * 0.98,
    q3_ms: median * 1.02,
    ratio_to_ort: median / ort,
    gflops: null,
    ceiling_fraction: null,
  });
  const r: Record<string, any> = {
    date: '2026-11-27T00:00:00.000Z',
    machine: { cpu: 'test', cores: 2, node: 'v20', platform: 'linux x64' },
    settings: { quick: false, runs: 15, warmup: 3, threads: 1, case_min_ms: 4000 },
    engines: { trident: { build: 'simd', version: '0' }, ort: { build: 'wasm', version: '1.30.0' } },
    ceiling: { gflops: 40, kernel: 'chains' },
    sizes: { trident: { bytes: 2e6, gzip_bytes: 6e5 }, trident_threads: null, ort: { bytes: 14e6, gzip_bytes: 3.7e6 } },
    run_overhead: { model: 'add_vec4.pte', median_us: 7, q1_us: 6, q3_us: 9, runs: 5000 },
    models: Object.entries(models).map(([name, paths]) => ({
      name,
      kind: 'model',
      flops: null,
      paths: Object.fromEntries(Object.entries(paths).map(([p, ms]) => [p, stats(ms, paths['onnx']!)])),
    })),
    thread_scaling: [],
  };
  r['targets'] = evaluateTargets(r);
  return r;
}

describe('bench targets: XNNPACK delegate not slower than portable', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('names mobilenet_v2 with 2% for noise', () => {
    expect(TARGETS.xnnpackModels).toEqual(['mobilenet_v2']);
    expect(TARGETS.xnnpackOverPortable).toBe(1.02);
  });

  it('is met when the delegate is faster, or slower by less than the noise allowance', () => {
    for (const delegated of [20, 25.4]) {
      const t = report({ mobilenet_v2: { onnx: 35, pte: 25, pte_xnnpack: delegated, pt2: 26 } })['targets'].xnnpack;
      expect(t.results).toEqual([{ model: 'mobilenet_v2', portable_ms: 25, xnnpack_ms: delegated, ratio: delegated / 25, met: true }]);
      expect(t.met).toBe(true);
      expect(t.missing).toBeUndefined();
    }
  });

  it('is not met when the delegate is slower by more than 2%', () => {
    const t = report({ mobilenet_v2: { onnx: 35, pte: 25, pte_xnnpack: 25.6 } })['targets'].xnnpack;
    expect(t.results[0]).toMatchObject({ model: 'mobilenet_v2', met: false });
    expect(t.results[0].ratio).toBeCloseTo(1.024, 10);
    expect(t.met).toBe(false);
  });

  it('judges only the models it names, and is not met when they did not run', () => {
    // A faster delegate elsewhere says nothing about mobilenet_v2.
    const other = report({ resnet18: { onnx: 100, pte: 90, pte_xnnpack: 80 } })['targets'].xnnpack;
    expect(other).toMatchObject({ results: [], met: false, missing: ['mobilenet_v2'] });
    // Neither does mobilenet_v2 without its XNNPACK path (--only, a missing file).
    const alone = report({ mobilenet_v2: { onnx: 35, pte: 25 } })['targets'].xnnpack;
    expect(alone).toMatchObject({ results: [], met: false, missing: ['mobilenet_v2'] });
  });

  it('prints the verdict with both medians among the targets', () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((text: string) => void lines.push(text));
    printReport(report({ mobilenet_v2: { onnx: 35, pte: 25, pte_xnnpack: 21.5 } }));
    printReport(report({ mobilenet_v2: { onnx: 35, pte: 25, pte_xnnpack: 26 } }));
    printReport(report({ resnet18: { onnx: 100, pte: 90, pte_xnnpack: 80 } }));
    const verdicts = lines.map((text) => text.split('\n').find((l) => l.startsWith('- XNNPACK delegate')));
    expect(verdicts).toEqual([
      '- XNNPACK delegate not slower than portable (.pte XNNPACK / .pte portable median ≤ 1.02): met (mobilenet_v2 21.5 / 25.0 ms = 0.86)',
      '- XNNPACK delegate not slower than portable (.pte XNNPACK / .pte portable median ≤ 1.02): NOT met (mobilenet_v2 26.0 / 25.0 ms = 1.04)',
      '- XNNPACK delegate not slower than portable (.pte XNNPACK / .pte portable median ≤ 1.02): NOT met (mobilenet_v2 not in this run)',
    ]);
  });

  it('leaves reports saved before this target printable', () => {
    const old = report({ mobilenet_v2: { onnx: 35, pte: 25, pte_xnnpack: 21.5 } });
    delete old['targets'].xnnpack;
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((text: string) => void lines.push(text));
    printReport(old);
    expect(lines.join('\n')).toContain('- 2 threads ≥ 1.6× 1 thread');
    expect(lines.join('\n')).not.toContain('XNNPACK delegate not slower');
  });
});
