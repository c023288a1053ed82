// The TFRT tools through the real wasm build: mlirToBef / verifyMlirToBef /
// runBefExecutor from the API, and `trident mlir-to-bef` / `trident bef-run`
// as a user runs them. Hostile BEF bytes fail with a message and leave the
// module usable.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, REPO_ROOT } from '../helpers/paths.js';
import { ErrorCode, TridentError, mlirToBef, runBefExecutor, verifyMlirToBef } from '../helpers/trident.js';

const HEADER = 'Choosing memory leak check allocator.\nChoosing single-threaded work queue.\n';

const PROGRAM = `func.func @add(%a: i32, %b: i32) -> i32 {
  %c = tfrt.add.i32 %a, %b
  tfrt.return %c : i32
}

func.func @main() -> (i32, f64, !tfrt.chain) {
  %ch0 = tfrt.new.chain
  %x = tfrt.constant.i32 40
  %two = tfrt.constant.i32 2
  %y = tfrt.call @add(%x, %two) : (i32, i32) -> i32
  %ch1 = tfrt.print.i32 %y, %ch0
  %f = tfrt.constant.f64 0.5
  tfrt.return %y, %f, %ch1 : i32, f64, !tfrt.chain
}

func.func @divide() -> i32 {
  %zero = tfrt.constant.i32 0
  %q, %r = tfrt.div.i32 %zero, %zero
  tfrt.return %q : i32
}
`;

const tmp = mkdtempSync(path.join(tmpdir(), 'trident-tfrt-'));

function trident(args: string[], input?: Uint8Array) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, encoding: 'utf8', input, timeout: 60_000 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

describe('mlirToBef and runBefExecutor', () => {
  it('translate and run like tfrt_translate and bef_executor', async () => {
    const bef = await mlirToBef(PROGRAM, { filename: 'prog.mlir' });
    expect([...bef.subarray(0, 3)]).toEqual([0x0b, 0xef, 0x00]);
    const report = await runBefExecutor(bef);
    expect(report.stdout).toBe(
      `${HEADER}--- Not running 'add' because it has arguments.\n--- Running 'main':\nint32 = 42\n'main' returned 42,5.000000e-01,!tfrt.chain value\n` +
        `--- Running 'divide':\n'divide' returned <<error: Divide by zero>>\n`,
    );
    expect(report.stderr).toBe('prog.mlir:18:12: error: runtime error: Divide by zero\n');
    expect(report.exitCode).toBe(1);
  });

  it('verify runtime errors against expected-error comments', async () => {
    const source = PROGRAM.replace('  %q, %r = tfrt.div.i32', '  // expected-error @+1 {{Divide by zero}}\n  %q, %r = tfrt.div.i32');
    const bef = await mlirToBef(source, { filename: 'prog.mlir' });
    const verified = await runBefExecutor(bef, { verifySource: source, functions: ['divide'] });
    expect(verified.exitCode).toBe(0);
    expect(verified.stderr).toBe('');
    expect(verified.stdout).toBe(`${HEADER}--- Running 'divide':\n'divide' returned <<error: Divide by zero>>\n`);
    const wrong = await runBefExecutor(bef, { verifySource: PROGRAM, functions: ['main'], printErrorCode: true });
    expect(wrong.exitCode).toBe(0);
  });

  it('reports syntax errors at file:line:col', async () => {
    const bad = 'func.func @f() {\n  %x = tfrt.constant.i32\n  tfrt.return\n}\n';
    const error = await mlirToBef(bad, { filename: 'bad.mlir' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TridentError);
    expect((error as TridentError).code).toBe(ErrorCode.InvalidProgram);
    expect((error as TridentError).message).toMatch(/^bad\.mlir:\d+:\d+: /);
  });

  it('checks translator diagnostics per split chunk', async () => {
    const source = [
      'func.func @ok() {',
      '  tfrt.return',
      '}',
      '// -----',
      '// expected-error @+1 {{external functions are not allowed}}',
      'func.func private @ext() -> i32',
    ].join('\n');
    expect(await verifyMlirToBef(source, { filename: 's.mlir', splitInputFile: true })).toEqual({ exitCode: 0, stderr: '' });
    const unannounced = await verifyMlirToBef(source.replace(/\/\/ expected-error.*\n/, '\n'), { filename: 's.mlir', splitInputFile: true });
    expect(unannounced.exitCode).toBe(1);
    expect(unannounced.stderr).toMatch(/s\.mlir:6:\d+: error: unexpected error: external functions are not allowed/);
  });

  it('answers hostile BEF bytes with an error and stays usable', async () => {
    const good = await mlirToBef(PROGRAM);
    const cases: [Uint8Array, RegExp][] = [
      [new Uint8Array([1, 2, 3]), /invalid BEF file header detected/],
      [new Uint8Array([0x0b, 0xef, 0x07]), /Unknown BEF format version detected/],
      [good.subarray(0, 40), /BEF/],
      [new Uint8Array([0x0b, 0xef, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x7f]), /BEF/],
    ];
    for (const [bytes, message] of cases) {
      const report = await runBefExecutor(bytes);
      expect(report.exitCode).toBe(1);
      expect(report.stderr).toMatch(message);
    }
    // Every truncation of a real file fails cleanly (or, for trailing
    // optional sections, still runs).
    for (let n = 0; n < good.length; n += 7) {
      const report = await runBefExecutor(good.subarray(0, n));
      expect(report.stdout.startsWith(HEADER)).toBe(true);
    }
    const after = await runBefExecutor(good, { functions: ['main'] });
    expect(after.stdout).toContain("'main' returned 42,5.000000e-01,!tfrt.chain value");
  });
});

describe('trident mlir-to-bef and bef-run', () => {
  it('translate to a file and run it, also from stdin', () => {
    const mlir = path.join(tmp, 'prog.mlir');
    const bef = path.join(tmp, 'prog.bef');
    writeFileSync(mlir, PROGRAM);
    const t = trident(['mlir-to-bef', mlir, '-o', bef]);
    expect(t).toEqual({ stdout: '', stderr: '', status: 0 });
    const r = trident(['bef-run', bef, '--functions', 'main']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${HEADER}--- Running 'main':\nint32 = 42\n'main' returned 42,5.000000e-01,!tfrt.chain value\n`);
    const piped = trident(['bef-run', '-work_queue_type=mstd', '--functions=main'], readFileSync(bef));
    expect(piped.stdout).toBe(
      `Choosing memory leak check allocator.\nChoosing multi-threaded work queue.\n--- Running 'main':\nint32 = 42\n'main' returned 42,5.000000e-01,!tfrt.chain value\n`,
    );
  });

  it('inspect and run TFRT MLIR like any model file', () => {
    const mlir = path.join(tmp, 'run.mlir');
    writeFileSync(mlir, PROGRAM);
    const inspect = trident(['inspect', mlir]);
    expect(inspect.status).toBe(0);
    expect(inspect.stdout).toMatch(/add\s+i32 \(Int\), i32 \(Int\)\s+i32 \(Int\)/);
    const run = trident(['run', mlir, '--method', 'add', '--input', '40', '--input', '2', '--json']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^\{"outputs":\[\{"type":"Int","value":42\}\],"ms":[\d.]+\}\n$/);
    // A file loaded by path is named by it in locations.
    const failed = trident(['run', mlir, '--method', 'divide']);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toBe(`trident: run('divide'): Divide by zero (at ${mlir}:18:12)\n`);
  });

  it('fail in one line on a syntax error', () => {
    const mlir = path.join(tmp, 'bad.mlir');
    writeFileSync(mlir, 'func.func @f() {\n  %x = "op"(%nope) : (i32) -> i32\n  tfrt.return\n}\n');
    const r = trident(['mlir-to-bef', mlir, '-o', path.join(tmp, 'bad.bef')]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^trident: .*bad\.mlir:2:\d+: [^\n]*\n$/);
  });
});
