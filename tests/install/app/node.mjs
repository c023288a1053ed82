// The Node install check: a script in a fresh app that imports the package
// by name (its "node" export condition) and runs a .pte, a .pt2 and TFRT
// MLIR text, from file paths. argv: the .pte, the .pt2, their input and
// expected .npy files (the same model), which build ('0' or '1' threads) and
// whether to load in worker mode ('0' or '1').
// Prints one JSON line: the outcome.
import { readFileSync } from 'node:fs';
import { env, load, runtimeInfo, Tensor } from 'trident-runtime';

const [pte, pt2, inputNpy, expectedNpy, threads, worker] = process.argv.slice(2);
env.threads = threads === '1';
env.worker = worker === '1';

function npyFloat32(file) {
  const bytes = readFileSync(file);
  const headerLength = bytes.readUInt16LE(8);
  const header = bytes.subarray(10, 10 + headerLength).toString('latin1');
  const shape = JSON.parse(`[${/'shape': \(([^)]*)\)/.exec(header)[1].replace(/,\s*$/, '')}]`);
  const data = bytes.subarray(10 + headerLength);
  return { shape, values: new Float32Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)) };
}

function maxRelativeError(actual, expected) {
  let error = 0;
  let reference = 0;
  for (let i = 0; i < expected.length; ++i) {
    error = Math.max(error, Math.abs(actual[i] - expected[i]));
    reference = Math.max(reference, Math.abs(expected[i]));
  }
  return actual.length === expected.length ? error / reference : Infinity;
}

const input = npyFloat32(inputNpy);
const expected = npyFloat32(expectedNpy).values;
const result = {};
for (const [name, file] of [['pte', pte], ['pt2', pt2]]) {
  const model = await load(file);
  const [output] = await model.runTensors(model.methods[0].name, [new Tensor('float32', input.values, input.shape)]);
  result[name] = { format: model.format, error: maxRelativeError(output.data, expected) };
  model.dispose();
}
const mlir = await load(`func.func @divide(%a: i32, %b: i32) -> (i32, i32) {
  %q, %r = tfrt.div.i32 %a, %b
  tfrt.return %q, %r : i32, i32
}`);
result.mlir = { format: mlir.format, outputs: await mlir.run('divide', [7, 2]) };
const info = await runtimeInfo(mlir);
mlir.dispose();
result.threads = info.threads;
result.worker = info.worker;
result.numThreads = info.numThreads;
result.wasm = info.wasm;
console.log(JSON.stringify(result));
