// Turns one --input SPEC into a run() input, using the method's signature
// to tell an Int from a Double.
//
// SPEC is one of: a JSON tensor {"dtype","shape","values"} (or scalar
// {"type","value"}); a bare number; true/false; null (a None input, such as
// a TFRT chain); a path to a .npy file (or to a file holding a JSON tensor).

import { readFile } from 'node:fs/promises';
import { isSafeNumber, parse } from 'lossless-json';
import { formatValueInfo, valueFromJson } from '../../dist/js/index-node.js';
import { isNpy, parseNpy } from './npy.mjs';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
const SPECIAL = { nan: NaN, inf: Infinity, '+inf': Infinity, '-inf': -Infinity, infinity: Infinity, '-infinity': -Infinity };

/**
 * @param {string} spec
 * @param {import('../../dist/js/index-node.js').ValueInfo | undefined} info the
 *   signature of this input (undefined if the method has fewer inputs; run()
 *   then reports the count mismatch)
 * @param {string} where e.g. "--input 0": numbered from 0, as run() numbers inputs
 */
export async function parseInputSpec(spec, info, where) {
  const text = spec.trim();
  if (text.startsWith('{')) return fromJsonText(text, where);
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null') return null;
  const special = SPECIAL[text.toLowerCase()];
  if (NUMBER.test(text) || special !== undefined) return fromNumber(text, special, info, where);
  return fromFile(spec, where);
}

// JSON.parse rounds integers beyond 2^53 (9007199254740993 becomes
// ...992), which int64 inputs must not suffer: such integers are read as
// bigints, every other number as a JS number.
function exactNumber(text) {
  return /^-?\d+$/.test(text) && !isSafeNumber(text) ? BigInt(text) : Number(text);
}

export function parseJsonExact(text) {
  return parse(text, undefined, exactNumber);
}

function fromJsonText(text, where) {
  let json;
  try {
    json = parseJsonExact(text);
  } catch (err) {
    throw new Error(`${where}: invalid JSON: ${err.message}`);
  }
  return valueFromJson(json, where);
}

function fromNumber(text, special, info, where) {
  const kind = info?.kind;
  if (kind === 'Tensor') {
    throw new Error(`${where}: a bare number was given but the input is a ${formatValueInfo(info)} tensor; pass a JSON tensor or a .npy file`);
  }
  if (kind === 'Bool') throw new Error(`${where}: the input is a Bool; pass true or false, not ${text}`);
  const isInt = INTEGER.test(text);
  if (kind === 'Int' || (kind === undefined && isInt)) {
    if (!isInt) throw new Error(`${where}: the input is an Int but ${text} is not an integer`);
    const big = BigInt(text);
    return Number.isSafeInteger(Number(big)) ? Number(big) : big;
  }
  return special ?? Number(text);
}

async function fromFile(path, where) {
  let bytes;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (err) {
    const reason = err.code === 'ENOENT' ? 'no such file' : err.message;
    throw new Error(`${where}: '${path}' is not a JSON tensor, a number, true/false or a readable .npy file (${reason})`);
  }
  if (isNpy(bytes)) return parseNpy(bytes, `${where} (${path})`);
  const text = new TextDecoder().decode(bytes).trim();
  if (text.startsWith('{')) return fromJsonText(text, `${where} (${path})`);
  throw new Error(`${where}: '${path}' is neither a .npy file nor a JSON tensor`);
}
