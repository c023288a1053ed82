// LLM decoding speed: tokens per second of generate() on the tiny llamas that
// tools/export/llm/export_llama.py writes (export_llama's layout: KV caches in
// mutable buffers, llama::custom_sdpa and update_cache, 4-bit embeddings),
// once with portable float linears and once with every linear an XNNPACK
// 8da4w delegate (qdint8 x qbint4, as export_llama -X --qmode 8da4w writes
// it), greedy, on one thread and on two. Prefill (the prompt in one call) is
// timed apart from the per-token decode. There is no onnxruntime-web twin of
// these programs, so the figures stand alone.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './cases.mjs';
import { quantile } from './stats.mjs';

const MODELS = ['llama_tiny.pte', 'llama_tiny_8da4w.pte'];
const PROMPT = [1, 17, 230, 5, 99];

export async function measureLlmDecode(trident, options) {
  const models = [];
  for (const name of MODELS) models.push(await measureOne(trident, name, options));
  return { models };
}

async function measureOne(trident, name, { tokens, rounds, threadCounts, log }) {
  const file = path.join(REPO, 'build', 'models', name);
  if (!existsSync(file)) throw new Error(`${file} is missing: run 'npm run fixtures'`);
  const { api } = trident;
  const bytes = new Uint8Array(readFileSync(file));
  const results = [];
  for (const numThreads of threadCounts) {
    log(`LLM decode, ${name}, on ${numThreads} thread${numThreads > 1 ? 's' : ''} ...`);
    const model = await api.load(bytes, { threads: numThreads > 1, numThreads });
    try {
      const prefillMs = [];
      const decodeTokPerS = [];
      let ids = null;
      for (let r = 0; r < rounds + 1; r++) {
        const stamps = [];
        const start = performance.now();
        const got = [];
        for await (const id of api.generate(model, PROMPT, { maxNewTokens: tokens })) {
          stamps.push(performance.now());
          got.push(id);
        }
        if (ids !== null && String(got) !== String(ids)) throw new Error('greedy decoding gave different tokens across rounds');
        ids = got;
        if (r === 0) continue; // warm-up: V8 tiers the wasm up
        prefillMs.push(stamps[0] - start);
        decodeTokPerS.push(((stamps.length - 1) * 1000) / (stamps[stamps.length - 1] - stamps[0]));
      }
      results.push({
        threads: numThreads,
        prompt_tokens: PROMPT.length,
        new_tokens: ids.length,
        prefill_ms: quantile(prefillMs, 0.5),
        decode_tok_per_s: quantile(decodeTokPerS, 0.5),
        decode_tok_per_s_q1: quantile(decodeTokPerS, 0.25),
        decode_tok_per_s_q3: quantile(decodeTokPerS, 0.75),
      });
    } finally {
      model.dispose();
    }
  }
  return { model: name, results };
}
