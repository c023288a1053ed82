// Driving the viewer (demo/) in headless Chromium: its server, opening
// files and samples, screenshots of each step, and a requestAnimationFrame
// probe that records how long the page went without a frame.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT, repoPath } from './paths.js';

export const SAMPLES_DIR = repoPath('build', 'samples');
export const ARTIFACTS = repoPath('build', 'test-artifacts', 'viewer');

export interface SampleEntry {
  id: string;
  name: string;
  file: string;
  format: string;
  method: string;
  input: { kind: string; shape?: number[] };
  nodes?: number;
  expectPrinted?: string;
}

export interface SamplesManifest {
  samples: SampleEntry[];
  digits: { accuracy: number; testImages: Record<string, number[]> };
}

export function readSamples(): SamplesManifest | null {
  const index = path.join(SAMPLES_DIR, 'index.json');
  return existsSync(index) ? (JSON.parse(readFileSync(index, 'utf8')) as SamplesManifest) : null;
}

/** Builds the viewer if build/demo is missing (npm test builds it before Vitest). */
export function ensureViewerBuilt(): void {
  if (existsSync(repoPath('build', 'demo', 'index.html'))) return;
  const built = spawnSync('bash', ['scripts/build.sh', 'demo'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('bash scripts/build.sh demo failed');
}

/** `node demo/serve.mjs` (npm start's server) on a free port; resolves to its base URL. */
export function startViewer(): Promise<{ server: ChildProcess; base: string }> {
  const server = spawn(process.execPath, [repoPath('demo', 'serve.mjs')], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /http:\/\/localhost:(\d+)\//.exec(out)?.[1];
      if (port) resolve({ server, base: `http://127.0.0.1:${port}/` });
    });
    server.on('exit', (code) => reject(new Error(`demo/serve.mjs exited with ${code} before listening: ${out}`)));
  });
}

let shots = 0;

/** A screenshot of the page, numbered in the order taken: build/test-artifacts/viewer/NN-name.png. */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${String(++shots).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Waits for the model to open (or fails with the page's error text). */
export async function waitForModel(page: Page): Promise<void> {
  await page.waitForSelector('body[data-state=open], body[data-state=error]', { timeout: 120_000 });
  if ((await page.getAttribute('body', 'data-state')) === 'error') {
    throw new Error(`the viewer shows an error: ${await page.innerText('#error')}`);
  }
}

/** Waits until the graph's last part is laid out and drawn. */
export async function waitForGraph(page: Page): Promise<void> {
  await page.waitForSelector('#graph[data-layout-ms]', { state: 'attached', timeout: 300_000 });
}

export async function openSample(page: Page, id: string): Promise<void> {
  await page.selectOption('#sample-select', id);
  await waitForModel(page);
  await waitForGraph(page);
}

export async function openFile(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  await page.setInputFiles('#file-input', file);
  await waitForModel(page);
  await waitForGraph(page);
}

export async function showTab(page: Page, tab: 'overview' | 'weights' | 'run' | 'profile'): Promise<void> {
  await page.click(`[role=tab][data-tab=${tab}]`);
}

/** Runs the method shown in the Run tab; resolves when its outputs (or error) are shown. */
export async function runShown(page: Page): Promise<void> {
  await showTab(page, 'run');
  await page.click('#tab-run .run-button');
  await page.waitForSelector('#tab-run[data-state=done], #tab-run[data-state=error]', { timeout: 120_000 });
  if ((await page.getAttribute('#tab-run', 'data-state')) === 'error') {
    throw new Error(`the run failed: ${await page.innerText('#tab-run .run-error')}`);
  }
}

/** Starts recording the gaps between animation frames. */
export async function startFrameProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { frameGaps: number[]; frameProbe: boolean };
    w.frameGaps = [];
    w.frameProbe = true;
    let last = performance.now();
    const tick = (t: number) => {
      w.frameGaps.push(t - last);
      last = t;
      if (w.frameProbe) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Stops the probe; the longest gap between two frames, in ms, and the frame count. */
export async function stopFrameProbe(page: Page): Promise<{ maxGapMs: number; frames: number }> {
  return page.evaluate(() => {
    const w = window as unknown as { frameGaps: number[]; frameProbe: boolean };
    w.frameProbe = false;
    return { maxGapMs: Math.max(0, ...w.frameGaps), frames: w.frameGaps.length };
  });
}
