// Reading and checking GOLDENS.json cases. The comparison rule is the one of
// ../shared/tools/goldens.py: |got - want| <= atol + rtol * |want|, NaN
// equals NaN, booleans and strings compare exactly, dtype and shape must match.
import { readFileSync } from 'node:fs';
import {
  stringifyJson,
  valueFromJson,
  valueToJson,
  type InputValue,
  type OutputValue,
  type ValueKind,
} from './trident.js';

export interface GoldenCase {
  method?: string;
  inputs?: unknown[];
  outputs?: unknown[];
  input_file?: string;
  input_shape?: number[];
  expected_argmax?: number;
}

export interface GoldenEntry {
  method?: string;
  cases?: GoldenCase[];
  tolerance?: unknown;
  data_files?: string[];
  embedded?: string;
  method_names_superset?: string[];
  input_file?: string;
  input_split?: Array<[string, number[]]>;
  expected_file?: string;
  expected_output_index?: number;
  expected_shape?: number[];
  property?: string;
}

export type Tolerance = { rtol: number; atol: number };

export function readGoldens(file: string): Record<string, GoldenEntry> {
  return (JSON.parse(readFileSync(file, 'utf8')) as { goldens: Record<string, GoldenEntry> }).goldens;
}

/** "exact" or missing -> 0/0; {rtol, atol}; or a string "rtol=1e-5, atol=1e-8". */
export function toleranceOf(entry: GoldenEntry): Tolerance {
  const t = entry.tolerance ?? 'exact';
  if (typeof t === 'object' && t !== null) {
    const o = t as { rtol?: number; atol?: number };
    return { rtol: Number(o.rtol ?? 0), atol: Number(o.atol ?? 0) };
  }
  if (typeof t === 'string' && t !== 'exact') {
    const both = /rtol=atol=([\d.eE+-]+)/.exec(t)?.[1];
    const rtol = Number(both ?? /rtol=([\d.eE+-]+)/.exec(t)?.[1] ?? 0);
    const atol = Number(both ?? /atol=([\d.eE+-]+)/.exec(t)?.[1] ?? 0);
    return { rtol, atol };
  }
  return { rtol: 0, atol: 0 };
}

/**
 * A golden input: the JSON tensor/scalar forms, or a bare number or boolean
 * (run() reads a number as Int or Double according to the signature).
 */
export function goldenInput(json: unknown, where: string): InputValue {
  if (typeof json === 'boolean' || typeof json === 'number') return json;
  return valueFromJson(json, where) as InputValue;
}

function flat(v: unknown): unknown[] {
  return Array.isArray(v) ? v.flatMap(flat) : [v];
}

function toNumber(v: unknown): number {
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  return Number(v);
}

export function close(got: unknown, want: unknown, tol: Tolerance): boolean {
  if (typeof got === 'boolean' || typeof want === 'boolean' || want === null || got === null) return got === want;
  if (typeof got === 'bigint' || typeof want === 'bigint') {
    if (tol.rtol === 0 && tol.atol === 0) return BigInt(got as number) === BigInt(want as number);
  }
  const x = toNumber(got);
  const y = toNumber(want);
  if (Number.isNaN(y) || Number.isNaN(x)) return Number.isNaN(x) && Number.isNaN(y);
  if (x === y) return true; // also equal infinities
  return Math.abs(x - y) <= tol.atol + tol.rtol * Math.abs(y);
}

/** null if `got` matches the expected JSON form, else what differs. */
export function mismatch(got: OutputValue, kind: ValueKind | undefined, want: unknown, tol: Tolerance): string | null {
  return mismatchJson(valueToJson(got, kind), want, tol);
}

/** mismatch() on a value already in JSON form ({dtype,shape,values} or {type,value}). */
export function mismatchJson(got: unknown, want: unknown, tol: Tolerance): string | null {
  const g = got as Record<string, unknown>;
  const w = want as Record<string, unknown>;
  if ('values' in w || 'dtype' in w) {
    if (!('values' in g)) return `expected a tensor, got ${stringifyJson(g)}`;
    if (w['dtype'] !== undefined && g['dtype'] !== w['dtype']) return `dtype ${g['dtype']} != ${w['dtype']}`;
    if (w['shape'] !== undefined && JSON.stringify(g['shape']) !== JSON.stringify(w['shape'])) {
      return `shape [${g['shape']}] != [${w['shape']}]`;
    }
    const gv = flat(g['values']);
    const wv = flat(w['values'] ?? []);
    if (gv.length !== wv.length) return `count ${gv.length} != ${wv.length}`;
    const bad = gv.findIndex((x, i) => !close(x, wv[i], tol));
    return bad < 0 ? null : `values differ first at ${bad}: ${String(gv[bad])} vs ${String(wv[bad])}`;
  }
  if ('value' in w) {
    if (w['type'] !== undefined && g['type'] !== w['type']) return `type ${g['type']} != ${w['type']}`;
    return close(g['value'], w['value'], tol) ? null : `value ${String(g['value'])} != ${String(w['value'])}`;
  }
  return `unknown expected form ${stringifyJson(want)}`;
}

/** Little-endian float32 values of a binary file. */
export function readFloat32File(file: string): Float32Array {
  const bytes = readFileSync(file);
  const out = new Float32Array(bytes.length / 4);
  new Uint8Array(out.buffer).set(bytes.subarray(0, out.length * 4));
  return out;
}

export function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}

/** Deterministic standard-normal values (LCG + Box-Muller) for seeded runs. */
export function seededNormal(count: number, seed: number): Float32Array {
  let state = (seed * 2654435761 + 1) >>> 0;
  const uniform = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state + 0.5) / 4294967296;
  };
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    out[i] = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  }
  return out;
}

/**
 * The checks a GOLDENS "property" string asks for, e.g. "output shape [2,8],
 * finite, non-constant"; null when the string says nothing this understands.
 */
export interface OutputProperty {
  shape?: number[];
  finite: boolean;
  nonConstant: boolean;
}

export function parseProperty(text: string): OutputProperty | null {
  const shape = /output shape \[([\d,\s]+)\]/.exec(text)?.[1]?.split(',').map((s) => Number(s.trim()));
  const finite = /\bfinite\b/.test(text);
  const nonConstant = /non-constant|not all equal/.test(text);
  if (!shape && !finite && !nonConstant) return null;
  return { shape, finite, nonConstant };
}
