#!/usr/bin/env node
// The browser bench: mobilenet_v2 (portable .pte) in headless Chromium on a
// cross-origin isolated page, on 1 and 2 threads, run on the page's main
// thread and in worker mode. A page's main thread may not block
// (Atomics.wait throws there), so it spins while the pool works; in a
// worker it can wait, and threads pay off. All four paths are timed
// together, round by round (a noisy neighbour slows them alike), after
// checking the output against PyTorch's.
//
// The single-threaded build on the main thread is timed beside them (what a
// page without COOP/COEP gets).
//
// usage: node bench/browser.mjs [--runs N] [--model NAME] [--json FILE] [--quick]
// Target (issue 31): in worker mode, 2 threads at least 1.5x faster than 1.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { summarize } from './lib/stats.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const quick = args.includes('--quick');
const runs = Number(option('--runs', quick ? '3' : '21'));
const model = option('--model', 'mobilenet_v2');
const jsonOut = option('--json', undefined);
export const SPEEDUP_TARGET = 1.5;

const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };

/** dist/ and build/models/ over HTTP, cross-origin isolated. */
function serve() {
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
    if (pathname === '/') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/html' }).end('<!doctype html><title>Trident browser bench</title>');
      return;
    }
    const file = path.join(ROOT, pathname.startsWith('/models/') ? path.join('build', pathname) : pathname);
    if (!file.startsWith(ROOT)) return void res.writeHead(403, headers).end();
    try {
      const body = readFileSync(file);
      res.writeHead(200, { ...headers, 'Content-Type': MIME[path.extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404, headers).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Runs in the page: times every path round by round; returns each path's run times. */
async function timeInPage({ model, runs, minMs }) {
  const api = await import('/dist/js/index.js');
  const meta = await (await fetch(`/models/${model}.json`)).json();
  const npy = async (name) => {
    const buffer = await (await fetch(`/models/${name}`)).arrayBuffer();
    const headerLength = new DataView(buffer).getUint16(8, true);
    return new Float32Array(buffer.slice(10 + headerLength));
  };
  const input = new api.Tensor('float32', await npy(meta.input), meta.inputs[0].shape);
  const expected = await npy(meta.expected);
  const paths = [];
  for (const worker of [false, true]) {
    const loaded = await api.load(`/models/${meta.pte}`, { threads: true, worker });
    for (const threads of [1, 2]) paths.push({ worker, threads, build: 'threads', model: loaded, times: [] });
  }
  // The single-threaded build, which a page gets without COOP/COEP: what
  // the threads build's 2 threads must beat for threads to be worth it.
  paths.push({ worker: false, threads: 1, build: 'single', model: await api.load(`/models/${meta.pte}`, { threads: false }), times: [] });
  const run = async (p) => {
    p.model.numThreads = p.threads;
    const start = performance.now();
    const [y] = await p.model.runTensors([input]);
    p.times.push(performance.now() - start);
    return y;
  };
  // Each path's output against PyTorch's, then a warm-up round.
  const errors = [];
  for (const p of paths) {
    const y = await run(p);
    let worst = 0;
    let scale = 0;
    for (let i = 0; i < expected.length; i++) {
      worst = Math.max(worst, Math.abs(y.data[i] - expected[i]));
      scale = Math.max(scale, Math.abs(expected[i]));
    }
    errors.push(worst / scale);
    p.times.length = 0;
  }
  const info = await api.runtimeInfo(paths[0].model);
  const started = performance.now();
  for (let round = 0; round < runs || performance.now() - started < minMs; round++) {
    // Rotate the order each round, so no path always follows the same one.
    for (let k = 0; k < paths.length; k++) await run(paths[(round + k) % paths.length]);
  }
  for (const p of paths) p.model.dispose();
  return { paths: paths.map(({ worker, threads, build, times }) => ({ worker, threads, build, times })), errors, pool: info.numThreads, tolerance: meta.tolerance };
}

const server = await serve();
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'],
});
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  const version = browser.version();
  const result = await page.evaluate(timeInPage, { model, runs, minMs: quick ? 0 : 8000 });
  const rows = result.paths.map((p) => ({ where: p.worker ? 'worker' : 'main thread', threads: p.threads, build: p.build, ...summarize(p.times) }));
  const row = (where, threads, build = 'threads') => rows.find((r) => r.where === where && r.threads === threads && r.build === build);
  const speedup = (where) => row(where, 1).median_ms / row(where, 2).median_ms;
  const report = {
    model,
    chromium: version,
    pool: result.pool,
    date: new Date().toISOString(),
    max_error_rel_to_max_ref: Math.max(...result.errors),
    rows,
    speedup_main_thread: speedup('main thread'),
    speedup_worker: speedup('worker'),
    speedup_worker_vs_single_build: row('main thread', 1, 'single').median_ms / row('worker', 2).median_ms,
    target: { speedup_worker_at_least: SPEEDUP_TARGET },
  };
  report.met = report.speedup_worker >= SPEEDUP_TARGET;
  console.log(`${model} in Chromium ${version}, cross-origin isolated, pool of ${report.pool}; medians of ${rows[0].runs} runs (max error ${report.max_error_rel_to_max_ref.toExponential(2)} of the largest reference value)`);
  console.log('| where (threads build) | 1 thread | 2 threads | 2 vs 1 |');
  console.log('|---|---|---|---|');
  for (const where of ['main thread', 'worker']) {
    const [one, two] = [row(where, 1), row(where, 2)];
    console.log(`| ${where} | ${one.median_ms.toFixed(1)} ms | ${two.median_ms.toFixed(1)} ms | x${(one.median_ms / two.median_ms).toFixed(2)} |`);
  }
  const single = row('main thread', 1, 'single');
  console.log(`single-threaded build on the main thread: ${single.median_ms.toFixed(1)} ms; worker mode on 2 threads is x${report.speedup_worker_vs_single_build.toFixed(2)} faster`);
  console.log(`target: worker mode on 2 threads at least x${SPEEDUP_TARGET} faster than on 1: ${report.met ? 'met' : 'NOT met'}`);
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(report, null, 2));
  if (report.max_error_rel_to_max_ref > (result.tolerance?.max_abs_error_rel_to_max_ref ?? 1e-4)) {
    console.error('an output does not match PyTorch');
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  server.close();
}
