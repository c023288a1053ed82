// load() from every kind of source, through the real wasm build, with the
// project's own add.pte fixture (forward(a f32[2,2], b f32[2,2]) = a + b).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, ErrorCode, Model, Tensor, TridentError, env, load, runtimeInfo, type ModelSource } from '../helpers/trident.js';
import { fixture } from '../helpers/fixtures.js';

describe('load() sources', () => {
  const addPath = fixture('add.pte');
  const addBytes = new Uint8Array(readFileSync(addPath));
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/add.pte') {
        res.writeHead(200, { 'content-length': String(addBytes.length) });
        res.end(addBytes);
      } else {
        res.writeHead(404, 'Not Found');
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.close();
  });

  async function expectAdds(source: ModelSource): Promise<void> {
    const progress: Array<[number, number | undefined]> = [];
    const model = await load(source, { onProgress: (loaded, total) => progress.push([loaded, total]) });
    try {
      expect(model).toBeInstanceOf(Model);
      expect(model.format).toBe('pte');
      const [sum] = await model.run('forward', [Tensor.from('float32', [[1, 2], [3, 4]]), Tensor.from('float32', [[10, 20], [30, 40]])]);
      expect((sum as Tensor).toArray()).toEqual([11, 22, 33, 44]);
      expect(progress.at(-1)).toEqual([addBytes.length, addBytes.length]);
    } finally {
      model.dispose();
    }
  }

  const sources: Array<[string, () => ModelSource]> = [
    ['a file path', () => addPath],
    ['a file: URL string', () => pathToFileURL(addPath).href],
    ['a file: URL object', () => pathToFileURL(addPath)],
    ['an http URL string', () => `${base}/add.pte`],
    ['an http URL object', () => new URL(`${base}/add.pte`)],
    ['an ArrayBuffer', () => addBytes.slice().buffer],
    ['a Uint8Array', () => addBytes],
    ['a Uint8Array view into a larger buffer', () => {
      const big = new Uint8Array(addBytes.length + 13);
      big.set(addBytes, 13);
      return big.subarray(13);
    }],
    ['a Response', () => new Response(addBytes, { headers: { 'content-length': String(addBytes.length) } })],
    ['a Blob', () => new Blob([addBytes])],
    ['a File', () => new File([addBytes], 'renamed.bin')],
  ];
  for (const [name, make] of sources) {
    it(`loads and runs from ${name}`, () => expectAdds(make()));
  }

  it('rejects with the abort reason when the signal is already aborted', async () => {
    for (const source of [addPath, addBytes, new Blob([addBytes]), `${base}/add.pte`]) {
      await expect(load(source, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    }
  });

  it('reports unreadable sources as TridentErrors naming them', async () => {
    await expect(load(`${base}/missing.pte`)).rejects.toThrowError(/HTTP 404/);
    await expect(load('/no/such/model.pte')).rejects.toMatchObject({ code: ErrorCode.NotFound, message: expect.stringContaining('/no/such/model.pte') });
  });

  it('detects the format from the bytes and answers each front end\'s error', async () => {
    // A zip's first bytes go to the PT2 reader, which finds no archive in them.
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]);
    await expect(load(zip)).rejects.toMatchObject({
      code: ErrorCode.InvalidProgram,
      message: expect.stringMatching(/PT2 archive: 8 bytes is too short for a zip file/),
    });
    await expect(load(new Uint8Array([0x0b, 0xef, 1, 2]))).rejects.toThrowError(/Unknown BEF format version detected \(version 1\)/);
    const junk = load(new TextEncoder().encode('NOT_A_PTE at all'));
    await expect(junk).rejects.toBeInstanceOf(TridentError);
    await expect(junk).rejects.toThrowError(/first bytes 4e 4f 54 5f 41 5f 50 54/);
  });

  it('validates its options', async () => {
    await expect(load(addBytes, { maxPlannedBytes: -1 })).rejects.toThrowError(/load: maxPlannedBytes must be a positive integer, got -1/);
    await expect(load(addBytes, { maxFileBytes: 1.5 })).rejects.toThrowError(/load: maxFileBytes must be a positive integer, got 1\.5/);
    await expect(load(addBytes, { maxTensorElements: 0 })).rejects.toMatchObject({ code: ErrorCode.InvalidArgument });
    await expect(load(addBytes, { maxInstructionsPerRun: Number.NaN })).rejects.toThrowError(/maxInstructionsPerRun must be a positive integer/);
    await expect(load(addBytes, { maxWasmMemoryBytes: -5 })).rejects.toThrowError(/maxWasmMemoryBytes must be a positive integer/);
  });
});

// Every limit has a safe default in env.limits, which load()'s options of the
// same name override per model. Each refusal is a LimitExceeded TridentError,
// and the module goes on working.
describe('load() limits', () => {
  const addPath = fixture('add.pte');
  const addBytes = new Uint8Array(readFileSync(addPath));

  async function expectAddRuns(): Promise<void> {
    const model = await load(addBytes);
    const a = Tensor.from('float32', [1, 2, 3, 4], [2, 2]);
    const [sum] = await model.run('forward', [a, a]);
    expect((sum as Tensor).toArray()).toEqual([2, 4, 6, 8]);
    model.dispose();
  }

  it('has safe defaults, surfaced in env.limits', () => {
    expect(env.limits).toEqual({ maxFileBytes: 2 ** 31, maxPlannedBytes: 2 ** 30, maxTensorElements: 2 ** 31 - 1, maxInstructionsPerRun: 1e8, maxWasmMemoryBytes: 2 ** 32 });
    expect(DEFAULT_LIMITS).toEqual(env.limits);
  });

  it('refuses a file over maxFileBytes, from bytes and from a path, before it reaches the runtime', async () => {
    await expect(load(addBytes, { maxFileBytes: 100 })).rejects.toMatchObject({
      code: ErrorCode.LimitExceeded,
      message: `load: the Uint8Array has ${addBytes.length} bytes, over maxFileBytes (100)`,
    });
    await expect(load(addPath, { maxFileBytes: 100 })).rejects.toMatchObject({
      code: ErrorCode.LimitExceeded,
      message: `load: '${addPath}' has ${addBytes.length} bytes, over maxFileBytes (100)`,
    });
    const exact = await load(addBytes, { maxFileBytes: addBytes.length });
    exact.dispose();
    await expectAddRuns();
  });

  it('takes its defaults from env.limits', async () => {
    const saved = { ...env.limits };
    try {
      env.limits.maxFileBytes = 100;
      await expect(load(addBytes)).rejects.toMatchObject({ code: ErrorCode.LimitExceeded });
      const model = await load(addBytes, { maxFileBytes: addBytes.length });
      model.dispose();
    } finally {
      Object.assign(env.limits, saved);
    }
    await expectAddRuns();
  });

  it('refuses a program with a tensor over maxTensorElements', async () => {
    const error = await load(addBytes, { maxTensorElements: 3 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.LimitExceeded });
    expect((error as TridentError).message).toMatch(/a tensor of 4 elements is over the limit of 3 \(maxTensorElements\)/);
    const fits = await load(addBytes, { maxTensorElements: 4 });
    fits.dispose();
    await expectAddRuns();
  });

  it('refuses to grow the wasm memory past maxWasmMemoryBytes, and the module goes on working', async () => {
    const before = (await runtimeInfo()).memoryBytes;
    // More than the bound itself: it cannot fit however free the heap is.
    const bound = before + 32 * 2 ** 20;
    const huge = new Uint8Array(bound);
    const error = await load(addBytes, { dataFiles: [huge], maxWasmMemoryBytes: bound }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.LimitExceeded });
    expect((error as TridentError).message).toMatch(new RegExp(`cannot allocate ${bound} bytes of wasm memory for external data file 0: the wasm memory may not grow past maxWasmMemoryBytes, ${bound} bytes`));
    // The engine grows a step ahead of the heap: at most 96 MB past the bound.
    expect((await runtimeInfo()).memoryBytes).toBeLessThanOrEqual(bound + 96 * 2 ** 20);
    // A model within its bound loads and runs; so does one with the default.
    const bounded = await load(addBytes, { maxWasmMemoryBytes: (await runtimeInfo()).memoryBytes });
    const a = Tensor.from('float32', [1, 2, 3, 4], [2, 2]);
    expect(((await bounded.run([a, a]))[0] as Tensor).toArray()).toEqual([2, 4, 6, 8]);
    bounded.dispose();
    await expectAddRuns();
  });

  it('holds maxWasmMemoryBytes in worker mode too, where the worker has a memory of its own', async () => {
    const bound = 64 * 2 ** 20;
    const error = await load(addBytes, { worker: true, dataFiles: [new Uint8Array(bound)], maxWasmMemoryBytes: bound }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.LimitExceeded, message: expect.stringMatching(/may not grow past maxWasmMemoryBytes, 67108864 bytes/) });
    const model = await load(addBytes, { worker: true, maxWasmMemoryBytes: bound });
    const a = Tensor.from('float32', [1, 2, 3, 4], [2, 2]);
    expect(((await model.run([a, a]))[0] as Tensor).toArray()).toEqual([2, 4, 6, 8]);
    model.dispose();
  });

  it('ends a run over maxInstructionsPerRun, and the model stays usable', async () => {
    const text = `func.func @count(%n: i32) -> i32 {
  %zero = tfrt.constant.i32 0
  %r = tfrt.repeat.i32 %n, %zero : i32 {
    %one = tfrt.constant.i32 1
    %next = tfrt.add.i32 %zero, %one
    tfrt.return %next : i32
  }
  tfrt.return %r : i32
}
`;
    // Inside the loop %zero is the value carried from the last iteration.
    const model = await load(text, { maxInstructionsPerRun: 1000 });
    expect(await model.run('count', [10])).toEqual([10]);
    const error = await model.run('count', [100000]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.LimitExceeded });
    expect((error as TridentError).message).toMatch(/exceeded its kernel budget \(maxInstructionsPerRun: 1000 kernel executions\)/);
    expect(await model.run('count', [10])).toEqual([10]);
    model.dispose();
    const unbounded = await load(text);
    expect(await unbounded.run('count', [100000])).toEqual([100000]);
    unbounded.dispose();
  });
});
