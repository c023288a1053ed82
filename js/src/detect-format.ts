// Which format a file is, from its first bytes (never from its name: a
// downloaded blob or a renamed file has no trustworthy extension). The
// runtime's format registry decides; this layer only asks it, so a format
// is told apart in exactly one place.

import { loadWasm } from './native/load-wasm.js';
import { detectFormatIn, fileFormatsIn } from './native/runtime-calls.js';

/** The id of a format the runtime recognizes. */
export type ModelFormat = 'pte' | 'bpte' | 'pt2' | 'bef' | 'mlir';

/** A format the runtime recognizes, and whether this build runs it. */
export interface FormatInfo {
  readonly id: ModelFormat;
  /** e.g. "ExecuTorch program (.pte)". */
  readonly description: string;
  readonly supported: boolean;
}

/**
 * The format of a model file, from its first bytes. Throws a TridentError
 * (InvalidProgram) naming those bytes and what each format expects when the
 * file is none of them. Loads the runtime if needed.
 */
export async function detectFormat(bytes: Uint8Array): Promise<ModelFormat> {
  return detectFormatIn((await loadWasm()).module, bytes) as ModelFormat;
}

/** Every format the runtime recognizes (loads the runtime if needed). */
export async function fileFormats(): Promise<FormatInfo[]> {
  return fileFormatsIn((await loadWasm()).module) as FormatInfo[];
}
