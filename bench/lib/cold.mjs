// One engine, one file, in a fresh process: time from the file's bytes to
// the first output (the engine's wasm already instantiated, as in an app
// that loads it at start-up), and the peak wasm memory after that run.
// Prints one JSON line. Used by bench.mjs; run alone:
//   node bench/lib/cold.mjs trident|ort FILE INPUT.npy THREADS

import { readFileSync } from 'node:fs';
import { parseNpy } from '../../bin/cli/npy.mjs';
import { installMemoryProbe, wasmMemoryBytes } from './wasm-memory.mjs';

installMemoryProbe();
const { ortEngine, tridentEngine } = await import('./engines.mjs');

const [engineName, file, inputFile, threadsArg] = process.argv.slice(2);
const threads = Number(threadsArg ?? 1);
const engine = engineName === 'ort' ? await ortEngine({ threads }) : await tridentEngine({ threads });
const input = parseNpy(new Uint8Array(readFileSync(inputFile)), inputFile);
const bytes = new Uint8Array(readFileSync(file));
if (engineName === 'ort') {
  // Instantiate ORT's wasm before the clock starts, as Trident's is by
  // tridentEngine(): a throwaway session on the smallest model.
  const warm = await engine.open(new Uint8Array(readFileSync(new URL('../../build/models/mlp_tiny.onnx', import.meta.url))));
  warm.close();
}
const before = wasmMemoryBytes();
const start = performance.now();
const session = await engine.open(bytes);
const output = await session.run(input);
const firstOutputMs = performance.now() - start;
const peak = wasmMemoryBytes();
session.close();
process.stdout.write(`${JSON.stringify({ first_output_ms: firstOutputMs, wasm_memory_bytes: peak, wasm_memory_before_bytes: before, output_length: output.length })}\n`);
