// Reading bytes from every kind of source, with progress and abort. These
// need no wasm: readSources is the first half of load().
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../dist/js/node/node-platform.js';
import { isSourceText, readSources } from '../../dist/js/read-source.js';
import { ErrorCode, TridentError } from '../helpers/trident.js';

const payload = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 7) & 0xff);
const dir = mkdtempSync(path.join(tmpdir(), 'trident-read-'));
const file = path.join(dir, 'payload.bin');
writeFileSync(file, payload);

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/payload.bin') {
      res.writeHead(200, { 'content-length': String(payload.length) });
      res.end(payload);
    } else if (req.url === '/chunked.bin') {
      res.writeHead(200); // no content-length: total unknown
      res.write(payload.subarray(0, 1000));
      res.end(payload.subarray(1000));
    } else if (req.url === '/slow.bin') {
      res.writeHead(200, { 'content-length': String(payload.length) });
      res.write(payload.subarray(0, 1024)); // then stall: the client aborts
    } else {
      res.writeHead(404, 'Not Found');
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

async function readWithProgress(source: Parameters<typeof readSources>[0][number]) {
  const events: Array<[number, number | undefined]> = [];
  const [read] = await readSources([source], { onProgress: (loaded, total) => events.push([loaded, total]) });
  return { bytes: read!.bytes, name: read!.name, events };
}

// toEqual on multi-megabyte typed arrays compares element by element (slowly).
function expectSameBytes(got: Uint8Array, want: Uint8Array): void {
  expect(got.length).toBe(want.length);
  expect(Buffer.compare(got, want)).toBe(0);
}

function expectProgress(events: Array<[number, number | undefined]>, total: number | undefined): void {
  expect(events.length).toBeGreaterThan(0);
  const loaded = events.map((e) => e[0]);
  expect(loaded).toEqual([...loaded].sort((a, b) => a - b));
  expect(events.at(-1)).toEqual([payload.length, total]);
}

describe('readSources', () => {
  it('reads a file path in chunks with progress', async () => {
    const { bytes, events } = await readWithProgress(file);
    expectSameBytes(bytes, payload);
    expect(events.length).toBeGreaterThan(3); // 1 MiB chunks
    expectProgress(events, payload.length);
  });

  it('reads file: URLs, as strings and as URL objects', async () => {
    expectSameBytes((await readWithProgress(pathToFileURL(file).href)).bytes, payload);
    expectSameBytes((await readWithProgress(pathToFileURL(file))).bytes, payload);
  });

  it('takes ArrayBuffers and Uint8Arrays (views keep their offset)', async () => {
    const { bytes, events } = await readWithProgress(payload.buffer);
    expectSameBytes(bytes, payload);
    expectProgress(events, payload.length);
    const view = payload.subarray(10, 20);
    expectSameBytes((await readWithProgress(view)).bytes, view);
  });

  it('streams Blobs and Files', async () => {
    const { bytes, events } = await readWithProgress(new Blob([payload]));
    expectSameBytes(bytes, payload);
    expectProgress(events, payload.length);
    expectSameBytes((await readWithProgress(new File([payload], 'model.pte'))).bytes, payload);
  });

  it('streams Responses, with the total from Content-Length', async () => {
    const response = new Response(new Blob([payload]).stream(), { headers: { 'content-length': String(payload.length) } });
    const { bytes, events } = await readWithProgress(response);
    expectSameBytes(bytes, payload);
    expectProgress(events, payload.length);
  });

  it('fetches http URLs with progress, and without a known total', async () => {
    const known = await readWithProgress(`${base}/payload.bin`);
    expectSameBytes(known.bytes, payload);
    expectProgress(known.events, payload.length);
    const unknown = await readWithProgress(new URL(`${base}/chunked.bin`));
    expectSameBytes(unknown.bytes, payload);
    expectProgress(unknown.events, undefined);
  });

  it('reads data: URLs', async () => {
    const url = `data:application/octet-stream;base64,${Buffer.from([1, 2, 3]).toString('base64')}`;
    expectSameBytes((await readWithProgress(url)).bytes, new Uint8Array([1, 2, 3]));
  });

  it('reports cumulative progress over several files', async () => {
    const events: Array<[number, number | undefined]> = [];
    const out = await readSources([new Uint8Array(10), new Uint8Array(5)], { onProgress: (l, t) => events.push([l, t]) });
    expect(out.map((b) => b.bytes.length)).toEqual([10, 5]);
    expect(events).toEqual([[10, 10], [15, 15]]);
  });

  it('names what failed: missing files, HTTP errors, unsupported sources, used bodies', async () => {
    await expect(readSources([path.join(dir, 'missing.pte')])).rejects.toThrowError(/cannot read '.*missing\.pte': no such file/);
    await expect(readSources([`${base}/nope.pte`])).rejects.toThrowError(/cannot fetch http:\/\/127\.0\.0\.1:\d+\/nope\.pte: HTTP 404 Not Found/);
    await expect(readSources([42 as never])).rejects.toThrowError(/unsupported source the number 42; expected/);
    await expect(readSources([undefined as never])).rejects.toThrowError(/^load: unsupported source undefined; expected/);
    // An HTTP 404 is a missing file, as ENOENT is; other statuses are access failures.
    await expect(readSources([`${base}/nope.pte`])).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await expect(readSources([path.join(dir, 'missing.pte')])).rejects.toMatchObject({ code: ErrorCode.NotFound });
    const used = new Response('abc');
    await used.text();
    await expect(readSources([used])).rejects.toThrowError(TridentError);
  });
});

describe('readSources: names and text', () => {
  it('names each file by its path or URL, and bytes by nothing', async () => {
    expect((await readWithProgress(file)).name).toBe(file);
    expect((await readWithProgress(pathToFileURL(file))).name).toBe(pathToFileURL(file).href);
    expect((await readWithProgress(new File([payload], 'model.pte'))).name).toBe('model.pte');
    expect((await readWithProgress(payload)).name).toBe('');
  });

  it('takes a string holding a line break, or starting like a TFRT program, as MLIR text', async () => {
    const text = 'func.func @f() -> i32 {\n  %x = tfrt.constant.i32 1\n  tfrt.return %x : i32\n}\n';
    const read = await readWithProgress(text);
    expect(new TextDecoder().decode(read.bytes)).toBe(text);
    expect(read.name).toBe('');
    expect(new TextDecoder().decode((await readWithProgress('func.func @g() { tfrt.return }')).bytes)).toBe('func.func @g() { tfrt.return }');
    // A long one-line path is still a path (no ENAMETOOLONG from a program's text).
    expect(isSourceText('models/func.func.pte')).toBe(false);
    expect(isSourceText('//cdn.example.com/model.pte')).toBe(false);
  });

  it('says that a malformed URL is one, as a TridentError', async () => {
    const err = await readSources(['http://']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TridentError);
    expect(err).toMatchObject({ code: ErrorCode.InvalidArgument, message: expect.stringContaining('"http://" is not a valid URL') });
  });
});

// maxFileBytes: a file over it is refused as soon as its size (or what has
// arrived) says so, so a hostile server cannot make the page buffer without
// bound.
describe('readSources with a file size limit', () => {
  const limit = 1024 * 1024;
  const over = (what: string, size: number, atLeast = false) => ({
    code: ErrorCode.LimitExceeded,
    message: `load: ${what} has ${atLeast ? 'at least ' : ''}${size} bytes, over maxFileBytes (${limit})`,
  });

  it('refuses by Content-Length before reading the body', async () => {
    await expect(readSources([`${base}/payload.bin`], {}, limit)).rejects.toMatchObject(over(`${base}/payload.bin`, payload.length));
  });

  it('refuses a stream with no known size once it passes the limit, reading no further', async () => {
    const events: number[] = [];
    const error = await readSources([`${base}/chunked.bin`], { onProgress: (loaded) => events.push(loaded) }, limit).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.LimitExceeded });
    expect((error as TridentError).message).toMatch(new RegExp(`has at least \\d+ bytes, over maxFileBytes \\(${limit}\\)`));
    expect(Math.max(...events)).toBeLessThanOrEqual(limit);
  });

  it('refuses paths, Blobs, Responses and bytes over it, and takes a file of exactly its size', async () => {
    await expect(readSources([file], {}, limit)).rejects.toMatchObject(over(`'${file}'`, payload.length));
    await expect(readSources([new Blob([payload])], {}, limit)).rejects.toMatchObject(over('the Blob', payload.length));
    await expect(readSources([new Response(new Blob([payload]).stream())], {}, limit)).rejects.toMatchObject({
      code: ErrorCode.LimitExceeded,
      message: expect.stringMatching(new RegExp(`^load: the Response has at least \\d+ bytes, over maxFileBytes \\(${limit}\\)$`)),
    });
    await expect(readSources([payload], {}, limit)).rejects.toMatchObject(over('the Uint8Array', payload.length));
    await expect(readSources([payload.buffer], {}, limit)).rejects.toMatchObject(over('the ArrayBuffer', payload.buffer.byteLength));
    const [exact] = await readSources([payload], {}, payload.length);
    expect(exact!.bytes.length).toBe(payload.length);
  });
});

describe('readSources with an AbortSignal', () => {
  it('rejects at once when the signal is already aborted', async () => {
    const signal = AbortSignal.abort();
    for (const source of [file, payload, new Blob([payload]), `${base}/payload.bin`]) {
      await expect(readSources([source], { signal })).rejects.toMatchObject({ name: 'AbortError' });
    }
  });

  it('stops a download that is under way', async () => {
    const controller = new AbortController();
    const pending = readSources([`${base}/slow.bin`], {
      signal: controller.signal,
      onProgress: (loaded) => loaded > 0 && controller.abort(),
    });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('stops a file read between chunks', async () => {
    const controller = new AbortController();
    const pending = readSources([file], { signal: controller.signal, onProgress: (loaded) => loaded > 0 && controller.abort() });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('passes a custom abort reason through', async () => {
    const reason = new Error('user cancelled');
    await expect(readSources([payload], { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });
});
