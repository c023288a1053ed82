// The page every install-test app builds: a user's code, importing the
// package by name. The test server serves the model, its input and its
// expected output under /__models/; the query says which model and whether
// to use threads and worker mode. The outcome lands in window.__trident for
// the test.
import { env, load, runtimeInfo, Tensor } from 'trident-runtime';

/** A little-endian float32 .npy file's values. */
function npyFloat32(buffer) {
  const view = new DataView(buffer);
  const headerLength = view.getUint16(8, true);
  const header = new TextDecoder().decode(new Uint8Array(buffer, 10, headerLength));
  if (!header.includes("'descr': '<f4'")) throw new Error(`expected a float32 .npy, got ${header}`);
  return new Float32Array(buffer.slice(10 + headerLength));
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

async function main() {
  const query = new URLSearchParams(location.search);
  const name = query.get('model');
  env.threads = query.get('threads') === '1' ? true : query.get('threads') === '0' ? false : 'auto';
  const meta = await (await fetch(`/__models/${name}.json`)).json();
  const model = await load(`/__models/${name}.pte`, { worker: query.get('worker') === '1' });
  const input = new Tensor('float32', npyFloat32(await fetchBytes(`/__models/${name}.input.npy`)), meta.inputs[0].shape);
  const expected = npyFloat32(await fetchBytes(`/__models/${name}.expected.npy`));
  const [output] = await model.runTensors('forward', [input]);
  let maxError = 0;
  let maxReference = 0;
  for (let i = 0; i < expected.length; ++i) {
    maxError = Math.max(maxError, Math.abs(output.data[i] - expected[i]));
    maxReference = Math.max(maxReference, Math.abs(expected[i]));
  }
  const info = await runtimeInfo(model);
  return {
    ok: output.data.length === expected.length && maxError <= 1e-4 * maxReference,
    maxError,
    maxReference,
    threads: info.threads,
    numThreads: info.numThreads,
    wasm: info.wasm,
    worker: info.worker,
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
  };
}

main().then(
  (result) => (window.__trident = result),
  (err) => (window.__trident = { ok: false, error: String(err?.message ?? err) }),
);
