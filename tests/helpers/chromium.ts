// Debian's Chromium, headless, as the browser tests drive it: with its own
// fresh profile, and without the background networking that this machine's
// closed network refuses (ENVIRONMENT.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** A browser context; closing it also removes its profile folder (best effort). */
export async function launchChromium(): Promise<BrowserContext> {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'trident-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-quic',
    ],
  });
  context.on('close', () => {
    // Chromium may still be writing its profile as it exits: retry, and
    // leave a temp folder behind rather than fail a test over it.
    try {
      rmSync(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    } catch {}
  });
  return context;
}
