// The wasm loader: which build Node gets, and what a wrong location says.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode, env, load, runtimeInfo } from '../helpers/trident.js';

describe('wasm loader', () => {
  afterEach(() => {
    env.wasmPaths = undefined;
    env.threads = 'auto';
  });

  it('gives Node the single-threaded build (Node is never cross-origin isolated)', async () => {
    const info = await runtimeInfo();
    expect(info.threads).toBe(false);
    expect(info.version).toMatch(/^\d+\.\d+/);
  });

  it('reports the wasm memory, which grows with what a model needs and never shrinks', async () => {
    const before = (await runtimeInfo()).memoryBytes;
    expect(before).toBeGreaterThanOrEqual(32 << 20); // the build's INITIAL_MEMORY
    expect(before % 65536).toBe(0); // whole wasm pages
    // A model bigger than the free heap forces the memory to grow.
    const big = new Uint8Array(before + (8 << 20));
    await expect(load(big)).rejects.toThrow();
    const after = (await runtimeInfo()).memoryBytes;
    expect(after).toBeGreaterThan(before);
  });

  it('names the missing file and the fix when env.wasmPaths points nowhere', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'trident-nowasm-'));
    env.wasmPaths = empty;
    const pending = load(new Uint8Array([0x1c, 0, 0, 0, 0x45, 0x54, 0x31, 0x32]));
    await expect(pending).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await expect(pending).rejects.toThrowError(`Trident wasm build not found at ${path.join(empty, 'trident.wasm')}`);
  });

  it('refuses env.threads = true outside a cross-origin isolated page', async () => {
    env.threads = true;
    await expect(runtimeInfo()).rejects.toMatchObject({ code: ErrorCode.NotSupported });
    await expect(runtimeInfo()).rejects.toThrowError(/needs a cross-origin isolated browser page/);
  });
});
