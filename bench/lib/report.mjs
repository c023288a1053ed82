// The human-readable form of a bench report (the --json form has the same
// numbers). docs/performance.md pastes this table.

const PATH_LABEL = { onnx: 'ORT (.onnx)', pte: '.pte portable', pte_xnnpack: '.pte XNNPACK', pt2: '.pt2' };

const ms = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const mb = (b) => (b / 2 ** 20).toFixed(1);
const pct = (f) => `${(f * 100).toFixed(0)}%`;
const mark = (met) => (met ? 'met' : 'NOT met');

export function printReport(r) {
  const out = [];
  out.push(`Trident ${r.engines.trident.version} (${r.engines.trident.build}) vs onnxruntime-web ${r.engines.ort.version} (${r.engines.ort.build})`);
  out.push(
    `${r.date.slice(0, 10)}, ${r.machine.cpu}, ${r.machine.cores} cores, Node ${r.machine.node}; ${r.settings.threads} thread(s), ` +
      `median of ${r.settings.case_min_ms ? `at least ${r.settings.runs} interleaved runs and ${r.settings.case_min_ms / 1000} s a case` : `${r.settings.runs} interleaved runs`} after ${r.settings.warmup} warm-up${r.settings.quick ? ' (--quick)' : ''}`,
  );
  out.push(`SIMD128 ceiling: ${r.ceiling.gflops.toFixed(1)} GFLOP/s per core (${r.ceiling.kernel})`);
  out.push('');
  out.push('| model | path | runs | median ms (q1–q3) | ours / ORT | GFLOP/s | of ceiling | bytes → first output ms | peak wasm MB |');
  out.push('|---|---|---|---|---|---|---|---|---|');
  for (const m of r.models) {
    for (const [p, s] of Object.entries(m.paths)) {
      out.push(
        `| ${m.name} | ${PATH_LABEL[p] ?? p} | ${s.runs ?? '—'} | ${ms(s.median_ms)} (${ms(s.q1_ms)}–${ms(s.q3_ms)}) | ` +
          `${p === 'onnx' ? '—' : s.ratio_to_ort.toFixed(2)} | ${s.gflops === null ? '—' : s.gflops.toFixed(1)} | ` +
          `${s.ceiling_fraction === null ? '—' : pct(s.ceiling_fraction)} | ` +
          `${s.first_output_ms === undefined ? '—' : ms(s.first_output_ms)} | ` +
          `${s.peak_wasm_memory_bytes === undefined ? '—' : mb(s.peak_wasm_memory_bytes)} |`,
      );
    }
  }
  const own = r.models.filter((m) => m.ceiling_in_rounds_gflops !== undefined);
  if (own.length) {
    out.push('');
    out.push(
      // Reports saved before ceiling_sample_ms was recorded lack it.
      `SGEMM against the ceiling timed in its own rounds (one ${r.settings.ceiling_sample_ms ? `${r.settings.ceiling_sample_ms} ms ` : ''}sample a round, median): ` +
        own
          .map((m) => {
            const fractions = Object.entries(m.paths)
              .filter(([p]) => p !== 'onnx')
              .map(([p, s]) => `${PATH_LABEL[p] ?? p} ${pct(s.ceiling_fraction_in_rounds)}`);
            return `${m.name} ${m.ceiling_in_rounds_gflops.toFixed(1)} GFLOP/s, ${fractions.join(', ')}`;
          })
          .join('; '),
    );
  }
  const st = r.state_probe;
  if (st) {
    out.push('');
    out.push(
      `This thread's state (a 2 x 16 gemm tile over L1 data against the mul+add chains, ${st.ms} ms a reading): ` +
        `${pct(st.before.tile_fraction)} before the tables, ${pct(st.between.tile_fraction)} between them, ${pct(st.after.tile_fraction)} after. ` +
        'Near 100% on a quiet core; 75% or less in this VM\'s slow state (docs/performance.md), where our gemm kernels lose about a third.',
    );
  }
  if (r.thread_scaling?.length) {
    out.push('');
    out.push('| model | path | runs | 1 thread ms (q1–q3) | threads | ms (q1–q3) | speedup |');
    out.push('|---|---|---|---|---|---|---|');
    const spread = (median, q) => (q ? `${ms(median)} (${ms(q[0])}–${ms(q[1])})` : ms(median));
    for (const s of r.thread_scaling) {
      out.push(
        `| ${s.model} | ${PATH_LABEL[s.path] ?? s.path} | ${s.runs ?? '—'} | ${spread(s.one_thread_ms, s.one_thread_quartiles_ms)} | ` +
          `${s.threads} | ${spread(s.threads_ms, s.threads_quartiles_ms)} | ×${s.speedup.toFixed(2)} |`,
      );
    }
    const m = r.machine_scaling;
    if (m) {
      const x = (k) => `×${m.before[k].scaling.toFixed(2)} / ×${m.after[k].scaling.toFixed(2)}`;
      out.push('');
      out.push(
        `The machine on 2 workers against 1, before / after this table: mul+add chains ${x('alu')}; ` +
          `a 2 x 8 MB stream ${x('memory')} (one worker ${m.before.memory.one.toFixed(0)} / ${m.after.memory.one.toFixed(0)} GB/s)` +
          // Reports saved before the tile joined the probe lack it.
          (m.before.tile ? `; the gemm tile ${x('tile')}` : ''),
      );
    }
  }
  out.push('');
  const size = (s) => (s ? `${(s.bytes / 1e6).toFixed(2)} MB, ${(s.gzip_bytes / 1e6).toFixed(2)} MB gzipped` : 'not built');
  out.push(`Sizes: trident.wasm ${size(r.sizes.trident)}; trident-threads.wasm ${size(r.sizes.trident_threads)}; ORT ${size(r.sizes.ort)}`);
  const o = r.run_overhead;
  out.push(`One run of ${o.model} from JS: median ${o.median_us.toFixed(1)} µs (q1 ${o.q1_us.toFixed(1)}, q3 ${o.q3_us.toFixed(1)}) over ${o.runs} runs`);
  for (const l of r.llm_decode?.models ?? []) {
    out.push(`LLM decode, ${l.model} (generate(), greedy): ` + l.results.map((x) =>
      `${x.threads} thread${x.threads > 1 ? 's' : ''} ${x.decode_tok_per_s.toFixed(1)} tokens/s (q1 ${x.decode_tok_per_s_q1.toFixed(1)}, q3 ${x.decode_tok_per_s_q3.toFixed(1)}; ` +
      `prefill of ${x.prompt_tokens} tokens ${x.prefill_ms.toFixed(1)} ms)`).join('; '));
  }
  out.push('');
  const t = r.targets;
  out.push(`Targets:`);
  out.push(`- ours / ORT ≤ ${t.speed.limit} on every model and path: ${mark(t.speed.met)}` +
    (t.speed.results.length ? ` (worst ${Math.max(...t.speed.results.map((s) => s.ratio)).toFixed(2)})` : ' (no model in this run)'));
  out.push(`- SGEMM 512/1024 ≥ ${pct(t.sgemm.limit)} of the ceiling timed in its rounds: ${mark(t.sgemm.met)}` +
    (t.sgemm.results.length ? ` (${t.sgemm.results.map((s) => `${s.model} ${s.path} ${pct(s.ceiling_fraction)}`).join(', ')})` : ' (not in this run)'));
  out.push(`- trident.wasm ≤ ${(t.size.limit_gzip_bytes / 1e6).toFixed(1)} MB gzipped: ${mark(t.size.met)}`);
  out.push(`- one run ≤ ${t.run_overhead.limit_us} µs: ${mark(t.run_overhead.met)}`);
  out.push(`- 2 threads ≥ ${t.threads.limit}× 1 thread: ${t.threads.measured ? mark(t.threads.met) : `not measured: ${t.threads.reason}`}` +
    (t.threads.results.length ? ` (${t.threads.results.map((s) => `${s.model} ${PATH_LABEL[s.path] ?? s.path} ×${s.speedup.toFixed(2)}`).join(', ')})` : ''));
  // Reports saved before this target existed lack it.
  if (t.xnnpack) {
    const x = t.xnnpack;
    const measured = x.results.map((s) => `${s.model} ${ms(s.xnnpack_ms)} / ${ms(s.portable_ms)} ms = ${s.ratio.toFixed(2)}`);
    const notRun = x.missing?.length ? [`${x.missing.join(', ')} not in this run`] : [];
    out.push(`- XNNPACK delegate not slower than portable (.pte XNNPACK / .pte portable median ≤ ${x.limit}): ${mark(x.met)} (${[...measured, ...notRun].join('; ')})`);
  }
  console.log(out.join('\n'));
}
