import { describe, expect, it } from 'vitest';
import { DTYPES, ErrorCode, Tensor, TridentError, valueFromJson, type AnyTensor } from '../helpers/trident.js';

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
    expect(make).toThrowError(/data must be a BigInt64Array, a plain array or a Uint8ClampedArray, got an Int32Array; Tensor.from/);
    // The article goes by sound: "a Uint8Array", "an Int8Array".
    expect(() => new Tensor('float32', new Uint8Array(2) as never)).toThrowError(/got a Uint8Array;/);
  });

  it('rejects bad shapes and unknown dtypes', () => {
    expect(() => Tensor.zeros('float32', [2, -1])).toThrowError(/shape\[1\] must be a non-negative integer, got the number -1/);
    expect(() => Tensor.zeros('float32', [1.5])).toThrowError(/shape\[0\]/);
    expect(() => Tensor.zeros('float8' as never, [1])).toThrowError(/unknown dtype "float8"/);
    expect(() => Tensor.zeros('complex64' as never, [1])).toThrowError(expect.objectContaining({ code: ErrorCode.InvalidType }) as never);
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
    expect(() => Tensor.from('int8', [1, 200])).toThrowError(/^Tensor\.from\(int8\): values\[1\] is 200, out of range for int8 \[-128, 127\]$/);
    expect(() => Tensor.from('uint8', [-1])).toThrowError(/out of range for uint8/);
    expect(() => Tensor.from('int32', [1.5])).toThrowError(/values\[0\] is 1\.5, not an integer \(int32\)/);
    expect(() => Tensor.from('int64', [2n ** 63n])).toThrowError(/values\[0\] is 9223372036854775808n, out of range for int64/);
    expect(() => Tensor.from('bool', [2])).toThrowError(/values\[0\] is 2, not a boolean/);
    expect(() => Tensor.from('int32', ['1' as never])).toThrowError(/^Tensor\.from\(int32\): values\[0\] is the string "1", not a number$/);
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

describe('Tensor: plain arrays, canvas pixels, views and JSON', () => {
  it('takes plain arrays in the constructor, checked as Tensor.from checks them', () => {
    const t = new Tensor('float32', [1, 2, 3, 4], [2, 2]);
    expect(t.data).toBeInstanceOf(Float32Array);
    expect(t.toArray()).toEqual([1, 2, 3, 4]);
    expect(new Tensor('int64', [1, 2n]).data).toEqual(new BigInt64Array([1n, 2n]));
    expect(() => new Tensor('uint8', [256])).toThrowError(/values\[0\] is 256, out of range for uint8/);
  });

  it('views a Uint8ClampedArray as uint8 and converts it for other dtypes', () => {
    const pixels = new Uint8ClampedArray([0, 128, 255, 7]);
    const u8 = new Tensor('uint8', pixels, [1, 4]);
    expect(u8.data).toBeInstanceOf(Uint8Array);
    pixels[0] = 9; // a view: the tensor sees the canvas's bytes
    expect(u8.data[0]).toBe(9);
    const f = new Tensor('float32', pixels);
    expect(f.toArray()).toEqual([9, 128, 255, 7]);
    expect(() => new Tensor('int8', pixels)).toThrowError(/values\[1\] is 128, out of range for int8/);
  });

  it('narrows by dtype: is() as a type guard, as() or a TridentError', () => {
    const t: AnyTensor = Tensor.from('int64', [5n]) as AnyTensor;
    expect(t.dtype).toBe('int64');
    if (t.dtype === 'int64') {
      const big: BigInt64Array = t.data; // compiles only if dtype narrowed data
      expect(big[0]).toBe(5n);
    }
    expect(t.is('int64')).toBe(true);
    expect(t.is('float32')).toBe(false);
    expect(t.as('int64').data[0]).toBe(5n);
    expect(() => t.as('float32')).toThrowError(/^Tensor\.as\(float32\): this is an int64 tensor of shape \[1\]$/);
    expect(() => t.as('float32')).toThrowError(expect.objectContaining({ code: ErrorCode.InvalidType }) as never);
  });

  it('reshapes as a view, with one inferred size', () => {
    const t = Tensor.from('float32', [1, 2, 3, 4, 5, 6]);
    const r = t.reshape([2, -1]);
    expect(r.shape).toEqual([2, 3]);
    expect(r.data).toBe(t.data);
    expect(t.reshape([3, 2]).shape).toEqual([3, 2]);
    expect(() => t.reshape([4, -1])).toThrowError(/cannot reshape 6 elements to \[4, -1\]/);
    expect(() => t.reshape([-1, -1])).toThrowError(/only one size may be -1/);
    expect(() => t.reshape([5])).toThrowError(/shape \[5\] holds 5 elements, this tensor has 6/);
  });

  it('writes JSON with exact 64-bit integers and named non-finite floats, and reads it back', () => {
    const big = Tensor.from('int64', [9007199254740993n, -1n]);
    expect(JSON.stringify(big)).toBe('{"dtype":"int64","shape":[2],"values":["9007199254740993","-1"]}');
    expect((valueFromJson(JSON.parse(JSON.stringify(big)), 'json') as Tensor<'int64'>).data).toEqual(big.data);
    const f = Tensor.from('float32', [1.5, NaN, -Infinity]);
    expect(f.toJSON()).toEqual({ dtype: 'float32', shape: [3], values: [1.5, 'NaN', '-Infinity'] });
    expect(Tensor.from('bool', [true, false]).toJSON().values).toEqual([true, false]);
  });

  it('answers a size no typed array can hold with a TridentError, not a RangeError', () => {
    const err = (() => {
      try {
        Tensor.zeros('float32', [1e6, 1e6]);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(TridentError);
    expect(err).toMatchObject({ code: ErrorCode.MemoryAllocationFailed, message: expect.stringMatching(/^Tensor\.zeros\(float32\): cannot allocate 1000000000000 elements/) });
    expect(() => Tensor.zeros('float32', [2 ** 40, 2 ** 40])).toThrowError(/more elements than JavaScript can count/);
  });
});
