// Runs TFRT's own executor tests (../shared/corpus/bef/mlir_tests) through
// Trident: each .mlir goes through `trident mlir-to-bef`, then its RUN lines
// run with `trident bef-run` in place of bef_executor and LLVM's real
// FileCheck, exactly as lit would run them.
//
// Files that mix in-scope functions with out-of-scope (class c) kernels are
// also split per function: each named function runs alone
// (`--functions f`, plus `--allow-unknown-kernels` in files with class-c
// functions), its diagnostics are verified
// against the expected-error lines inside it, and FileCheck checks the CHECK
// lines the MANIFEST assigns to it. A function that reaches a kernel this
// build lacks is reported unsupported, naming the kernel.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI, REPO_ROOT } from '../../helpers/paths.js';
import { runBefExecutor } from '../../helpers/trident.js';
import { classOf, type ManifestFile, type TestClass } from './manifest.js';
import { maskToFunction, readMlirTest, type MlirFunction, type MlirTestFile } from './mlir-test-file.js';

export const FILECHECK = '/usr/lib/llvm-14/bin/FileCheck';
const WORK_DIR = path.join(REPO_ROOT, 'build', 'tfrt-peer');

export type Status = 'pass' | 'fail' | 'unsupported' | 'not applicable';

export interface RunLineResult {
  run: string;
  status: Status;
  detail: string;
}

export interface FunctionResult {
  name: string;
  cls: TestClass | undefined;
  runnable: boolean;
  status: Status;
  checkLines: number;
  detail: string;
}

export interface FileResult {
  file: string;
  kind: 'exec' | 'translator';
  translated: boolean;
  translateDetail: string;
  runLines: RunLineResult[];
  functions: FunctionResult[];
  fileLevelChecks: number;
}

function sh(command: string): { status: number; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['-o', 'pipefail', '-c', command], { encoding: 'utf8', cwd: REPO_ROOT, timeout: 120_000 });
  return { status: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A RUN line as a bash command over our tools, or undefined when it needs a tool Trident does not provide. */
export function translateRunLine(run: string, mlir: string, bef: string): string | undefined {
  if (/tfrt_opt|-bef-to-mlir/.test(run)) return undefined;
  const trident = `node ${quote(CLI)}`;
  // Paths go in last, so that tool names inside them (a folder called
  // bef_executor) are never rewritten.
  const BEF = '\u0001BEF\u0001';
  const MLIR = '\u0001MLIR\u0001';
  return run
    .replace(/%s\.bef/g, BEF)
    .replace(/%s/g, MLIR)
    .replace(
      /tfrt_translate -mlir-to-bef -split-input-file -verify-diagnostics/g,
      `${trident} mlir-to-bef --split-input-file --verify-diagnostics`,
    )
    .replace(/\b(bef_executor_lite|bef_executor|code_size_test_driver)\b/g, `${trident} bef-run --verify-diagnostics ${MLIR}`)
    .replace(/\bFileCheck\b/g, FILECHECK)
    .split(BEF)
    .join(quote(bef))
    .split(MLIR)
    .join(quote(mlir));
}

function befRunFlags(run: string): { functions?: string[]; initFunction?: string; printErrorCode: boolean; stderrToo: boolean } {
  const functions = /--functions[= ](\S+)/.exec(run)?.[1];
  return {
    functions: functions?.split(','),
    initFunction: /--test_init_function[= ](\S+)/.exec(run)?.[1],
    printErrorCode: /--print_error_code/.test(run),
    stderrToo: /2>&1/.test(run),
  };
}

export async function runFile(corpusDir: string, rel: string, manifest: ManifestFile): Promise<FileResult> {
  const mlir = path.join(corpusDir, rel);
  const bef = path.join(WORK_DIR, `${rel}.bef`);
  mkdirSync(path.dirname(bef), { recursive: true });
  const test = readMlirTest(mlir);
  const result: FileResult = {
    file: rel,
    kind: manifest.kind,
    translated: false,
    translateDetail: '',
    runLines: [],
    functions: [],
    fileLevelChecks: test.checks.filter((c) => c.owner === undefined).length,
  };
  const splitTest = test.runLines.some((r) => /-split-input-file/.test(r));
  if (!splitTest) {
    const t = sh(`node ${quote(CLI)} mlir-to-bef ${quote(mlir)} -o ${quote(bef)}`);
    result.translated = t.status === 0;
    result.translateDetail = t.stderr.trim();
    if (!result.translated) return result;
  } else {
    result.translated = true;
  }
  const executorRuns = test.runLines.filter((r) => /bef_executor|code_size_test_driver/.test(r));
  for (const run of test.runLines) {
    const command = translateRunLine(run, mlir, bef);
    if (command === undefined) {
      result.runLines.push({ run, status: 'not applicable', detail: 'needs tfrt_opt or BEF-to-MLIR, which Trident does not provide' });
      continue;
    }
    const r = sh(command);
    result.runLines.push({ run, status: r.status === 0 ? 'pass' : 'fail', detail: (r.stderr || r.stdout).trim().split('\n').slice(0, 12).join('\n') });
  }
  if (manifest.kind === 'exec' && executorRuns.length > 0) {
    const flags = befRunFlags(executorRuns[0]);
    // As upstream, an unknown kernel anywhere fails the whole file; only a
    // file with out-of-scope (class c) functions is run tolerating them.
    const tolerant = test.functions.some((f) => classOf(manifest, f.name) === 'c');
    // Upstream's whole-file run cannot pass with out-of-scope kernels in
    // it: say so instead of "fail"; the functions are judged one by one.
    if (tolerant) {
      for (const line of result.runLines) {
        if (line.status === 'fail') {
          line.status = 'unsupported';
          line.detail = 'the file has class-c functions; its functions are checked one by one below';
        }
      }
    }
    for (const fn of test.functions) {
      result.functions.push(await runFunction(test, fn, bef, { ...flags, tolerant }, manifest));
    }
  }
  return result;
}

async function runFunction(
  test: MlirTestFile,
  fn: MlirFunction,
  bef: string,
  flags: ReturnType<typeof befRunFlags> & { tolerant: boolean },
  manifest: ManifestFile,
): Promise<FunctionResult> {
  const cls = classOf(manifest, fn.name, test.lines.slice(fn.first - 1, fn.last).join('\n'));
  const checks = test.checks.filter((c) => c.owner === fn.name);
  const base: FunctionResult = { name: fn.name, cls, runnable: !fn.hasArguments, status: 'pass', checkLines: checks.length, detail: '' };
  // A RUN line that picks its own functions checks the file as one unit.
  if (flags.functions !== undefined || flags.initFunction !== undefined) {
    return { ...base, status: 'not applicable', detail: 'checked by the whole-file RUN line' };
  }
  const { readFileSync } = await import('node:fs');
  const report = await runBefExecutor(new Uint8Array(readFileSync(bef)), {
    functions: [fn.name],
    allowUnknownKernels: flags.tolerant,
    printErrorCode: flags.printErrorCode,
    verifySource: maskToFunction(test, fn),
  });
  const unsupported = /uses kernel '([^']+)', which this build does not support/.exec(report.stderr);
  if (unsupported) return { ...base, status: 'unsupported', detail: `kernel ${unsupported[1]}` };
  const output = flags.stderrToo ? report.stdout + report.stderr : report.stdout;
  if (report.exitCode !== 0) {
    return { ...base, status: 'fail', detail: `bef-run exit ${report.exitCode}: ${report.stderr.trim().slice(0, 500)}` };
  }
  if (checks.length === 0) return base;
  const checkFile = path.join(WORK_DIR, `${path.basename(test.path)}.${fn.name}.checks`);
  const outFile = `${checkFile}.out`;
  writeFileSync(checkFile, `${checks.map((c) => c.text).join('\n')}\n`);
  writeFileSync(outFile, output);
  const r = sh(`${FILECHECK} ${quote(checkFile)} --input-file ${quote(outFile)}`);
  if (r.status !== 0) return { ...base, status: 'fail', detail: r.stderr.trim().split('\n').slice(0, 8).join('\n') };
  return base;
}
