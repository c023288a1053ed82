// What a Model runs on: the runtime in this thread (LocalEngine), or the
// runtime in a worker (worker/remote-engine.ts). Model checks arguments and
// shapes the results; an engine does the work.

import type { AbortSignalLike } from '../abort.js';
import type { Graph, WeightInfo } from '../inspect.js';
import type { RuntimeInfo } from '../load.js';
import type { AnyTensor } from '../tensor.js';
import type { InstructionProfile } from '../model.js';
import type { InputValue, MethodInfo, ModelMemory, OutputValue } from '../values.js';

/** One run's results, before Model hands them out. */
export interface EngineRun {
  outputs: OutputValue[];
  /** Set when the run was profiled. */
  instructions?: InstructionProfile[];
}

export interface ModelEngine {
  readonly format: string;
  readonly methods: readonly MethodInfo[];
  readonly disposed: boolean;
  /** The thread pool's size, the calling thread included. */
  readonly poolThreads: number;
  setThreads(threads: number): void;
  /** State kept across runs (an LLM's KV caches) back to its state after load. */
  resetState(): Promise<void>;
  /**
   * Runs method `index` on `inputs` (already checked against `info`); tensor
   * inputs that the method mutates are updated in place. What the program
   * printed goes to `print`, also when the run fails. With `signal`, the
   * run can be cancelled between instructions: it then rejects with the
   * signal's reason, and the model stays usable.
   */
  run(index: number, info: MethodInfo, inputs: readonly InputValue[], profile: boolean, print: (text: string) => void, signal?: AbortSignalLike): Promise<EngineRun>;
  /** The .bpte's test cases as raw JSON records. */
  bundledTests(): unknown[];
  /** The method's sample inputs as a raw JSON list, or null. */
  sampleInputs(method: string): unknown;
  /** Inspection (inspect.ts): method `index`'s graph, the weights, one weight (a copy). */
  graph(index: number, name: string): Promise<Graph>;
  weights(): Promise<WeightInfo[]>;
  memory(): Promise<ModelMemory>;
  weight(name: string): Promise<AnyTensor>;
  runtimeInfo(): Promise<RuntimeInfo>;
  dispose(): void;
}
