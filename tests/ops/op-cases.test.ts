// Every op case of tests/ops/cases (written by tools/export/export_ops.py,
// with PyTorch's outputs) and every XNNPACK node case of
// tests/ops/xnnpack_cases (tools/export/xnnpack/export_xnn_cases.py) through
// the wasm build and the public API, once with the kernels' SIMD paths and
// once with their scalar reference paths.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, repoPath } from '../helpers/paths.js';
import { Tensor, env, load, type DType, type Model } from '../helpers/trident.js';

interface CaseTensor { dtype: DType; shape: number[]; data: string; dim_order?: number[] }
/** The expected result of ops that return one scalar (sym_size.int, ...). */
interface CaseScalar { kind: 'Int' | 'Double' | 'Bool'; value: string }
interface OpCase {
  method: string; desc: string; inputs: CaseTensor[]; outputs: Array<CaseTensor | CaseScalar>;
  rtol: number; atol: number; check: string;
  /** float16/bfloat16 outputs: at most this many representable values from PyTorch's, instead of rtol/atol. */
  max_ulps?: number;
}
interface OpCaseFile { op: string; cases: OpCase[] }

const CASES_DIR = repoPath('tests', 'ops', 'cases');
const XNNPACK_CASES_DIR = repoPath('tests', 'ops', 'xnnpack_cases');
const caseFiles = (dir: string): string[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(dir, f)) : [];
const files = [...caseFiles(CASES_DIR), ...caseFiles(XNNPACK_CASES_DIR)];

const ARRAYS: Record<DType, new (buffer: ArrayBuffer) => ArrayLike<number | bigint>> = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, bfloat16: Uint16Array,
  int8: Int8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array,
  uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array, uint64: BigUint64Array, bool: Uint8Array,
} as Record<DType, new (buffer: ArrayBuffer) => ArrayLike<number | bigint>>;
const FLOATS = new Set(['float32', 'float64', 'float16', 'bfloat16']);

function tensorOf(t: CaseTensor): Tensor {
  const bytes = Buffer.from(t.data, 'base64');
  const buffer = new ArrayBuffer(bytes.length);
  new Uint8Array(buffer).set(bytes);
  return new Tensor(t.dtype, new ARRAYS[t.dtype](buffer) as never, t.shape);
}

/** The check of output `index`: one for all outputs, or a comma-separated list of one per output. */
function checkOf(c: OpCase, index: number): string {
  const parts = c.check.split(',');
  return parts.length > 1 ? parts[index]! : parts[0]!;
}

/**
 * The position of a float16/bfloat16 bit pattern among the finite values,
 * ordered (-0 and +0 both 0): adjacent values are one apart, across binades
 * and through the subnormals. Both formats are sign-magnitude over 16 bits.
 */
function halfOrdinal(bits: number): number {
  return bits & 0x8000 ? -(bits & 0x7fff) : bits;
}

/** Whether a float16/bfloat16 bit pattern is an infinity or NaN (all exponent bits set). */
function halfNonFinite(dtype: DType, bits: number): boolean {
  const exp = dtype === 'float16' ? 0x7c00 : 0x7f80;
  return (bits & exp) === exp;
}

/** '' when every element is within `maxUlps` representable values of PyTorch's; NaN equals NaN, infinities only themselves. */
function ulpDifference(maxUlps: number, expected: CaseTensor, actual: Tensor): string {
  const wantTensor = tensorOf(expected);
  const want = wantTensor.data as Uint16Array;
  const got = actual.data as Uint16Array;
  const wantValues = wantTensor.toArray() as number[];
  const gotValues = actual.toArray() as number[];
  for (let i = 0; i < want.length; i++) {
    const ulps = Math.abs(halfOrdinal(got[i]!) - halfOrdinal(want[i]!));
    const ok = halfNonFinite(expected.dtype, want[i]!) || halfNonFinite(expected.dtype, got[i]!)
      ? (Number.isNaN(wantValues[i]) && Number.isNaN(gotValues[i])) || wantValues[i] === gotValues[i]
      : ulps <= maxUlps;
    if (!ok) return `element ${i}: got ${gotValues[i]}, PyTorch gives ${wantValues[i]} (${ulps} ulps, max_ulps ${maxUlps})`;
  }
  return '';
}

/** '' when output `index` passes the case's check; otherwise what differs. */
function difference(c: OpCase, index: number, expected: CaseTensor, actual: Tensor): string {
  if (actual.dtype !== expected.dtype || JSON.stringify(actual.shape) !== JSON.stringify(expected.shape)) {
    return `got ${actual.dtype}[${actual.shape}], PyTorch gives ${expected.dtype}[${expected.shape}]`;
  }
  const check = checkOf(c, index);
  if (check === 'shape') return '';
  const got = actual.toArray().flat(Infinity as 1) as Array<number | bigint | boolean>;
  if (check.startsWith('range:')) {
    const [lo, hi] = check.slice(6).split(':').map(Number);
    const bad = got.findIndex((v) => !(Number(v) >= lo! && Number(v) < hi!));
    return bad < 0 ? '' : `element ${bad} = ${got[bad]} is outside [${lo}, ${hi})`;
  }
  if (check === 'permutation') {
    const sorted = got.map(Number).sort((a, b) => a - b);
    return sorted.every((v, i) => v === i) ? '' : 'not a permutation of 0..n-1';
  }
  if (c.max_ulps !== undefined && (expected.dtype === 'float16' || expected.dtype === 'bfloat16')) {
    return ulpDifference(c.max_ulps, expected, actual);
  }
  const want = tensorOf(expected).toArray().flat(Infinity as 1) as Array<number | bigint | boolean>;
  for (let i = 0; i < want.length; i++) {
    const a = got[i]!;
    const e = want[i]!;
    if (FLOATS.has(expected.dtype)) {
      const av = Number(a);
      const ev = Number(e);
      const ok = (Number.isNaN(av) && Number.isNaN(ev)) || av === ev || Math.abs(av - ev) <= c.atol + c.rtol * Math.abs(ev);
      if (!ok) return `element ${i}: got ${av}, PyTorch gives ${ev} (rtol ${c.rtol}, atol ${c.atol})`;
    } else if (a !== e) {
      return `element ${i}: got ${a}, PyTorch gives ${e}`;
    }
  }
  return '';
}

function scalarDifference(expected: CaseScalar, actual: unknown): string {
  const want = expected.kind === 'Bool' ? expected.value === 'true' : expected.kind === 'Int' ? Number(expected.value) : Number(expected.value);
  const got = typeof actual === 'bigint' ? Number(actual) : actual;
  return got === want ? '' : `got ${String(actual)}, PyTorch gives ${expected.kind} ${expected.value}`;
}

async function runCases(model: Model, file: OpCaseFile): Promise<string[]> {
  const failures: string[] = [];
  for (const c of file.cases) {
    try {
      const outs = await model.run(c.method, c.inputs.map(tensorOf));
      if (outs.length !== c.outputs.length) {
        failures.push(`${c.method} (${c.desc}): ${outs.length} outputs, expected ${c.outputs.length}`);
        continue;
      }
      c.outputs.forEach((expected, o) => {
        const diff = 'kind' in expected ? scalarDifference(expected, outs[o]) : difference(c, o, expected, outs[o] as Tensor);
        if (diff) failures.push(`${c.method} (${c.desc}) output ${o}: ${diff}`);
      });
    } catch (e) {
      failures.push(`${c.method} (${c.desc}): ${(e as Error).message}`);
    }
  }
  return failures;
}

describe('op cases against PyTorch', () => {
  afterAll(() => { env.simd = true; });

  it('has cases, ATen ops and XNNPACK nodes', () => {
    expect(caseFiles(CASES_DIR).length).toBeGreaterThan(0);
    expect(caseFiles(XNNPACK_CASES_DIR).length).toBeGreaterThan(0);
  });

  for (const jsonPath of files) {
    const file = JSON.parse(fs.readFileSync(jsonPath, 'utf8')) as OpCaseFile;
    it(`${file.op}: ${file.cases.length} cases, SIMD and scalar paths`, async () => {
      const model = await load(jsonPath.replace(/\.json$/, '.pte'));
      try {
        for (const simd of [true, false]) {
          env.simd = simd;
          const failures = await runCases(model, file);
          expect(failures, `${file.op} with simd=${simd}`).toEqual([]);
        }
      } finally {
        env.simd = true;
        model.dispose();
      }
    });
  }
});

describe('the trident CLI on generated op cases', () => {
  it('runs a case method and prints PyTorch\'s result', () => {
    const file = JSON.parse(fs.readFileSync(path.join(CASES_DIR, 'aten__abs.out.json'), 'utf8')) as OpCaseFile;
    const c = file.cases.find((x) => x.inputs[0]?.dtype === 'float32' && x.inputs[0].shape.length > 0 && !x.inputs[0].dim_order)!;
    const input = tensorOf(c.inputs[0]!);
    const r = spawnSync(
      process.execPath,
      [CLI, 'run', path.join(CASES_DIR, 'aten__abs.out.pte'), '--method', c.method, '--json', '--input',
        JSON.stringify({ dtype: 'float32', shape: input.shape, values: Array.from(input.data as Float32Array) })],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    const out = (JSON.parse(r.stdout) as { outputs: Array<{ dtype: string; shape: number[]; values: number[] }> }).outputs[0]!;
    const want = Array.from(tensorOf(c.outputs[0] as CaseTensor).data as Float32Array);
    expect(out.dtype).toBe('float32');
    expect(out.shape).toEqual(c.outputs[0] && 'shape' in c.outputs[0] ? c.outputs[0].shape : []);
    expect(out.values).toEqual(want);
  });
});
