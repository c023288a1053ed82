// The module-level calls of the runtime (as opposed to a loaded program's,
// native-program.ts): format detection, the TFRT tools, and the numbers
// runtimeInfo() reports. Their JSON answers are parsed here, so no file
// outside native/ touches the module.

import { TridentError } from '../errors.js';
import type { TridentModule } from './types.js';

/** The format the runtime detects from a file's first bytes; throws its error (naming them) otherwise. */
export function detectFormatIn(module: TridentModule, bytes: Uint8Array): string {
  const answer = JSON.parse(module.detectFormat(bytes.subarray(0, module.sniffBytes()))) as { format: string } | { error: string; code: number };
  if ('error' in answer) throw new TridentError(answer.error, answer.code);
  return answer.format;
}

export interface RawFormatInfo {
  id: string;
  description: string;
  supported: boolean;
}

export function fileFormatsIn(module: TridentModule): RawFormatInfo[] {
  return JSON.parse(module.fileFormats()) as RawFormatInfo[];
}

const versions = new WeakMap<TridentModule, string>();

/** The runtime's version, its wasm memory and its allocation count, without moving the count. */
export function runtimeStats(module: TridentModule): { version: string; memoryBytes: number; heapAllocations: number; heapBytes: number } {
  // Counted before anything here asks the module for a string (which
  // allocates), so that reading the count does not move it.
  const heapAllocations = module.heapAllocations();
  const heapBytes = module.heapBytes();
  let version = versions.get(module);
  if (version === undefined) {
    version = module.version();
    versions.set(module, version);
  }
  return { version, memoryBytes: module.HEAPU8.buffer.byteLength, heapAllocations, heapBytes };
}

/** MLIR text to BEF bytes, or the translator's `file:line:col:` error. */
export function translateMlir(module: TridentModule, source: string, filename: string): { bytes?: Uint8Array; error?: string } {
  return module.mlirToBef(source, filename);
}

/** tfrt_translate -verify-diagnostics: exit code and what did not match. */
export function verifyMlirTranslation(module: TridentModule, source: string, filename: string, split: boolean): { exitCode: number; err: string } {
  return JSON.parse(module.mlirToBefVerify(source, filename, split)) as { exitCode: number; err: string };
}

/** bef_executor over BEF bytes: what it prints and its exit code. */
export function runBef(module: TridentModule, bytes: Uint8Array, options: object): { out: string; err: string; exitCode: number } {
  return JSON.parse(module.befRun(bytes, JSON.stringify(options))) as { out: string; err: string; exitCode: number };
}
