// Which format a file is, from its first bytes (never from its name: a
// downloaded blob or a renamed file has no trustworthy extension).

import { ErrorCode, TridentError } from './errors.js';

export type ModelFormat = 'pte' | 'bpte' | 'pt2' | 'bef';

const FORMAT_NAMES: Record<ModelFormat, string> = {
  pte: 'ExecuTorch program (.pte)',
  bpte: 'ExecuTorch bundled program (.bpte)',
  pt2: 'PyTorch 2 archive (.pt2)',
  bef: 'TFRT binary executable (.bef)',
};

export function describeFormat(format: ModelFormat): string {
  return FORMAT_NAMES[format];
}

export function detectFormat(bytes: Uint8Array): ModelFormat {
  // FlatBuffer file identifiers sit at bytes 4..8: "ET12" for programs,
  // "BP08" for bundled programs. Only the two letters are fixed; the digits
  // are the schema version, which the runtime checks with a better message.
  if (hasIdentifier(bytes, 'ET')) return 'pte';
  if (hasIdentifier(bytes, 'BP')) return 'bpte';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'pt2';
  if (startsWith(bytes, [0x0b, 0xef])) return 'bef';
  throw new TridentError(
    `unrecognized model file: ${bytes.length < 8 ? `only ${bytes.length} bytes, ` : ''}first bytes ${hexPreview(bytes)}; ` +
      'expected an ExecuTorch .pte ("ET" at byte 4), a bundled .bpte ("BP" at byte 4), a .pt2 zip ("PK\\x03\\x04") or a TFRT .bef (0x0B 0xEF)',
    ErrorCode.InvalidProgram,
  );
}

function hasIdentifier(bytes: Uint8Array, letters: string): boolean {
  return (
    bytes.length >= 8 &&
    bytes[4] === letters.charCodeAt(0) &&
    bytes[5] === letters.charCodeAt(1) &&
    isDigit(bytes[6]!) &&
    isDigit(bytes[7]!)
  );
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

/** `4e 4f 54 5f 41 5f 50 54 ("NOT_A_PT")`: hex plus the printable text. */
function hexPreview(bytes: Uint8Array): string {
  const head = bytes.subarray(0, 8);
  if (head.length === 0) return '(empty file)';
  const hex = Array.from(head, (b) => b.toString(16).padStart(2, '0')).join(' ');
  const text = Array.from(head, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
  return `${hex} (${JSON.stringify(text)})`;
}
