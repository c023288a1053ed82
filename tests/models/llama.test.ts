// A tiny llama written as ExecuTorch's export_llama writes it
// (tools/export/llm/export_llama.py, into build/models/ by `bash scripts/fixtures.sh`):
// forward(tokens int64[1, <=127], input_pos int64[1]) -> logits float32[1, 512] with
// embedding_4bit, RMSNorm, interleaved RoPE, llama::update_cache into KV caches that are
// mutable buffers (planned memory kept across runs), llama::custom_sdpa with start_pos
// read by _local_scalar_dense, et_view views, portable linears; plus export_llama's
// constant metadata methods. llama_tiny_static is the --disable_dynamic_shape form
// (one token per call, RoPE rows by index.Tensor). llama_tiny_8da4w(_static) is the form
// export_llama -X --qmode 8da4w writes: each linear an XNNPACK delegate call (qdint8
// activations from a Convert node, qbint4 weights with bf16 block scales), against eager
// 8da4w (torchao's fake-quantized linears). Every forward call of eager PyTorch's
// greedy decoding (NAME.expected.json: the prompt in one call, and token by token) is
// replayed: same logits within the file's tolerance (1e-5 * max(1, max|ref|) for the
// float forms; for 8da4w the bound its tolerance_basis derives from int8 rounding flips),
// same 32 token ids. The KV caches
// must carry the context from one run to the next, and resetState() must clear them.
// Without the files the suite is skipped, except in CI (CI=true), where that is a failure.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';
import { errorBound, maxErrors, type Tolerance } from '../helpers/model-errors.js';
import { Tensor, generate, llmMetadata, load, type Model } from '../helpers/trident.js';

const MODELS_DIR = path.join(REPO_ROOT, 'build', 'models');
const VARIANTS = ['llama_tiny', 'llama_tiny_static', 'llama_tiny_8da4w', 'llama_tiny_8da4w_static'];

interface Call {
  tokens: number[];
  input_pos: number;
  /** The token eager decoding chose from this call's logits (greedy). */
  next?: number;
  top5: Array<[number, number]>;
  /** float32 [1, vocab], little-endian, base64. */
  logits: string;
}

interface RunRecord {
  description: string;
  generated: number[];
  calls: Call[];
}

interface Reference {
  pte: string;
  config: { vocab_size: number; max_seq_len: number; n_layers: number; dynamic_shape: boolean };
  metadata: Record<string, number | boolean | number[]>;
  forward: {
    inputs: Array<{ dtype: string; shape: number[]; dynamism: string }>;
    outputs: Array<{ dtype: string; shape: number[]; dynamism: string }>;
    instructions: number;
    operators: Record<string, number>;
    /** Delegate calls by backend (the 8da4w form: one XNNPACK call per linear). */
    delegates?: Record<string, number>;
  };
  prompt: number[];
  steps: number;
  tolerance: Tolerance;
  runs: Record<string, RunRecord>;
}

const files = (name: string) => ({ pte: path.join(MODELS_DIR, `${name}.pte`), expected: path.join(MODELS_DIR, `${name}.expected.json`) });
const isPresent = (name: string) => existsSync(files(name).pte) && existsSync(files(name).expected);
for (const name of VARIANTS) {
  if (!isPresent(name) && process.env['CI'] === 'true') {
    describe(`${name} (export_llama layout) against eager PyTorch`, () => {
      it(`needs build/models/${name}.pte`, () => {
        throw new Error(`${files(name).pte} or ${files(name).expected} is missing, but CI=true: run 'bash scripts/fixtures.sh'`);
      });
    });
  }
}

function logitsOf(call: Call): Float32Array {
  const bytes = Buffer.from(call.logits, 'base64');
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

function argmax(v: Float32Array): number {
  let best = 0;
  for (let i = 1; i < v.length; i++) if (v[i]! > v[best]!) best = i;
  return best;
}

async function forward(model: Model, tokens: readonly number[], pos: number): Promise<Float32Array> {
  const ids = new Tensor('int64', BigInt64Array.from(tokens, (t) => BigInt(t)), [1, tokens.length]);
  const inputPos = new Tensor('int64', BigInt64Array.of(BigInt(pos)), [1]);
  const [logits] = await model.runTensors('forward', [ids, inputPos]);
  expect(logits!.dtype).toBe('float32');
  expect(logits!.shape.length).toBe(2);
  expect(logits!.shape[0]).toBe(1);
  return (logits!.data as Float32Array).slice();
}

for (const variant of VARIANTS) (isPresent(variant) ? describe : describe.skip)(`${variant} (export_llama layout) against eager PyTorch`, () => {
  const { pte: PTE, expected: EXPECTED } = files(variant);
  const ref = (isPresent(variant) ? JSON.parse(readFileSync(EXPECTED, 'utf8')) : undefined) as Reference;
  let model: Model;

  beforeAll(async () => {
    model = await load(PTE);
  });
  afterAll(() => model?.dispose());

  /** Runs the calls in order on the model's current state; checks logits and chosen tokens. */
  async function replay(name: string, calls: readonly Call[]): Promise<{ tokens: number[]; worst: number; last: Float32Array }> {
    const tokens: number[] = [];
    let worst = 0;
    let last: Float32Array = new Float32Array(0);
    for (const [i, call] of calls.entries()) {
      const got = await forward(model, call.tokens, call.input_pos);
      const want = logitsOf(call);
      expect(got.length, `${name} call ${i}: logits`).toBe(ref.config.vocab_size);
      const { err, refMax } = maxErrors(got, want);
      const bound = errorBound(ref.tolerance, refMax);
      expect(err, `${name} call ${i} (tokens ${call.tokens.join(',')} at ${call.input_pos}): max |logit - eager| ${err} > ${bound}`)
        .toBeLessThanOrEqual(bound);
      worst = Math.max(worst, err);
      if (call.next !== undefined) tokens.push(argmax(got));
      last = got;
    }
    return { tokens, worst, last };
  }

  it("has export_llama's methods: forward(tokens, input_pos) and the constant metadata methods", async () => {
    const names = model.methods.map((m) => m.name);
    expect([...names].sort()).toEqual(['forward', ...Object.keys(ref.metadata)].sort());
    const fwd = model.method('forward');
    expect(fwd.inputs.map((i) => ({ dtype: i.dtype, shape: i.shape, dynamism: i.dynamism }))).toEqual(ref.forward.inputs);
    expect(fwd.outputs.map((o) => ({ dtype: o.dtype, shape: o.shape, dynamism: o.dynamism }))).toEqual(ref.forward.outputs);
    expect(fwd.instructions).toBe(ref.forward.instructions);
    const delegates = Object.entries(ref.forward.delegates ?? {}).flatMap(([backend, n]) => Array<string>(n).fill(backend));
    expect(fwd.delegates.map((d) => d.backend)).toEqual(delegates);
    console.info(`${variant} forward: ${fwd.instructions} instructions, ${fwd.plannedBytes} planned bytes, memory plan '${fwd.memoryPlan}'`);

    for (const [name, value] of Object.entries(ref.metadata)) {
      const info = model.method(name);
      expect(info.instructions, name).toBe(0);
      expect(info.inputs, name).toEqual([]);
      const out = await model.run(name, []);
      // ExecuTorch flattens a getter's value: get_eos_ids is one Int output per id.
      expect(out, name).toEqual(Array.isArray(value) ? value : [value]);
    }
    expect(await llmMetadata(model)).toEqual({
      maxSeqLen: ref.metadata['get_max_seq_len'],
      vocabSize: ref.metadata['get_vocab_size'],
      bosId: ref.metadata['get_bos_id'],
      eosIds: ref.metadata['get_eos_ids'],
      dynamicShape: ref.metadata['enable_dynamic_shape'],
      useKvCache: ref.metadata['use_kv_cache'],
    });
  });

  for (const mode of ['prefill', 'sequential'] as const) {
    // Without dynamic shape forward takes one token per call: no one-call prefill.
    if (ref !== undefined && ref.runs[mode] === undefined) continue;
    it(`${mode}: 32 greedy steps give eager PyTorch's tokens and logits`, async () => {
      const run = ref.runs[mode]!;
      expect(run.generated.length).toBe(ref.steps);
      await model.resetState();
      const { tokens, worst } = await replay(mode, run.calls);
      console.info(`${variant} ${mode}: ${run.calls.length} forward calls, max |logit - eager| ${worst.toExponential(2)}; tokens ${tokens.join(' ')}`);
      expect(tokens).toEqual(run.generated);
    }, 120_000);
  }

  it('keeps the KV caches across runs, and resetState() clears them', async () => {
    const split = ref.runs['split_prefill']!.calls;
    const fresh = ref.runs['fresh_suffix']!.calls;
    // The prompt in several calls: each call's attention reads the rows the ones before wrote.
    await model.resetState();
    const { last: continued } = await replay('split_prefill', split);
    // It ends where the one-call prefill (or the token-by-token run) ends.
    const once = logitsOf(ref.runs['prefill']?.calls[0] ?? ref.runs['sequential']!.calls[ref.prompt.length - 1]!);
    const agree = maxErrors(continued, once);
    expect(agree.err).toBeLessThanOrEqual(errorBound(ref.tolerance, agree.refMax));
    // The same tail on cleared caches (what a lost state would give) is another model.
    await model.resetState();
    const { last: alone } = await replay('fresh_suffix', fresh);
    const apart = maxErrors(alone, continued);
    // The 8da4w form's bound covers int8 rounding flips (tolerance_basis), so it
    // sits nearer the gap a lost cache opens (8.4 against a bound of 0.2).
    const separation = ref.forward.delegates ? 10 : 100;
    expect(apart.err, 'the tail alone gives the continued logits: the second run did not read the first run\'s cache')
      .toBeGreaterThan(separation * errorBound(ref.tolerance, apart.refMax));
    // After a whole run, resetState() gives that cleared-cache result again.
    await model.resetState();
    await replay('sequential', ref.runs['sequential']!.calls.slice(0, ref.prompt.length + 3));
    await model.resetState();
    await replay('fresh_suffix after resetState', fresh);
    // A second model of the same file has state of its own.
    await model.resetState();
    await replay('split_prefill', split.slice(0, -1));
    const other = await load(PTE);
    try {
      const alsoFresh = await forward(other, fresh[0]!.tokens, fresh[0]!.input_pos);
      const e = maxErrors(alsoFresh, logitsOf(fresh[0]!));
      expect(e.err).toBeLessThanOrEqual(errorBound(ref.tolerance, e.refMax));
    } finally {
      other.dispose();
    }
    await replay('split_prefill, last call', split.slice(-1));
  }, 120_000);

  it('generate() produces the same 32 tokens from the prompt', async () => {
    const out: number[] = [];
    for await (const id of generate(model, ref.prompt, { maxNewTokens: ref.steps, stopTokens: [] })) out.push(id);
    // enable_dynamic_shape: the prompt in one call; otherwise token by token.
    expect(out).toEqual((ref.runs['prefill'] ?? ref.runs['sequential']!).generated);
  }, 120_000);
});
