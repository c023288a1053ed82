import { describe, expect, it } from 'vitest';
import { isNpy, parseNpy } from '../../bin/cli/npy.mjs';
import { encodeNpy } from '../helpers/npy.js';
import type { Tensor } from '../helpers/trident.js';

const parse = (bytes: Uint8Array): Tensor => parseNpy(bytes, 'x.npy');

describe('.npy reader of the CLI', () => {
  it('reads version 1 and 2 files of several dtypes', () => {
    const f = parse(encodeNpy('float32', [2, 2], new Float32Array([1, 2, 3, 4])));
    expect(f.dtype).toBe('float32');
    expect(f.shape).toEqual([2, 2]);
    expect(f.toArray()).toEqual([1, 2, 3, 4]);

    const i = parse(encodeNpy('int64', [3], new BigInt64Array([1n, -2n, 3n]), { version: 2 }));
    expect(i.dtype).toBe('int64');
    expect(i.toArray()).toEqual([1n, -2n, 3n]);

    const b = parse(encodeNpy('bool', [2], new Uint8Array([1, 0])));
    expect(b.toArray()).toEqual([true, false]);
  });

  it('reads 0-d arrays as shape []', () => {
    const t = parse(encodeNpy('float64', [], new Float64Array([2.5])));
    expect(t.shape).toEqual([]);
    expect(t.toArray()).toEqual([2.5]);
  });

  it('rejects Fortran order, big-endian data, unknown dtypes and truncation, clearly', () => {
    expect(() => parse(encodeNpy('float32', [2, 2], new Float32Array(4), { fortran: true }))).toThrowError(
      /x\.npy: Fortran-order \(column-major\) arrays are not supported/,
    );
    expect(() => parse(encodeNpy('float32', [1], new Float32Array(1), { descr: '>f4' }))).toThrowError(/big-endian dtype '>f4'/);
    expect(() => parse(encodeNpy('float32', [1], new Float32Array(1), { descr: '<c8' }))).toThrowError(/unsupported numpy dtype '<c8'/);
    const whole = encodeNpy('float32', [4], new Float32Array(4));
    expect(() => parse(whole.subarray(0, whole.length - 1))).toThrowError(/data is truncated: 15 bytes/);
    expect(() => parse(new Uint8Array([1, 2, 3]))).toThrowError(/not a \.npy file/);
    expect(isNpy(whole)).toBe(true);
  });
});
