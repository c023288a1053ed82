// The JSON form of values shared by GOLDENS.json, the CLI, bundled test cases
// and the demo: tensors as {"dtype","shape","values"} (values row-major,
// flat or nested) and scalars as {"type":"Int"|"Double"|"Bool"|...,"value"}.
//
// JSON has no NaN/Infinity, so those are written as the strings "NaN",
// "Infinity" and "-Infinity". 64-bit integers are written as exact JSON
// numbers (stringifyJson prints bigints digit for digit) and may be read from
// numbers or decimal strings.

import { assertDType, isFloatDType } from './dtype.js';
import { ErrorCode, TridentError } from './errors.js';
import { Tensor, describeValue, jsonNumber, type AnyTensor, type NestedValues } from './tensor.js';
import { intValue, type OutputValue, type ValueKind } from './values.js';

export type JsonNumber = number | bigint | 'NaN' | 'Infinity' | '-Infinity';

export interface JsonTensor {
  dtype: string;
  shape: number[];
  values: Array<JsonNumber | boolean>;
}

export interface JsonScalar {
  type: 'Int' | 'Double' | 'Bool' | 'String' | 'None';
  value: JsonNumber | boolean | string | null;
}

const SPECIAL_NUMBERS: Record<string, number> = { NaN: NaN, nan: NaN, Infinity: Infinity, inf: Infinity, '-Infinity': -Infinity, '-inf': -Infinity };

/**
 * Parses a tensor or scalar in JSON form, already parsed. Integers beyond
 * 2^53 stay exact when the parser gave them as bigints (or decimal strings):
 * JSON.parse rounds them, a lossless parser need not.
 */
export function valueFromJson(json: unknown, where: string): OutputValue {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new TridentError(`${where}: expected a JSON tensor {"dtype","shape","values"} or scalar {"type","value"}, got ${describeValue(json)}`, ErrorCode.InvalidArgument);
  }
  const obj = json as Record<string, unknown>;
  if ('dtype' in obj || 'values' in obj) return tensorFromJson(obj, where);
  if ('type' in obj) return scalarFromJson(obj, where);
  throw new TridentError(`${where}: JSON object has neither "dtype"/"values" (tensor) nor "type" (scalar)`, ErrorCode.InvalidArgument);
}

function tensorFromJson(obj: Record<string, unknown>, where: string): AnyTensor {
  const dtype = assertDType(obj['dtype'], where);
  if (!Array.isArray(obj['values'])) {
    throw new TridentError(`${where}: "values" must be an array, got ${describeValue(obj['values'])}`, ErrorCode.InvalidArgument);
  }
  const decode = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(decode);
    if (typeof v !== 'string') return v;
    if (isFloatDType(dtype) && v in SPECIAL_NUMBERS) return SPECIAL_NUMBERS[v];
    if (/^-?\d+$/.test(v)) return BigInt(v);
    throw new TridentError(`${where}: value ${JSON.stringify(v)} is not a number`, ErrorCode.InvalidArgument);
  };
  const shape = obj['shape'] as number[] | undefined;
  return Tensor.from(dtype, decode(obj['values']) as NestedValues, shape) as AnyTensor;
}

function scalarFromJson(obj: Record<string, unknown>, where: string): Exclude<OutputValue, AnyTensor> {
  const value = obj['value'];
  switch (obj['type']) {
    case 'Int': {
      const ok =
        typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^-?\d+$/.test(value));
      if (!ok) throw new TridentError(`${where}: Int value must be an integer, got ${describeValue(value)}`, ErrorCode.InvalidArgument);
      return intValue(BigInt(value as bigint | number | string));
    }
    case 'Double':
      if (typeof value === 'number') return value;
      if (typeof value === 'string' && value in SPECIAL_NUMBERS) return SPECIAL_NUMBERS[value]!;
      throw new TridentError(`${where}: Double value must be a number, got ${describeValue(value)}`, ErrorCode.InvalidArgument);
    case 'Bool':
      if (typeof value === 'boolean') return value;
      throw new TridentError(`${where}: Bool value must be true or false, got ${describeValue(value)}`, ErrorCode.InvalidArgument);
    case 'String':
      return String(value);
    case 'None':
      return null;
    default:
      throw new TridentError(`${where}: unknown scalar type ${JSON.stringify(obj['type'])}; expected Int, Double, Bool, String or None`, ErrorCode.InvalidArgument);
  }
}

/**
 * The JSON form of an output. `kind` (from the method's signature) tells an
 * Int from a Double when the value is a whole number.
 */
export function valueToJson(value: OutputValue, kind?: ValueKind): JsonTensor | JsonScalar {
  if (value instanceof Tensor) {
    const values = value.toArray().map((v) => (typeof v === 'number' ? jsonNumber(v) : v));
    return { dtype: value.dtype, shape: [...value.shape], values };
  }
  if (value === null) return { type: 'None', value: null };
  if (typeof value === 'boolean') return { type: 'Bool', value };
  if (typeof value === 'string') return { type: 'String', value };
  if (typeof value === 'bigint') return { type: 'Int', value };
  const type = kind === 'Int' || kind === 'Double' ? kind : Number.isInteger(value) ? 'Int' : 'Double';
  return { type, value: jsonNumber(value) };
}

export { jsonNumber };

/**
 * JSON.stringify that prints bigints as exact JSON numbers (JSON.stringify
 * throws on them) and never emits NaN/Infinity (they must be converted with
 * jsonNumber first; a stray one is an error, not a silent null).
 */
export function stringifyJson(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TridentError(`stringifyJson: ${value} has no JSON form`, ErrorCode.Internal);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(stringifyJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${stringifyJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
