// The wasm loader: which build Node gets, and what a wrong location says.
import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/fixtures.js';
import { ErrorCode, Tensor, env, load, runtimeInfo } from '../helpers/trident.js';

const ADD_VEC4 = fixture('add_vec4.pte');

describe('wasm loader', () => {
  afterEach(() => {
    env.wasmPaths = undefined;
    env.threads = 'auto';
  });

  it('gives Node the threads build, with a pool of one thread per logical core', async () => {
    const info = await runtimeInfo();
    expect(info.threads).toBe(true);
    expect(info.numThreads).toBe(availableParallelism());
    expect(info.version).toMatch(/^\d+\.\d+/);
  });

  it('gives the single-threaded build when env.threads is false, or load() asks', async () => {
    env.threads = false;
    const info = await runtimeInfo();
    expect(info.threads).toBe(false);
    expect(info.numThreads).toBe(1);
    env.threads = 'auto';
    const single = await load(ADD_VEC4, { threads: false });
    const threaded = await load(ADD_VEC4, { threads: true, numThreads: 1 });
    const all = await load(ADD_VEC4);
    try {
      expect(single.numThreads).toBe(1);
      expect(threaded.numThreads).toBe(1);
      expect(all.numThreads).toBe(availableParallelism());
      // Both builds run it.
      const x = new Tensor('float32', new Float32Array([1, 2, 3, 4]), [4]);
      const [a] = await single.run('forward', [x, x]);
      const [b] = await threaded.run('forward', [x, x]);
      expect(Array.from((a as Tensor).data as Float32Array)).toEqual(Array.from((b as Tensor).data as Float32Array));
    } finally {
      single.dispose();
      threaded.dispose();
      all.dispose();
    }
  });

  it('rejects bad thread settings by name', async () => {
    await expect(load(ADD_VEC4, { numThreads: -1 })).rejects.toThrowError(/numThreads must be a positive integer/);
    await expect(load(ADD_VEC4, { numThreads: 1.5 })).rejects.toMatchObject({ code: ErrorCode.InvalidArgument });
    await expect(load(ADD_VEC4, { threads: 'yes' as unknown as boolean })).rejects.toThrowError(/threads must be 'auto', true or false/);
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
    await expect(pending).rejects.toMatchObject({ code: ErrorCode.BackendMissing });
    await expect(pending).rejects.toThrowError(`Trident wasm build not found at ${path.join(empty, 'trident.wasm')}`);
  });

  it('takes env.threads = true in Node, which has shared memory', async () => {
    env.threads = true;
    const info = await runtimeInfo();
    expect(info.threads).toBe(true);
  });
});
