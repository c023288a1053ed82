import { describe, expect, it } from 'vitest';
import { Tensor, stringifyJson, valueFromJson, valueToJson } from '../helpers/trident.js';

describe('JSON form of values', () => {
  it('reads tensors in the GOLDENS.json form, flat or nested', () => {
    const t = valueFromJson({ dtype: 'float32', shape: [2, 2], values: [1, 2, 3, 4] }, 'x') as Tensor;
    expect(t.shape).toEqual([2, 2]);
    expect(t.toArray()).toEqual([1, 2, 3, 4]);
    const nested = valueFromJson({ dtype: 'int32', values: [[1, 2], [3, 4]] }, 'x') as Tensor;
    expect(nested.shape).toEqual([2, 2]);
  });

  it('reads NaN/Infinity strings and exact int64 strings', () => {
    const f = valueFromJson({ dtype: 'float64', shape: [3], values: ['NaN', 'Infinity', '-Infinity'] }, 'x') as Tensor;
    const [nan, inf, ninf] = f.toArray();
    expect(nan).toBeNaN();
    expect([inf, ninf]).toEqual([Infinity, -Infinity]);
    const big = valueFromJson({ dtype: 'int64', shape: [1], values: ['9007199254740993'] }, 'x') as Tensor;
    expect(big.toArray()).toEqual([9007199254740993n]);
  });

  it('reads scalars', () => {
    expect(valueFromJson({ type: 'Int', value: 128 }, 'x')).toBe(128);
    expect(valueFromJson({ type: 'Int', value: '9223372036854775807' }, 'x')).toBe(9223372036854775807n);
    expect(valueFromJson({ type: 'Double', value: 2.5 }, 'x')).toBe(2.5);
    expect(valueFromJson({ type: 'Bool', value: true }, 'x')).toBe(true);
    expect(valueFromJson({ type: 'None', value: null }, 'x')).toBe(null);
  });

  it('says where a malformed value is', () => {
    expect(() => valueFromJson([1, 2], '--input 1')).toThrowError(/--input 1: expected a JSON tensor/);
    expect(() => valueFromJson({ dtype: 'float32', values: 3 }, 'in')).toThrowError(/in: "values" must be an array/);
    expect(() => valueFromJson({ dtype: 'f32', values: [] }, 'in')).toThrowError(/in: unknown dtype "f32"/);
    expect(() => valueFromJson({ type: 'Int', value: 1.5 }, 'in')).toThrowError(/in: Int value must be an integer/);
    expect(() => valueFromJson({ dtype: 'float32', shape: [3], values: [1, 2] }, 'in')).toThrowError(/holds 3 elements but 2 values/);
  });

  it('writes tensors and scalars, with non-finite numbers as strings', () => {
    const t = Tensor.from('float32', [1, NaN, Infinity, -Infinity], [2, 2]);
    expect(valueToJson(t)).toEqual({ dtype: 'float32', shape: [2, 2], values: [1, 'NaN', 'Infinity', '-Infinity'] });
    expect(valueToJson(2, 'Double')).toEqual({ type: 'Double', value: 2 });
    expect(valueToJson(2, 'Int')).toEqual({ type: 'Int', value: 2 });
    expect(valueToJson(2n ** 62n)).toEqual({ type: 'Int', value: 2n ** 62n });
    expect(valueToJson(true)).toEqual({ type: 'Bool', value: true });
    expect(valueToJson(null)).toEqual({ type: 'None', value: null });
  });

  it('stringifies bigints as exact JSON numbers and refuses stray NaN', () => {
    const text = stringifyJson(valueToJson(Tensor.from('int64', [2n ** 62n + 1n, -3n])));
    expect(text).toBe('{"dtype":"int64","shape":[2],"values":[4611686018427387905,-3]}');
    expect(JSON.parse(text).values[1]).toBe(-3);
    expect(stringifyJson({ a: [1.5, 'x', true, null], b: undefined })).toBe('{"a":[1.5,"x",true,null]}');
    expect(() => stringifyJson({ x: NaN })).toThrowError(/NaN has no JSON form/);
  });
});
