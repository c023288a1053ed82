// load(url, { cache: true }) in Chromium: the first load downloads and keeps
// the file in the Cache API, the next reads it from there (the server sees
// one request), progress covers the kept bytes too, and `cache` lists,
// measures and drops what is kept.
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { repoPath } from '../helpers/paths.js';
import { serveStatic, type StaticServer } from '../helpers/static-server.js';

const MODEL = 'mlp_tiny.pte';
const ready = (existsSync(CHROMIUM) && existsSync(repoPath('build', 'models', MODEL))) || process.env['CI'] === 'true';
if (!ready) console.warn(`[skipped] model cache in Chromium: needs ${CHROMIUM} and build/models`);

interface Outcome {
  firstFormat: string;
  secondFormat: string;
  firstProgress: [number, number | undefined];
  secondProgress: [number, number | undefined];
  hasAfterLoad: boolean;
  keys: string[];
  size: number;
  deleted: boolean;
  hasAfterDelete: boolean;
  sizeAfterClear: number;
  uncachedLoadKept: boolean;
}

describe.runIf(ready)('the model cache in Chromium', () => {
  let context: BrowserContext;
  let server: StaticServer;
  const requests: string[] = [];

  beforeAll(async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'trident-cache-page-'));
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>cache</title>');
    symlinkSync(repoPath('dist'), path.join(root, 'dist'));
    server = await serveStatic(root, repoPath('build', 'models'), { requests });
    context = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
  });

  it('downloads once, then reads the kept copy; has, keys, size, delete and clear manage it', async () => {
    const page = await context.newPage();
    await page.goto(server.url);
    const outcome = await page.evaluate(async (model: string): Promise<Outcome> => {
      // Through Function: Vitest would rewrite an import() written here.
      const api = await (new Function("return import('/dist/js/index.js')")() as Promise<typeof import('../../dist/js/index.js')>);
      const url = `/__models/${model}`;
      await api.cache.clear();
      const progress = (into: [number, number | undefined]) => (loaded: number, total: number | undefined) => {
        into[0] = loaded;
        into[1] = total;
      };
      const firstProgress: [number, number | undefined] = [0, undefined];
      const first = await api.load(url, { cache: true, onProgress: progress(firstProgress) });
      const secondProgress: [number, number | undefined] = [0, undefined];
      const second = await api.load(url, { cache: true, onProgress: progress(secondProgress) });
      const outcome = {
        firstFormat: first.format,
        secondFormat: second.format,
        firstProgress,
        secondProgress,
        hasAfterLoad: await api.cache.has(url),
        keys: await api.cache.keys(),
        size: await api.cache.size(),
        deleted: await api.cache.delete(url),
        hasAfterDelete: await api.cache.has(url),
        sizeAfterClear: 0,
        uncachedLoadKept: false,
      };
      await api.load(url);
      outcome.uncachedLoadKept = await api.cache.has(url);
      await api.load(url, { cache: true });
      await api.cache.clear();
      outcome.sizeAfterClear = await api.cache.size();
      return outcome;
    }, MODEL);
    await page.close();

    const bytes = (await import('node:fs')).statSync(repoPath('build', 'models', MODEL)).size;
    expect(outcome.firstFormat).toBe('pte');
    expect(outcome.secondFormat).toBe('pte');
    expect(outcome.firstProgress).toEqual([bytes, bytes]);
    expect(outcome.secondProgress).toEqual([bytes, bytes]);
    expect(outcome.hasAfterLoad).toBe(true);
    expect(outcome.keys).toEqual([`${server.url}__models/${MODEL}`]);
    expect(outcome.size).toBe(bytes);
    expect(outcome.deleted).toBe(true);
    expect(outcome.hasAfterDelete).toBe(false);
    expect(outcome.uncachedLoadKept).toBe(false);
    expect(outcome.sizeAfterClear).toBe(0);
    // Two cached loads and one plain one fetched the file twice; the third
    // load with the cache (after the delete) fetched it again: three in all.
    expect(requests.filter((p) => p === `/__models/${MODEL}`)).toHaveLength(3);
  });
});
