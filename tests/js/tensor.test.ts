import { describe, expect, it } from 'vitest';
import { DTYPES, ErrorCode, Tensor, TridentError } from '../helpers/trident.js';

describe('Tensor construction', () => {
  it('wraps a typed array without copying and defaults to a 1-D shape', () => {
    const data = new Float32Array([1, 2, 3]);
    const t = new Tensor('float32', data);
    expect(t.data).toBe(data);
    expect(t.shape).toEqual([3]);
    expect(t.size).toBe(3);
    expect(t.rank).toBe(1);
  });

  it('accepts a shape whose size matches the data, including scalars and empty tensors', () => {
    expect(new Tensor('int32', new Int32Array(6), [2, 3]).shape).toEqual([2, 3]);
    expect(new Tensor('float64', new Float64Array([7]), []).size).toBe(1);
    expect(new Tensor('uint8', new Uint8Array(0), [0, 4]).size).toBe(0);
  });

  it('rejects a shape that does not match the data length, naming both', () => {
    expect(() => new Tensor('float32', new Float32Array(5), [2, 3])).toThrowError(
      /Tensor\(float32\): shape \[2, 3\] holds 6 elements but data has 5/,
    );
  });

  it('rejects the wrong typed array for the dtype', () => {
    const make = () => new Tensor('int64', new Int32Array(2) as never);
    expect(make).toThrowError(TridentError);
    expect(make).toThrowError(/data must be a BigInt64Array, got an Int32Array/);
  });

  it('rejects bad shapes and unknown dtypes', () => {
    expect(() => Tensor.zeros('float32', [2, -1])).toThrowError(/shape\[1\] must be a non-negative integer, got number -1/);
    expect(() => Tensor.zeros('float32', [1.5])).toThrowError(/shape\[0\]/);
    expect(() => Tensor.zeros('float8' as never, [1])).toThrowError(/unknown dtype "float8"/);
    try {
      Tensor.zeros('complex64' as never, [1]);
    } catch (err) {
      expect((err as TridentError).code).toBe(ErrorCode.InvalidType);
    }
  });

  it('uses the documented typed array for every dtype', () => {
    const expected: Record<string, string> = {
      float32: 'Float32Array', float64: 'Float64Array', float16: 'Uint16Array', bfloat16: 'Uint16Array',
      int8: 'Int8Array', int16: 'Int16Array', int32: 'Int32Array', int64: 'BigInt64Array',
      uint8: 'Uint8Array', uint16: 'Uint16Array', uint32: 'Uint32Array', uint64: 'BigUint64Array', bool: 'Uint8Array',
    };
    expect([...DTYPES].sort()).toEqual(Object.keys(expected).sort());
    for (const dtype of DTYPES) {
      const t = Tensor.zeros(dtype, [2, 2]);
      expect(t.data.constructor.name, dtype).toBe(expected[dtype]);
      expect(t.data.length).toBe(4);
    }
  });
});

describe('Tensor.from and toArray', () => {
  it('round-trips numbers, bigints and booleans', () => {
    expect(Tensor.from('float32', [1.5, -2, 3]).toArray()).toEqual([1.5, -2, 3]);
    expect(Tensor.from('int64', [1n, -(2n ** 63n), 5]).toArray()).toEqual([1n, -(2n ** 63n), 5n]);
    expect(Tensor.from('uint64', [2n ** 64n - 1n]).toArray()).toEqual([2n ** 64n - 1n]);
    expect(Tensor.from('bool', [true, false, 1, 0]).toArray()).toEqual([true, false, true, false]);
    expect(Tensor.from('int8', [-128, 127]).toArray()).toEqual([-128, 127]);
  });

  it('infers the shape from nested arrays and checks an explicit one', () => {
    const t = Tensor.from('int32', [[1, 2, 3], [4, 5, 6]]);
    expect(t.shape).toEqual([2, 3]);
    expect(t.toArray()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(Tensor.from('int32', [1, 2, 3, 4], [2, 2]).shape).toEqual([2, 2]);
    expect(() => Tensor.from('int32', [1, 2, 3], [2, 2])).toThrowError(/shape \[2, 2\] holds 4 elements but 3 values were given/);
    expect(() => Tensor.from('int32', [[1, 2], [3]])).toThrowError(/ragged nested array: values\[1\] has 1 items, expected 2/);
  });

  it('refuses to wrap or truncate integers silently', () => {
    expect(() => Tensor.from('int8', [1, 200])).toThrowError(/value number 200 at index 1 is out of range for int8 \[-128, 127\]/);
    expect(() => Tensor.from('uint8', [-1])).toThrowError(/out of range for uint8/);
    expect(() => Tensor.from('int32', [1.5])).toThrowError(/is not an integer \(int32\)/);
    expect(() => Tensor.from('int64', [2n ** 63n])).toThrowError(/out of range for int64/);
    expect(() => Tensor.from('bool', [2])).toThrowError(/is not a boolean/);
    expect(() => Tensor.from('float32', ['x' as never])).toThrowError(/is not a number/);
  });

  it('encodes float16 and bfloat16 as raw bits and decodes them back', () => {
    const h = Tensor.from('float16', [1, -2, 0.5, 65504, 1e-7, Infinity, NaN]);
    expect(Array.from(h.data.subarray(0, 6))).toEqual([0x3c00, 0xc000, 0x3800, 0x7bff, 0x0002, 0x7c00]);
    const back = h.toArray();
    expect(back.slice(0, 4)).toEqual([1, -2, 0.5, 65504]);
    expect(back[4]).toBeCloseTo(1.1920928955078125e-7, 12);
    expect(back[5]).toBe(Infinity);
    expect(back[6]).toBeNaN();
    // Halfway cases round to even; overflow goes to infinity.
    expect(Tensor.from('float16', [1 + 2 ** -11, 65520]).data).toEqual(new Uint16Array([0x3c00, 0x7c00]));

    const b = Tensor.from('bfloat16', [1, -2, 3.140625, NaN]);
    expect(Array.from(b.data.subarray(0, 3))).toEqual([0x3f80, 0xc000, 0x4049]);
    expect(b.toArray().slice(0, 3)).toEqual([1, -2, 3.140625]);
    expect(b.toArray()[3]).toBeNaN();
  });

  it('zeros() gives zeros of every dtype', () => {
    expect(Tensor.zeros('int64', [2]).toArray()).toEqual([0n, 0n]);
    expect(Tensor.zeros('bool', [1]).toArray()).toEqual([false]);
    expect(Tensor.zeros('bfloat16', [1]).toArray()).toEqual([0]);
  });

  it('describes itself', () => {
    expect(String(Tensor.zeros('float32', [1, 3]))).toBe('Tensor(float32[1, 3])');
  });
});
