// The runtime in this thread: a NativeHandle over the wasm module, and the
// conversions between its records and the API's values.

import { throwIfAborted, type AbortSignalLike } from '../abort.js';
import { assertDType } from '../dtype.js';
import { ErrorCode, TridentError } from '../errors.js';
import type { Graph, WeightInfo } from '../inspect.js';
import type { RuntimeInfo } from '../load.js';
import type { LoadedWasm } from '../native/load-wasm.js';
import { NativeHandle, type NativeOutput } from '../native/native-program.js';
import { runtimeStats } from '../native/runtime-calls.js';
import type { RawMethod, RawValueSpec } from '../native/types.js';
import { isScalarRecord, scalarValue } from '../native/value-descriptor.js';
import { Tensor, type AnyTensor } from '../tensor.js';
import { nextTask } from '../next-task.js';
import { intValue, type Dynamism, type InputValue, type MethodInfo, type ModelMemory, type OutputValue, type ValueInfo, type ValueKind } from '../values.js';
import type { EngineRun, ModelEngine } from './model-engine.js';

/** What the runtime needs to open a file (load()'s options, resolved). */
export interface OpenOptions {
  maxPlannedBytes: number;
  maxTensorElements: number;
  maxInstructionsPerRun: number;
  maxWasmMemoryBytes: number;
  numThreads: number;
  optimize: boolean;
  /** LoadOptions.keepFileBytes. */
  keepFileBytes: boolean;
  memoryPlan: number;
  sourceName: string;
}

/**
 * How long a cancellable run goes between looks at its signal: a frame, so
 * a page running one on its own thread also stays responsive.
 */
const SLICE_MS = 16;

export class LocalEngine implements ModelEngine {
  readonly format: string;
  readonly methods: readonly MethodInfo[];
  readonly poolThreads: number;
  readonly #handle: NativeHandle;
  readonly #build: LoadedWasm;
  /** The cancellable run under way: it keeps the program between its slices, so later runs and resets wait. */
  #sliced: Promise<unknown> | undefined;

  private constructor(handle: NativeHandle, build: LoadedWasm) {
    this.#handle = handle;
    this.#build = build;
    this.poolThreads = build.poolThreads;
    this.format = handle.format();
    this.methods = Object.freeze(handle.describe().map(toMethodInfo));
  }

  static open(build: LoadedWasm, bytes: Uint8Array, dataFiles: readonly Uint8Array[], options: OpenOptions): LocalEngine {
    const handle = NativeHandle.open(build.module, bytes, dataFiles, options);
    try {
      return new LocalEngine(handle, build);
    } catch (err) {
      handle.dispose();
      throw err;
    }
  }

  get build(): LoadedWasm {
    return this.#build;
  }

  get disposed(): boolean {
    return this.#handle.disposed;
  }

  setThreads(threads: number): void {
    this.#handle.setThreads(threads);
  }

  async resetState(): Promise<void> {
    // The check and the call are in one continuation: a helper's own await
    // would let another run start between them.
    while (this.#sliced !== undefined) await this.#settled(this.#sliced);
    this.#handle.hold('resetState()', () => this.#handle.resetState());
  }

  async run(m: number, info: MethodInfo, inputs: readonly InputValue[], profile: boolean, print: (text: string) => void, signal?: AbortSignalLike): Promise<EngineRun> {
    // Only a cancellable run under way is waited for; otherwise this starts
    // at once, so a JS kernel's call into its own model's run meets hold()'s
    // refusal while that run is still going.
    while (this.#sliced !== undefined) await this.#settled(this.#sliced);
    if (signal === undefined) return this.runNow(m, info, inputs, profile, print);
    throwIfAborted(signal);
    const run = this.#handle.holdAcross(`run('${info.name}')`, () => this.#runSliced(m, info, inputs, profile, print, signal));
    this.#sliced = run;
    try {
      return await run;
    } finally {
      if (this.#sliced === run) this.#sliced = undefined;
    }
  }

  #settled(run: Promise<unknown>): Promise<unknown> {
    return run.catch(() => {});
  }

  /** run(), synchronously: the planned slots belong to this call until its outputs are copied out. */
  runNow(m: number, info: MethodInfo, inputs: readonly InputValue[], profile: boolean, print: (text: string) => void): EngineRun {
    return this.#handle.hold(`run('${info.name}')`, () => {
      this.#writeInputs(m, info, inputs);
      this.#printing(print, () => this.#handle.execute(m, info.name, profile));
      return this.#results(m, info, inputs, profile);
    });
  }

  /**
   * A run that stops between instructions every SLICE_MS to let the event
   * loop turn; when `signal` has fired by then, the run is dropped and this
   * rejects with its reason (the model stays usable).
   */
  async #runSliced(m: number, info: MethodInfo, inputs: readonly InputValue[], profile: boolean, print: (text: string) => void, signal: AbortSignalLike): Promise<EngineRun> {
    const handle = this.#handle;
    this.#writeInputs(m, info, inputs);
    let finished = this.#printing(print, () => handle.executeSlice(m, info.name, profile, SLICE_MS));
    while (!finished) {
      await nextTask();
      // dispose() meanwhile lets the run finish, as it does a run in progress anywhere.
      if (signal.aborted) {
        handle.abandon(m);
        throwIfAborted(signal);
      }
      finished = this.#printing(print, () => handle.resumeSlice(m, info.name, SLICE_MS));
    }
    return this.#results(m, info, inputs, profile);
  }

  #writeInputs(m: number, info: MethodInfo, inputs: readonly InputValue[]): void {
    const handle = this.#handle;
    const method = info.name;
    for (let i = 0; i < inputs.length; i++) {
      const value = inputs[i];
      if (value instanceof Tensor) handle.writeTensor(m, method, i, value);
      else if (typeof value === 'boolean') handle.setBool(m, method, i, value);
      else if (typeof value === 'bigint' || (typeof value === 'number' && info.inputs[i]!.kind === 'Int')) {
        handle.setInt(m, method, i, value);
      } else if (typeof value === 'number') handle.setDouble(m, method, i, value);
    }
  }

  /** `body`, then what the program printed meanwhile goes to `print`, also when it fails. */
  #printing<T>(print: (text: string) => void, body: () => T): T {
    try {
      return body();
    } finally {
      const printed = this.#handle.takePrinted();
      if (printed !== '') print(printed);
    }
  }

  /** The finished run's outputs (and profile), and the inputs it mutated copied back. */
  #results(m: number, info: MethodInfo, inputs: readonly InputValue[], profile: boolean): EngineRun {
    const handle = this.#handle;
    const method = info.name;
    // A graph that mutates an argument (torch.export's user_input_mutation)
    // updates the caller's tensor, as the module call would in PyTorch.
    for (const i of info.mutatedInputs ?? []) {
      const value = inputs[i];
      if (value instanceof Tensor) handle.readInputInto(m, method, i, value);
    }
    const outputs = handle.readOutputs(m, method).map((out, i) => toOutputValue(out, method, i));
    if (!profile) return { outputs };
    const instructions = handle.profile(m, method).map((p) => ({
      index: p.index,
      name: p.name,
      source: p.source,
      sourceCount: p.sourceCount,
      calls: p.calls,
      ms: p.ns / 1e6,
      ...(p.nodeNs ? { nodes: p.nodeNs.map((ns) => ns / 1e6) } : {}),
    }));
    return { outputs, instructions };
  }

  bundledTests(): unknown[] {
    return this.#handle.bundledTests();
  }

  sampleInputs(method: string): unknown {
    return this.#handle.sampleInputs(method);
  }

  async graph(index: number, name: string): Promise<Graph> {
    return this.#handle.graph(index, name);
  }

  /** The graph as JSON text (worker mode sends it so, and the page parses it). */
  graphText(index: number, name: string): string {
    return this.#handle.graphText(index, name);
  }

  async weights(): Promise<WeightInfo[]> {
    return this.#handle.weights();
  }

  async memory(): Promise<ModelMemory> {
    return this.#handle.memory();
  }

  async weight(name: string): Promise<AnyTensor> {
    return this.#handle.weight(name);
  }

  async runtimeInfo(): Promise<RuntimeInfo> {
    return buildInfo(this.#build);
  }

  dispose(): void {
    this.#handle.dispose();
  }
}

/** runtimeInfo() of a build in this thread (`worker`: this thread is worker mode's worker). */
export function buildInfo({ module, threads, poolThreads, wasm }: LoadedWasm, worker = false): RuntimeInfo {
  const { version, memoryBytes, heapAllocations, heapBytes } = runtimeStats(module);
  return { version, threads, numThreads: poolThreads, wasm, worker, memoryBytes, heapAllocations, heapBytes };
}

function toMethodInfo(raw: RawMethod): MethodInfo {
  const where = `method '${raw.name}'`;
  return Object.freeze({
    name: raw.name,
    inputs: Object.freeze(raw.inputs.map((v, i) => toValueInfo(v, `${where}: input ${i}`))),
    outputs: Object.freeze(raw.outputs.map((v, i) => toValueInfo(v, `${where}: output ${i}`))),
    ...(raw.instructions !== undefined && { instructions: raw.instructions }),
    ...(raw.plannedBytes !== undefined && { plannedBytes: raw.plannedBytes }),
    ...(raw.intermediateBytes !== undefined && { intermediateBytes: raw.intermediateBytes }),
    ...(raw.memoryPlan !== undefined && { memoryPlan: raw.memoryPlan }),
    ...(raw.mutatedInputs !== undefined && { mutatedInputs: Object.freeze([...raw.mutatedInputs]) }),
    delegates: Object.freeze(
      (raw.delegates ?? []).map((d) =>
        Object.freeze({
          backend: d.backend,
          nodeCounts: Object.freeze({ ...d.nodeCounts }),
          nodes: Object.freeze(
            d.nodes.map((n) =>
              Object.freeze({
                type: n.type,
                inputs: Object.freeze(n.inputs.map((v) => Object.freeze({ dtype: v.dtype, shape: Object.freeze([...v.shape]) }))),
                outputs: Object.freeze(n.outputs.map((v) => Object.freeze({ dtype: v.dtype, shape: Object.freeze([...v.shape]) }))),
              }),
            ),
          ),
        }),
      ),
    ),
  });
}

function toValueInfo(raw: RawValueSpec, where: string): ValueInfo {
  const type = raw.type !== undefined ? { type: raw.type } : {};
  if (raw.kind !== 'Tensor') return Object.freeze({ kind: raw.kind as ValueKind, ...type });
  // A format without declared tensor dtypes (BEF) gives the kind only.
  if (raw.dtype === undefined) return Object.freeze({ kind: 'Tensor', ...type });
  return Object.freeze({
    kind: 'Tensor',
    dtype: assertDType(raw.dtype, where),
    shape: Object.freeze([...(raw.shape ?? [])]),
    dynamism: (raw.dynamism ?? 'static') as Dynamism,
  });
}

function toOutputValue(out: NativeOutput, method: string, index: number): OutputValue {
  if (isScalarRecord(out)) return scalarValue(out);
  switch (out.kind) {
    case 'Tensor':
      return out.tensor as AnyTensor;
    case 'Json':
      return jsonOutput(JSON.parse(out.text) as { kind: string; value?: unknown }, `${method}: output ${index}`);
    default:
      throw new TridentError(`${method}: output ${index}: ${out.kind} outputs cannot be returned to JavaScript yet`, ErrorCode.NotSupported);
  }
}

/** A format's output given as JSON text ({"kind","value"}, values as strings). */
function jsonOutput({ kind, value }: { kind: string; value?: unknown }, where: string): OutputValue {
  switch (kind) {
    case 'Int':
      return intValue(BigInt(String(value)));
    case 'Double':
      return parseDouble(value);
    case 'Bool':
      return value === true || value === 'true';
    case 'String':
      return String(value ?? '');
    case 'None':
      return null;
    default:
      throw new TridentError(`${where}: ${kind} outputs cannot be returned to JavaScript yet`, ErrorCode.NotSupported);
  }
}

/** Doubles may arrive as numbers or as C's "nan"/"inf" spellings. */
function parseDouble(value: unknown): number {
  if (typeof value === 'number') return value;
  const text = String(value).trim().toLowerCase();
  if (text === 'nan' || text === '-nan') return NaN;
  if (text === 'inf' || text === 'infinity') return Infinity;
  if (text === '-inf' || text === '-infinity') return -Infinity;
  return Number(text);
}
