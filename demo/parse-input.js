// Text box contents -> run() inputs. A tensor box takes a JSON array (nested
// by dimension, or flat in row-major order), a single number that fills the
// whole tensor, or a JSON tensor {"dtype","shape","values"}.

import { Tensor, formatValueInfo, valueFromJson } from '/dist/js/index.js';

/** The largest tensor prefilled element by element; bigger ones get "1". */
const MAX_PREFILLED = 64;

/** The text a box starts with for an input of this signature. */
export function defaultText(spec) {
  switch (spec.kind) {
    case 'Tensor': {
      const size = spec.shape.reduce((a, b) => a * b, 1);
      const one = spec.dtype === 'bool' ? 'true' : '1';
      return size > MAX_PREFILLED || spec.shape.length === 0 ? one : JSON.stringify(nested(spec.shape, JSON.parse(one)));
    }
    case 'Bool':
      return 'false';
    case 'Double':
      return '1.0';
    case 'None':
      // A TFRT chain, which carries no value.
      return 'null';
    default:
      return '1';
  }
}

/** The text for an example input in the JSON value form ({dtype,shape,values} or {type,value}). */
export function exampleText(input) {
  if (input !== null && typeof input === 'object') {
    if ('values' in input) return JSON.stringify(input.values);
    if ('value' in input) return JSON.stringify(input.value);
  }
  return JSON.stringify(input);
}

function nested(shape, value) {
  if (shape.length === 0) return value;
  return Array.from({ length: shape[0] }, () => nested(shape.slice(1), value));
}

export function parseInput(text, spec, index) {
  try {
    return parseText(text, spec, `input ${index}`);
  } catch (err) {
    // Name the box in every message, also those from Tensor.from.
    const message = err.message.startsWith(`input ${index}:`) ? err.message : `input ${index}: ${err.message}`;
    throw new Error(message);
  }
}

function parseText(text, spec, where) {
  let json;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where}: not valid JSON (${err.message})`);
  }
  if (spec.kind !== 'Tensor') return parseScalar(json, spec, where);
  if (typeof json === 'number' || typeof json === 'boolean') {
    const size = spec.shape.reduce((a, b) => a * b, 1);
    return Tensor.from(spec.dtype, new Array(size).fill(json), spec.shape);
  }
  if (Array.isArray(json)) {
    const depth = depthOf(json);
    // A flat list for a multi-dimensional input is taken in row-major order.
    if (depth === 1 && spec.shape.length > 1) return Tensor.from(spec.dtype, json, spec.shape);
    return Tensor.from(spec.dtype, json);
  }
  if (json !== null && typeof json === 'object') return valueFromJson(json, where);
  throw new Error(`${where}: expected ${formatValueInfo(spec)} as a JSON array or a number`);
}

function parseScalar(json, spec, where) {
  if (spec.kind === 'Int' && Number.isInteger(json)) return json;
  if (spec.kind === 'Double' && typeof json === 'number') return json;
  if (spec.kind === 'Bool' && typeof json === 'boolean') return json;
  if (spec.kind === 'None' && json === null) return null;
  throw new Error(`${where}: expected ${spec.kind === 'Bool' ? 'true or false' : `a ${spec.kind}`}, got ${JSON.stringify(json)}`);
}

function depthOf(value) {
  let depth = 0;
  while (Array.isArray(value)) {
    depth++;
    value = value[0];
  }
  return depth;
}
