// Worker mode in Chromium: the page's main thread keeps drawing frames
// (requestAnimationFrame keeps firing) while a large model runs in the
// worker, where the same runs on the page's thread hold every frame back.
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { repoPath } from '../helpers/paths.js';
import { serveStatic, type StaticServer } from '../helpers/static-server.js';

// One 1024³ matrix product: about 60 ms a run on one thread.
const MODEL = 'sgemm_1024';
const RUNS = 8;
const ready = (existsSync(CHROMIUM) && existsSync(repoPath('build', 'models', `${MODEL}.pte`))) || process.env['CI'] === 'true';
if (!ready) console.warn(`[skipped] worker mode in Chromium: needs ${CHROMIUM} and build/models`);

interface Frames {
  /** Frames drawn while the runs went on. */
  frames: number;
  /** The longest time between two frames, in ms. */
  longestGap: number;
  elapsed: number;
  worker: boolean;
  outputSize: number;
}

describe.runIf(ready)('worker mode in Chromium', () => {
  let context: BrowserContext;
  let server: StaticServer;
  let isolated: StaticServer;

  beforeAll(async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'trident-worker-page-'));
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>worker mode</title>');
    symlinkSync(repoPath('dist'), path.join(root, 'dist'));
    symlinkSync(repoPath('build', 'fixtures'), path.join(root, 'fixtures'));
    server = await serveStatic(root, repoPath('build', 'models'));
    isolated = await serveStatic(root, repoPath('build', 'models'), { isolated: true });
    context = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    await isolated?.close();
  });

  /** Registers a JS add kernel on the page and runs add.pte in worker mode: its output, or the error. */
  async function addWithJsKernel(url: string): Promise<{ output?: number[]; error?: string; code?: number }> {
    const page = await context.newPage();
    await page.goto(url);
    const result = await page.evaluate(async () => {
      // Through Function: Vitest would rewrite an import() written here.
      const api = await (new Function("return import('/dist/js/index.js')")() as Promise<typeof import('../../dist/js/index.js')>);
      await api.registerKernel(
        'aten::add.out',
        (inputs, outputs) => {
          const [a, b] = inputs as InstanceType<typeof api.Tensor<'float32'>>[];
          const out = outputs[0]!.data as Float32Array;
          for (let i = 0; i < out.length; i++) out[i] = a!.data[i]! + 10 * b!.data[i]! + 1;
        },
        { override: true },
      );
      try {
        const model = await api.load('/fixtures/add.pte', { worker: true });
        const [y] = await model.runTensors([api.Tensor.from('float32', [0, 1, 2, 3], [2, 2]), api.Tensor.from('float32', [1, 2, 3, 4], [2, 2])]);
        model.dispose();
        return { output: Array.from(y!.data as Float32Array) };
      } catch (err) {
        return { error: (err as Error).message, code: (err as { code?: number }).code };
      }
    });
    await page.close();
    return result;
  }

  it('runs JavaScript kernels on the page for a model in the worker, on a cross-origin isolated page', async () => {
    expect(await addWithJsKernel(isolated.url)).toEqual({ output: [11, 22, 33, 44] });
    const refused = await addWithJsKernel(server.url);
    expect(refused.code).toBe(0x10); // NotSupported
    expect(refused.error).toMatch(/runs JavaScript kernels \(aten::add\.out\) on the page's thread, which needs shared memory/);
  });

  async function framesDuringRuns(worker: boolean): Promise<Frames> {
    const page = await context.newPage();
    await page.goto(server.url);
    const result = await page.evaluate(
      async ({ model, runs, worker }): Promise<Frames> => {
        // Through Function: Vitest would rewrite an import() written here.
        const api = await (new Function("return import('/dist/js/index.js')")() as Promise<typeof import('../../dist/js/index.js')>);
        const loaded = await api.load(`/__models/${model}.pte`, { worker, threads: false });
        const x = api.Tensor.zeros('float32', [1024, 1024]);
        await loaded.run([x]);
        let frames = 0;
        let longestGap = 0;
        let last = performance.now();
        let drawing = true;
        const tick = (now: number): void => {
          longestGap = Math.max(longestGap, now - last);
          last = now;
          frames++;
          if (drawing) requestAnimationFrame(tick);
        };
        await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
        frames = 0;
        longestGap = 0;
        last = performance.now();
        requestAnimationFrame(tick);
        const start = performance.now();
        let outputSize = 0;
        for (let i = 0; i < runs; i++) outputSize = ((await loaded.runTensors([x]))[0]!).size;
        const elapsed = performance.now() - start;
        longestGap = Math.max(longestGap, performance.now() - last);
        drawing = false;
        const info = await api.runtimeInfo(loaded);
        loaded.dispose();
        return { frames, longestGap, elapsed, worker: info.worker, outputSize };
      },
      { model: MODEL, runs: RUNS, worker },
    );
    await page.close();
    return result;
  }

  it('keeps the page drawing frames while a large model runs in the worker', async () => {
    const inThread = await framesDuringRuns(false);
    const inWorker = await framesDuringRuns(true);
    const context = JSON.stringify({ inThread, inWorker });
    const line = (f: Frames): string => `${f.frames} frames in ${f.elapsed.toFixed(0)} ms, longest gap ${f.longestGap.toFixed(0)} ms`;
    console.info(`${RUNS} runs of ${MODEL}: on the page's thread ${line(inThread)}; in the worker ${line(inWorker)}`);
    expect(inThread.worker, context).toBe(false);
    expect(inWorker.worker, context).toBe(true);
    expect(inWorker.outputSize, context).toBe(1024 * 1024);
    // On the page's thread the runs block it: frames wait for all of them.
    expect(inThread.longestGap, context).toBeGreaterThan(0.5 * inThread.elapsed);
    // In the worker, frames keep coming: no gap near one run's length, and
    // at least half the frames a 60 Hz display would draw meanwhile.
    expect(inWorker.longestGap, context).toBeLessThan(Math.max(50, inWorker.elapsed / RUNS));
    expect(inWorker.frames, context).toBeGreaterThan((0.5 * inWorker.elapsed) / (1000 / 60));
  });
});
