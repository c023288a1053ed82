import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCode, TridentError, detectFormat, fileFormats, load } from '../helpers/trident.js';
import { CORPUS, corpusFile, describeShared } from '../helpers/shared.js';

const bytes = (...parts: Array<number[] | string>): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? Array.from(p, (c) => c.charCodeAt(0)) : p)));

async function failure(promise: Promise<unknown>): Promise<TridentError> {
  let error: unknown;
  try {
    await promise;
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(TridentError);
  return error as TridentError;
}

describe('detectFormat (asks the runtime)', () => {
  it('recognizes each format by its magic bytes', async () => {
    expect(await detectFormat(bytes([0x1c, 0, 0, 0], 'ET12', [0, 0]))).toBe('pte');
    expect(await detectFormat(bytes([0x1c, 0, 0, 0], 'ET99'))).toBe('pte');
    expect(await detectFormat(bytes([0x2c, 0, 0, 0], 'BP08'))).toBe('bpte');
    expect(await detectFormat(bytes([0x50, 0x4b, 0x03, 0x04, 0, 0]))).toBe('pt2');
    expect(await detectFormat(bytes([0x0b, 0xef, 0, 0]))).toBe('bef');
  });

  it('needs two digits after the letters', async () => {
    expect((await failure(detectFormat(bytes([0, 0, 0, 0], 'ETxx')))).code).toBe(ErrorCode.InvalidProgram);
    expect((await failure(detectFormat(bytes([0, 0, 0, 0], 'ET1')))).message).toMatch(/only 7 bytes/);
  });

  it('names the first bytes of an unknown file and every format it could have been', async () => {
    const error = await failure(detectFormat(bytes('NOT_A_PTE file')));
    expect(error.code).toBe(ErrorCode.InvalidProgram);
    expect(error.message).toContain('first bytes 4e 4f 54 5f 41 5f 50 54 ("NOT_A_PT")');
    for (const format of await fileFormats()) expect(error.message).toContain(format.description);
  });

  it('reports an empty file as such', async () => {
    expect((await failure(detectFormat(new Uint8Array(0)))).message).toMatch(/only 0 bytes, first bytes \(empty file\)/);
  });

  it('lists the formats the runtime recognizes and which ones this build runs', async () => {
    const formats = await fileFormats();
    expect(formats.map((f) => f.id)).toEqual(['pte', 'bpte', 'pt2', 'bef', 'mlir']);
    expect(formats.filter((f) => f.supported).map((f) => f.id)).toEqual(['pte', 'bpte', 'pt2', 'bef', 'mlir']);
  });
});

describeShared('detectFormat on corpus files', () => {
  it('detects .pte and .bpte files and rejects .ptd data files', async () => {
    expect(await detectFormat(readFileSync(corpusFile(CORPUS.add)))).toBe('pte');
    expect(await detectFormat(readFileSync(corpusFile(CORPUS.bundled)))).toBe('bpte');
    const ptd = await failure(detectFormat(readFileSync(corpusFile(CORPUS.dataMapPtd))));
    expect(ptd.message).toMatch(/^this is ExecuTorch tensor data \(\.ptd\), not a model: .*dataFiles/);
    expect(ptd.code).toBe(ErrorCode.InvalidArgument);
  });

  it('a loaded model reports the format the runtime detected', async () => {
    const model = await load(corpusFile(CORPUS.bundled));
    expect(model.format).toBe('bpte');
    model.dispose();
  });
});
