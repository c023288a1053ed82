// The two runtimes behind one small interface, so the benchmark times both
// the same way: open(bytes) -> session; session.run(input) -> Float32Array;
// session.close(). Inputs are { data: Float32Array, shape: number[] }.

import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Trident from this checkout's build (dist/). */
export async function tridentEngine({ threads }) {
  let api;
  try {
    api = await import(new URL('../../dist/js/index-node.js', import.meta.url).href);
  } catch (err) {
    throw new Error(`cannot import dist/js/index-node.js (${err.message}); run 'bash scripts/build.sh' first`);
  }
  // One thread: the single-threaded build, as a page without cross-origin
  // isolation gets it. More: the threads build with a pool of that size.
  api.env.threads = threads > 1;
  // The threads build's pool (it also serves the 2-against-1 timing).
  api.env.numThreads = Math.max(2, threads);
  const info = await api.runtimeInfo();
  return {
    name: 'trident',
    build: info.threads ? 'trident-threads.wasm' : 'trident.wasm',
    version: info.version,
    /** options: load()'s, e.g. { threads: true, numThreads: 2 }. */
    async open(bytes, options = {}) {
      const model = await api.load(bytes, options);
      // .pte names its method 'forward', a .pt2 its graph's name: run the first.
      const method = model.methods[0];
      return {
        async run(input) {
          const [out] = await model.run(method.name, [new api.Tensor('float32', input.data, input.shape)]);
          return out.data;
        },
        close() {
          model.dispose();
        },
      };
    },
    api,
  };
}

/** onnxruntime-web's CPU build (`onnxruntime-web/wasm`: SIMD, threads when asked). */
export async function ortEngine({ threads }) {
  let ort;
  try {
    ort = await import('onnxruntime-web/wasm');
  } catch (err) {
    throw new Error(`cannot import onnxruntime-web (${err.message}); run 'npm ci' first`);
  }
  ort.env.wasm.numThreads = threads;
  ort.env.wasm.simd = true;
  ort.env.logLevel = 'error';
  const options = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
  return {
    name: 'onnxruntime-web',
    build: 'ort-wasm-simd-threaded.wasm',
    version: ort.env.versions?.web ?? 'unknown',
    async open(bytes) {
      const session = await ort.InferenceSession.create(bytes, options);
      const inputName = session.inputNames[0];
      const outputName = session.outputNames[0];
      return {
        async run(input) {
          const feeds = { [inputName]: new ort.Tensor('float32', input.data, input.shape) };
          const results = await session.run(feeds);
          const data = results[outputName].data;
          for (const tensor of Object.values(results)) tensor.dispose?.();
          return data;
        },
        close() {
          session.release();
        },
      };
    },
    ortWasmPath: `${REPO}node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm`,
  };
}
