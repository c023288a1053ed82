// What the benchmark runs: the exporter's models (scripts/fixtures.sh writes
// them to build/models and build/pt2) in each of Trident's paths, each
// against its ONNX twin (same weights, same input) in onnxruntime-web.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MODELS = path.join(REPO, 'build', 'models');
const PT2 = path.join(REPO, 'build', 'pt2');

// Trident's three ways to run a model, by the file they start from.
const PATHS = {
  pte: (name) => path.join(MODELS, `${name}.pte`),
  pte_xnnpack: (name) => path.join(MODELS, `${name}_xnnpack.pte`),
  // Layout C: what torch 2.9 and later write (tools/export/pt2/README.md).
  pt2: (name) => path.join(PT2, `${name}.core.C.pt2`),
};

// kind 'model': the ratio target applies (ours / ORT <= 0.8 on every path).
// kind 'sgemm': the ceiling target applies at 512 and 1024.
// ceilingRounds: the ceiling kernel is also timed in each of the case's rounds.
// scaling: also timed on 2 threads against 1 (the threads target).
const FULL = [
  { name: 'mobilenet_v2', kind: 'model', scaling: true, paths: ['pte', 'pte_xnnpack', 'pt2'] },
  { name: 'resnet18', kind: 'model', scaling: true, paths: ['pte', 'pte_xnnpack', 'pt2'] },
  { name: 'transformer_layer', kind: 'model', paths: ['pte', 'pte_xnnpack', 'pt2'] },
  { name: 'sgemm_256', kind: 'micro', ceilingRounds: true, paths: ['pte'] },
  { name: 'sgemm_512', kind: 'sgemm', ceilingRounds: true, paths: ['pte'] },
  { name: 'sgemm_1024', kind: 'sgemm', ceilingRounds: true, paths: ['pte', 'pte_xnnpack'] },
  { name: 'conv3x3_mobilenet', kind: 'micro', paths: ['pte', 'pte_xnnpack'] },
  { name: 'dwconv3x3_mobilenet', kind: 'micro', paths: ['pte', 'pte_xnnpack'] },
];

// --quick: the same machinery on small files, for npm test.
const QUICK = [
  { name: 'transformer_encoder', kind: 'smoke', scaling: true, paths: ['pte', 'pte_xnnpack', 'pt2'] },
  { name: 'sgemm_256', kind: 'micro', ceilingRounds: true, paths: ['pte'] },
];

function readIndex() {
  const file = path.join(MODELS, 'index.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: run 'bash scripts/fixtures.sh' first`);
  return JSON.parse(readFileSync(file, 'utf8')).models;
}

/** The cases to run, each with its files resolved and checked to exist. */
export function benchCases({ quick, only }) {
  const index = readIndex();
  let list = quick ? QUICK : FULL;
  if (only) {
    const unknown = only.filter((n) => !FULL.concat(QUICK).some((c) => c.name === n));
    if (unknown.length) throw new Error(`--only: unknown case ${unknown.join(', ')}; known: ${FULL.map((c) => c.name).join(', ')}`);
    list = FULL.concat(QUICK).filter((c, i, all) => only.includes(c.name) && all.findIndex((d) => d.name === c.name) === i);
  }
  return list.map((c) => {
    const meta = index[c.name];
    if (!meta) throw new Error(`${c.name} is not in build/models/index.json: run 'bash scripts/fixtures.sh'`);
    const files = {
      onnx: path.join(MODELS, `${c.name}.onnx`),
      input: path.join(MODELS, meta.input),
      expected: path.join(MODELS, meta.expected),
    };
    for (const p of c.paths) files[p] = PATHS[p](c.name);
    for (const [what, file] of Object.entries(files)) {
      if (!existsSync(file)) throw new Error(`${c.name}: ${what} file ${file} is missing: run 'bash scripts/fixtures.sh'`);
    }
    return { ...c, description: meta.description, flops: meta.flops ?? null, tolerance: meta.tolerance, files };
  });
}
