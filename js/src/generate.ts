// Text generation over an LLM program exported as ExecuTorch's export_llama
// (or optimum-executorch) writes it: forward(tokens int64[1, S], input_pos
// int64[1]) -> logits, with the KV caches kept in the program's mutable
// buffers between calls, and constant metadata methods (get_max_seq_len,
// get_eos_ids, enable_dynamic_shape, ...). Token ids in, token ids out:
// tokenizers stay with the app.

import { throwIfAborted, type AbortSignalLike } from './abort.js';
import { ErrorCode, TridentError } from './errors.js';
import type { Model } from './model.js';
import { Tensor, type AnyTensor } from './tensor.js';
import type { OutputValue } from './values.js';

export interface GenerateOptions {
  /** Tokens to produce at most (default: until the context is full or a stop token). */
  maxNewTokens?: number;
  /** 0 (the default): greedy. Otherwise logits are divided by it before sampling. */
  temperature?: number;
  /** Nucleus sampling: sample among the most likely tokens whose probabilities add up to topP (default 1). */
  topP?: number;
  /** Tokens that end generation (not yielded). Default: the program's get_eos_ids. */
  stopTokens?: readonly number[];
  /** Seed of the sampler's random numbers (default 0), so runs repeat. */
  seed?: number;
  /** Start a new sequence: the model's state is reset first (default true). false continues after the last call. */
  resetState?: boolean;
  /** Position of the first prompt token when continuing (resetState: false). */
  startPos?: number;
  /** Stops generation between tokens, or a run mid-way (rejects with the signal's reason, as load() does). */
  signal?: AbortSignalLike;
}

/** What a program's metadata methods say (the ones present). */
export interface LlmMetadata {
  maxSeqLen: number;
  vocabSize?: number;
  bosId?: number;
  eosIds: number[];
  /** forward takes several tokens per call (prefill in one call). */
  dynamicShape: boolean;
  useKvCache: boolean;
}

async function constant(model: Model, name: string): Promise<OutputValue[] | undefined> {
  if (!model.methods.some((m) => m.name === name)) return undefined;
  return model.run(name, []);
}

function asNumber(v: OutputValue | undefined, what: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  throw new TridentError(`${what} returned ${String(v)}, not a number`, ErrorCode.InvalidType);
}

/** Reads export_llama's metadata methods. */
export async function llmMetadata(model: Model): Promise<LlmMetadata> {
  const forward = model.methods.find((m) => m.name === 'forward');
  if (forward === undefined || forward.inputs.length < 2) {
    throw new TridentError("generate() needs a 'forward(tokens, input_pos)' method, as export_llama writes", ErrorCode.NotSupported);
  }
  const tokens = forward.inputs[0]!;
  const maxSeq = await constant(model, 'get_max_seq_len');
  const bound = tokens.shape !== undefined ? tokens.shape[tokens.shape.length - 1] : undefined;
  const eos = await constant(model, 'get_eos_ids');
  const vocab = await constant(model, 'get_vocab_size');
  const bos = await constant(model, 'get_bos_id');
  const dyn = await constant(model, 'enable_dynamic_shape');
  const kv = await constant(model, 'use_kv_cache');
  return {
    maxSeqLen: maxSeq !== undefined ? asNumber(maxSeq[0], 'get_max_seq_len') : Number.MAX_SAFE_INTEGER,
    vocabSize: vocab !== undefined ? asNumber(vocab[0], 'get_vocab_size') : undefined,
    bosId: bos !== undefined ? asNumber(bos[0], 'get_bos_id') : undefined,
    eosIds: eos !== undefined ? eos.map((v) => asNumber(v, 'get_eos_ids')) : [],
    dynamicShape: dyn !== undefined ? asNumber(dyn[0], 'enable_dynamic_shape') !== 0 : tokens.dynamism === 'bounded' && (bound ?? 1) > 1,
    useKvCache: kv !== undefined ? asNumber(kv[0], 'use_kv_cache') !== 0 : true,
  };
}

/** A small deterministic generator (mulberry32) for sampling. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The next token from the last row of `logits` ([..., vocab]). */
export function pickToken(logits: ArrayLike<number>, options: { temperature?: number; topP?: number }, rand: () => number = Math.random): number {
  const n = logits.length;
  const temperature = options.temperature ?? 0;
  if (!(temperature > 0)) {
    let best = 0;
    for (let i = 1; i < n; i++) if (logits[i]! > logits[best]!) best = i;
    return best;
  }
  let max = -Infinity;
  for (let i = 0; i < n; i++) max = Math.max(max, logits[i]!);
  const order = Array.from({ length: n }, (_, i) => i);
  const p = order.map((i) => Math.exp((logits[i]! - max) / temperature));
  order.sort((x, y) => p[y]! - p[x]!);
  let total = 0;
  for (const v of p) total += v;
  const topP = options.topP ?? 1;
  let kept = 0;
  let mass = 0;
  for (const i of order) {
    mass += p[i]! / total;
    kept++;
    if (mass >= topP) break;
  }
  let r = rand() * order.slice(0, kept).reduce((s, i) => s + p[i]!, 0);
  for (let k = 0; k < kept; k++) {
    r -= p[order[k]!]!;
    if (r <= 0) return order[k]!;
  }
  return order[kept - 1]!;
}

function lastRow(t: AnyTensor, vocab: number | undefined): Float32Array {
  const data = t.data;
  if (!(data instanceof Float32Array)) {
    throw new TridentError(`forward returned ${t.dtype} logits; generate() reads float32`, ErrorCode.InvalidType);
  }
  const width = vocab ?? t.shape[t.shape.length - 1]!;
  return data.subarray(data.length - width);
}

function ids(tokens: readonly number[]): Tensor<'int64'> {
  return new Tensor('int64', BigInt64Array.from(tokens, (t) => BigInt(t)), [1, tokens.length]);
}

/**
 * Generates token ids after `prompt` (token ids; add the BOS token yourself
 * if the model wants one), one at a time as an async iterator:
 *
 *   for await (const id of generate(model, tokenizer.encode(text))) out += tokenizer.decode([id]);
 *
 * The prompt is fed in one call when forward takes several tokens
 * (enable_dynamic_shape), else token by token; then each new token is fed
 * back at the next position, the KV caches carrying the context.
 */
export async function* generate(model: Model, prompt: readonly number[], options: GenerateOptions = {}): AsyncGenerator<number, void, undefined> {
  if (prompt.length === 0) throw new TridentError('generate() needs at least one prompt token', ErrorCode.InvalidArgument);
  const meta = await llmMetadata(model);
  const stop = new Set(options.stopTokens ?? meta.eosIds);
  const rand = random(options.seed ?? 0);
  const maxNew = options.maxNewTokens ?? Number.MAX_SAFE_INTEGER;
  if (options.resetState ?? true) await model.resetState();
  let pos = options.resetState === false ? (options.startPos ?? 0) : 0;
  const forward = model.methods.find((m) => m.name === 'forward')!;
  const bound = forward.inputs[0]!.shape?.[1] ?? 1;
  const chunk = meta.dynamicShape ? Math.max(1, bound) : 1;
  const step = async (tokens: readonly number[]): Promise<Float32Array> => {
    if (pos + tokens.length > meta.maxSeqLen) {
      throw new TridentError(`the context is full: ${meta.maxSeqLen} positions (get_max_seq_len)`, ErrorCode.LimitExceeded);
    }
    // The signal also stops a long prefill mid-run, not only between tokens.
    const runOptions = options.signal === undefined ? {} : { signal: options.signal };
    const [logits] = await model.runTensors('forward', [ids(tokens), new Tensor('int64', BigInt64Array.of(BigInt(pos)), [1])], runOptions);
    pos += tokens.length;
    return lastRow(logits!, meta.vocabSize);
  };
  let logits: Float32Array | undefined;
  for (let i = 0; i < prompt.length; i += chunk) logits = await step(prompt.slice(i, i + chunk));
  for (let produced = 0; produced < maxNew && pos < meta.maxSeqLen; produced++) {
    throwIfAborted(options.signal);
    const next = pickToken(logits!, options, rand);
    if (stop.has(next)) return;
    yield next;
    if (produced + 1 >= maxNew || pos >= meta.maxSeqLen) return;
    logits = await step([next]);
  }
}
