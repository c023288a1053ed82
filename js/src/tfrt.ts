// TFRT tools over the runtime: the MLIR-to-BEF translator and a runner that
// prints exactly what TFRT's `bef_executor` prints. The CLI's `mlir-to-bef`
// and `bef-run` commands and the demo page use these; TFRT's own executor
// tests run through them under LLVM FileCheck.

import { ErrorCode, TridentError } from './errors.js';
import { loadWasm } from './native/load-wasm.js';
import { runBef, translateMlir, verifyMlirTranslation } from './native/runtime-calls.js';

export interface MlirToBefOptions {
  /** The path recorded in the file's locations, as tfrt_translate records its input path. */
  filename?: string;
}

/**
 * Translates MLIR text (TFRT's `tfrt`, `tfrt_test`, `tfrt_dht` and `ts`
 * dialects) to BEF bytes laid out as `tfrt_translate -mlir-to-bef` lays them
 * out. A syntax or translation error throws a TridentError whose message
 * starts with `file:line:col:`.
 */
export async function mlirToBef(source: string, options: MlirToBefOptions = {}): Promise<Uint8Array> {
  const { module } = await loadWasm();
  const answer = translateMlir(module, source, options.filename ?? '<mlir>');
  if (answer.bytes === undefined) {
    throw new TridentError(answer.error ?? 'mlir-to-bef failed', ErrorCode.InvalidProgram);
  }
  return answer.bytes;
}

export interface TranslationCheck {
  /** 0 when the translator reported exactly the announced errors. */
  exitCode: number;
  /** What did not match, as MLIR-style diagnostics. */
  stderr: string;
}

/**
 * `tfrt_translate -mlir-to-bef -verify-diagnostics [-split-input-file]`:
 * translates each chunk and checks the translator's errors against the
 * source's `expected-error` comments.
 */
export async function verifyMlirToBef(source: string, options: MlirToBefOptions & { splitInputFile?: boolean } = {}): Promise<TranslationCheck> {
  const { module } = await loadWasm();
  const answer = verifyMlirTranslation(module, source, options.filename ?? '<mlir>', options.splitInputFile === true);
  return { exitCode: answer.exitCode, stderr: answer.err };
}

export interface BefExecutorOptions {
  /** Run only these functions, in this order (`--functions`). */
  functions?: string[];
  /** Run this function first (`--test_init_function`). */
  initFunction?: string;
  /** Print error codes in results (`--print_error_code`). */
  printErrorCode?: boolean;
  /** Say a multi-threaded queue was chosen (`--work_queue_type=mstd`); the runtime still runs on one thread. */
  multiThreadedQueue?: boolean;
  /** Load files that name kernels this build lacks; those kernels fail when they run. */
  allowUnknownKernels?: boolean;
  /** The .mlir source whose `expected-error` comments runtime errors must match. */
  verifySource?: string;
}

export interface BefExecutorReport {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Runs every argument-less function of a BEF file as TFRT's bef_executor does, and returns what it prints. */
export async function runBefExecutor(bytes: Uint8Array, options: BefExecutorOptions = {}): Promise<BefExecutorReport> {
  const { module } = await loadWasm();
  const answer = runBef(module, bytes, options);
  return { stdout: answer.out, stderr: answer.err, exitCode: answer.exitCode };
}
