import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCode, TridentError, detectFormat } from '../helpers/trident.js';
import { CORPUS, corpusFile, describeShared } from '../helpers/shared.js';

const bytes = (...parts: Array<number[] | string>): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? Array.from(p, (c) => c.charCodeAt(0)) : p)));

describe('detectFormat', () => {
  it('recognizes each format by its magic bytes', () => {
    expect(detectFormat(bytes([0x1c, 0, 0, 0], 'ET12', [0, 0]))).toBe('pte');
    expect(detectFormat(bytes([0x1c, 0, 0, 0], 'ET99'))).toBe('pte');
    expect(detectFormat(bytes([0x2c, 0, 0, 0], 'BP08'))).toBe('bpte');
    expect(detectFormat(bytes([0x50, 0x4b, 0x03, 0x04, 0, 0]))).toBe('pt2');
    expect(detectFormat(bytes([0x0b, 0xef, 0, 0]))).toBe('bef');
  });

  it('needs two digits after the letters', () => {
    expect(() => detectFormat(bytes([0, 0, 0, 0], 'ETxx'))).toThrowError(TridentError);
    expect(() => detectFormat(bytes([0, 0, 0, 0], 'ET1'))).toThrowError(/only 7 bytes/);
  });

  it('names the first bytes of an unknown file', () => {
    let error: unknown;
    try {
      detectFormat(bytes('NOT_A_PTE file'));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(TridentError);
    expect((error as TridentError).code).toBe(ErrorCode.InvalidProgram);
    expect((error as Error).message).toContain('first bytes 4e 4f 54 5f 41 5f 50 54 ("NOT_A_PT")');
  });

  it('reports an empty file as such', () => {
    expect(() => detectFormat(new Uint8Array(0))).toThrowError(/only 0 bytes, first bytes \(empty file\)/);
  });
});

describeShared('detectFormat on corpus files', () => {
  it('detects .pte and .bpte files and rejects .ptd data files', () => {
    expect(detectFormat(readFileSync(corpusFile(CORPUS.add)))).toBe('pte');
    expect(detectFormat(readFileSync(corpusFile(CORPUS.bundled)))).toBe('bpte');
    expect(() => detectFormat(readFileSync(corpusFile(CORPUS.dataMapPtd)))).toThrowError(/first bytes 44 00 00 00 46 54 30 31 \("D...FT01"\)/);
  });
});
