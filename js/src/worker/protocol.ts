// The messages between the page (worker-client.ts) and its Trident worker
// (worker-host.ts). Each request carries an id; the worker answers every
// request exactly once, in order, with the same id.

import type { OpenOptions } from '../engine/local-engine.js';
import type { WeightInfo } from '../inspect.js';
import type { RuntimeInfo } from '../load.js';
import type { InstructionProfile } from '../model.js';
import type { MethodInfo, ModelMemory } from '../values.js';
import type { WireError, WireValue } from './wire.js';

/** The page's choice of wasm build, compiled, handed to the worker. */
export interface HandedBuild {
  threads: boolean;
  /** The kernel thread pool's size, the calling thread included. */
  poolThreads: number;
  wasmModule: WebAssembly.Module;
  /** Where the generated loader is (a URL, or a blob:/data: URL for the embedded copy). */
  scriptUrl: string;
  /** The pthread worker script ('' for the single-threaded build). */
  workerUrl: string;
  /** runtimeInfo().wasm: the wasm's URL, or 'embedded'. */
  wasm: string;
}

export interface LoadRequest {
  op: 'load';
  files: { bytes: Uint8Array; name: string }[];
  /** The page's JS kernels (registerKernel) this program binds at load. */
  kernels: { name: string; id: number; outputs: number; override: boolean }[];
  options: Omit<OpenOptions, 'sourceName'>;
}

export type Request = { id: number } & (
  | { op: 'init'; build: HandedBuild; simd: boolean }
  | LoadRequest
  | { op: 'run'; model: number; method: number; inputs: WireValue[]; profile: boolean; simd: boolean; cancellable: boolean }
  | { op: 'threads'; model: number; threads: number }
  | { op: 'resetState'; model: number }
  | { op: 'graph'; model: number; method: number; name: string }
  | { op: 'weights'; model: number }
  | { op: 'memory'; model: number }
  | { op: 'weight'; model: number; name: string }
  | { op: 'info' }
  | { op: 'dispose'; model: number }
);

/**
 * Not a request: it has no answer of its own. The page sends it when a
 * cancellable run's signal fires; the worker, which turns its event loop
 * between such a run's slices, drops the run (answered with an AbortError),
 * or the run before it starts.
 */
export interface CancelMessage {
  op: 'cancel';
  /** The run request's id. */
  run: number;
}

export interface LoadedReply {
  model: number;
  format: string;
  methods: MethodInfo[];
  poolThreads: number;
  bundledTests: unknown[];
  /** Each method's sample inputs (raw JSON lists), or null. */
  sampleInputs: Record<string, unknown>;
}

export interface RunReply {
  outputs: WireValue[];
  /** The method's mutated tensor inputs, by index, after the run. */
  mutated: [number, WireValue][];
  instructions?: InstructionProfile[];
}

/** A 'graph' answer: the graph's JSON text, parsed on the page (cheaper than cloning the objects). */
export type GraphText = string;

export type Reply = { id: number; printed?: string } & ({ ok: true; result: LoadedReply | RunReply | RuntimeInfo | GraphText | WeightInfo[] | ModelMemory | WireValue | null } | { ok: false; error: WireError });
