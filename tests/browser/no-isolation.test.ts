// A page without cross-origin isolation (no COOP/COEP headers) has no
// SharedArrayBuffer: the loader falls back to the single-threaded build and
// says why, once.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { repoPath } from '../helpers/paths.js';

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env['CI'] !== 'true') {
  console.warn(`[skipped] no-isolation page in Chromium: ${CHROMIUM} is not installed`);
}
const describeBrowser = haveChromium || process.env['CI'] === 'true' ? describe : describe.skip;

describeBrowser('a page that is not cross-origin isolated', () => {
  let context: BrowserContext;

  beforeAll(async () => {
    context = await launchChromium();
  });

  afterAll(async () => {
    await context?.close();
  });

  it('falls back to the single-threaded build, saying why once', async () => {
    // A page at another origin, served without COOP/COEP (Playwright answers
    // its requests from dist/): no SharedArrayBuffer there.
    const plain = await context.newPage();
    const messages: string[] = [];
    plain.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`));
    const types: Record<string, string> = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
    await plain.route('http://plain.test/**', async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/') {
        await route.fulfill({
          contentType: 'text/html',
          body: `<script type="module">
            import { runtimeInfo, load } from '/dist/js/index.js';
            const info = await runtimeInfo();
            const again = await runtimeInfo();
            window.result = { isolated: globalThis.crossOriginIsolated, info, again };
          </script>`,
        });
        return;
      }
      const file = repoPath(...url.pathname.slice(1).split('/'));
      if (!url.pathname.startsWith('/dist/') || !existsSync(file)) {
        await route.fulfill({ status: 404, body: 'not found' });
        return;
      }
      await route.fulfill({ contentType: types[path.extname(file)] ?? 'application/octet-stream', body: readFileSync(file) });
    });
    try {
      await plain.goto('http://plain.test/');
      const result = (await plain.waitForFunction(() => (window as unknown as { result?: unknown }).result)).jsonValue() as Promise<{
        isolated: boolean;
        info: { threads: boolean; numThreads: number };
      }>;
      const { isolated, info } = await result;
      expect(isolated).toBe(false);
      expect(info).toMatchObject({ threads: false, numThreads: 1 });
      const notices = messages.filter((m) => m.includes('single-threaded build'));
      expect(notices).toEqual([
        'info: Trident: using the single-threaded build: this page is not cross-origin isolated (serve it with the COOP/COEP headers to get SharedArrayBuffer).',
      ]);
    } finally {
      await plain.close();
    }
  });
});
