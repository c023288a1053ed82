// Bytes each engine ships: the raw .wasm and its gzipped size (level 9, what
// a server would send).

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { REPO } from './cases.mjs';

function size(file) {
  if (!existsSync(file)) return null;
  const bytes = readFileSync(file);
  return { file: path.relative(REPO, file), bytes: bytes.length, gzip_bytes: gzipSync(bytes, { level: 9 }).length };
}

export function buildSizes(ortWasm) {
  return {
    trident: size(path.join(REPO, 'dist', 'wasm', 'trident.wasm')),
    trident_threads: size(path.join(REPO, 'dist', 'wasm', 'trident-threads.wasm')),
    ort: size(ortWasm),
  };
}
