/// <reference lib="esnext.disposable" preserve="true" />
// Model: a loaded program, its methods' signatures, and run().

import { checkInputs } from './check-inputs.js';
import { assertDType } from './dtype.js';
import type { ModelFormat } from './detect-format.js';
import { ErrorCode, TridentError } from './errors.js';
import { valueFromJson } from './json-value.js';
import { NativeHandle, type NativeOutput } from './native/native-program.js';
import { isScalarRecord, scalarValue } from './native/value-descriptor.js';
import type { RawMethod, RawValueSpec } from './native/types.js';
import type { LoadedWasm } from './native/load-wasm.js';
import { threadsWithin } from './threads.js';
import { Tensor, withArticle, type AnyTensor } from './tensor.js';
import { intValue, type Dynamism, type InputValue, type MethodInfo, type OutputValue, type ValueInfo, type ValueKind } from './values.js';

/** A test case embedded in a bundled program (.bpte). */
export interface BundledTest {
  readonly method: string;
  readonly inputs: readonly InputValue[];
  readonly expected: readonly OutputValue[];
}

/** One instruction of a profiled run (Model.profile). */
export interface InstructionProfile {
  /** Position in the method's instruction list. */
  readonly index: number;
  /** The operator ("aten::convolution.out"), the delegate's backend ("XnnpackBackend"), or "move", "jump_false", "free". */
  readonly name: string;
  /** Times it ran in this run (more than 1 inside a loop). */
  readonly calls: number;
  /** Wall time spent in it, in milliseconds. */
  readonly ms: number;
}

/** What Model.profile returns: the run's outputs and where its time went. */
export interface RunProfile {
  readonly outputs: OutputValue[];
  /** The whole call, from JS, including writing inputs and copying outputs out. */
  readonly totalMs: number;
  /** The instructions that ran, in program order. */
  readonly instructions: InstructionProfile[];
}

/** Options of Model.open (load()'s, resolved). */
interface OpenOptions {
  maxPlannedBytes: number;
  numThreads: number;
  optimize: boolean;
  memoryPlan: number;
  sourceName: string;
  onPrint: ((text: string) => void) | undefined;
}

/** The build each model runs on, for runtimeInfo(model). */
const builds = new WeakMap<Model, LoadedWasm>();

/** @internal The build `model` runs on. */
export function buildOf(model: Model): LoadedWasm | undefined {
  return builds.get(model);
}

export class Model {
  readonly format: ModelFormat;
  readonly methods: readonly MethodInfo[];
  readonly #handle: NativeHandle;
  readonly #poolThreads: number;
  readonly #onPrint: ((text: string) => void) | undefined;
  #numThreads = 1;

  private constructor(handle: NativeHandle, poolThreads: number, onPrint: ((text: string) => void) | undefined) {
    this.#handle = handle;
    this.#poolThreads = poolThreads;
    this.#onPrint = onPrint;
    this.format = handle.format() as ModelFormat;
    this.methods = Object.freeze(handle.describe().map(toMethodInfo));
  }

  /** @internal Use `load()`. */
  static open(wasm: LoadedWasm, bytes: Uint8Array, dataFiles: readonly Uint8Array[], options: OpenOptions): Model {
    const handle = NativeHandle.open(wasm.module, bytes, dataFiles, options);
    try {
      const model = new Model(handle, wasm.poolThreads, options.onPrint);
      builds.set(model, wasm);
      model.numThreads = options.numThreads;
      return model;
    } catch (err) {
      handle.dispose();
      throw err;
    }
  }

  /**
   * Threads this model's runs spread their kernels over, the calling thread
   * included. Setting it takes effect from the next run; a number above the
   * thread pool's size (`runtimeInfo().numThreads`) uses the whole pool,
   * with one console notice. 0 means the whole pool.
   */
  get numThreads(): number {
    return this.#numThreads;
  }

  set numThreads(threads: number) {
    this.#numThreads = threadsWithin(threads, this.#poolThreads, 'numThreads');
    this.#handle.setThreads(this.#numThreads);
  }

  get disposed(): boolean {
    return this.#handle.disposed;
  }

  /**
   * The method run() runs when none is named: the program's only method, or
   * else its 'forward' (undefined when it has several and none is 'forward').
   * A .pte's methods are named by the exporter ('forward' for a module's
   * call); a .pt2's are its models ('model' for torch.export.save's
   * default); a TFRT file's are its functions.
   */
  get defaultMethod(): string | undefined {
    if (this.methods.length === 1) return this.methods[0]!.name;
    return this.methods.some((m) => m.name === 'forward') ? 'forward' : undefined;
  }

  /** The signature of `name`; throws a TridentError (MethodMissing) listing the methods if absent. */
  method(name: string): MethodInfo {
    return this.methods[this.#indexOf(name)]!;
  }

  /** The method's index in the runtime (the order of `methods`); throws like method(). */
  #indexOf(name: string): number {
    this.assertLive(`method('${name}')`);
    const index = this.methods.findIndex((m) => m.name === name);
    if (index < 0) {
      throw new TridentError(
        `no method '${name}' in this program; it has ${this.methods.map((m) => `'${m.name}'`).join(', ') || 'no methods'}`,
        ErrorCode.MethodMissing,
      );
    }
    return index;
  }

  /** run()'s arguments: the method named, or the default one. */
  #call(what: string, methodOrInputs: string | readonly InputValue[] | undefined, inputs: readonly InputValue[] | undefined): [string, readonly InputValue[]] {
    if (typeof methodOrInputs === 'string') return [methodOrInputs, inputs ?? []];
    if (inputs !== undefined) {
      throw new TridentError(`${what}: the method name must come first: ${what}(method, inputs), or ${what}(inputs) for the default method`, ErrorCode.InvalidArgument);
    }
    this.assertLive(`${what}()`);
    const name = this.defaultMethod;
    if (name === undefined) {
      throw new TridentError(
        `${what}(): this program has ${this.methods.length} methods (${this.methods.map((m) => `'${m.name}'`).join(', ') || 'none'}) and none is 'forward'; name the one to run`,
        ErrorCode.MethodMissing,
      );
    }
    return [name, methodOrInputs ?? []];
  }

  /**
   * Runs `method` (default: {@link defaultMethod}) on `inputs` (one per
   * input of its signature) and resolves to its outputs. Tensor data is
   * written straight into the runtime's planned input slots; outputs are
   * copied out, so they stay valid after later runs and after dispose().
   */
  async run(inputs?: readonly InputValue[]): Promise<OutputValue[]>;
  async run(method: string, inputs?: readonly InputValue[]): Promise<OutputValue[]>;
  async run(methodOrInputs?: string | readonly InputValue[], inputs?: readonly InputValue[]): Promise<OutputValue[]> {
    const [method, values] = this.#call('run', methodOrInputs, inputs);
    return this.#run(method, values, false);
  }

  /**
   * Like run(), for methods whose outputs are all tensors: resolves to
   * Tensors, or rejects with InvalidType naming the first output that is
   * not one.
   */
  async runTensors(inputs?: readonly InputValue[]): Promise<AnyTensor[]>;
  async runTensors(method: string, inputs?: readonly InputValue[]): Promise<AnyTensor[]>;
  async runTensors(methodOrInputs?: string | readonly InputValue[], inputs?: readonly InputValue[]): Promise<AnyTensor[]> {
    const [method, values] = this.#call('runTensors', methodOrInputs, inputs);
    const outputs = await this.#run(method, values, false);
    outputs.forEach((value, i) => {
      if (!(value instanceof Tensor)) {
        const kind = this.methods[this.#indexOf(method)]!.outputs[i]?.kind ?? typeof value;
        throw new TridentError(`runTensors('${method}'): output ${i} is ${kind === 'None' ? 'None' : withArticle(kind)} (${String(value)}), not a tensor; use run() for methods with other outputs`, ErrorCode.InvalidType);
      }
    });
    return outputs as AnyTensor[];
  }

  /**
   * Runs `method` like run(), timing each instruction: where the time of
   * this run went, by operator (or delegate). Profiling reads the clock
   * around every instruction, so the run is slightly slower than run().
   * Not available for .bef/.mlir functions (NotSupported).
   */
  async profile(inputs?: readonly InputValue[]): Promise<RunProfile>;
  async profile(method: string, inputs?: readonly InputValue[]): Promise<RunProfile>;
  async profile(methodOrInputs?: string | readonly InputValue[], inputs?: readonly InputValue[]): Promise<RunProfile> {
    const [method, values] = this.#call('profile', methodOrInputs, inputs);
    const start = performance.now();
    const outputs = await this.#run(method, values, true);
    const totalMs = performance.now() - start;
    const instructions = this.#handle.profile(this.#indexOf(method), method).map((p) => ({ index: p.index, name: p.name, calls: p.calls, ms: p.ns / 1e6 }));
    return { outputs, totalMs, instructions };
  }

  async #run(method: string, inputs: readonly InputValue[], profile: boolean): Promise<OutputValue[]> {
    const m = this.#indexOf(method);
    const info = this.methods[m]!;
    checkInputs(info, inputs);
    const handle = this.#handle;
    // No await from here on: the planned slots belong to this call until
    // its outputs are copied out.
    for (let i = 0; i < inputs.length; i++) {
      const value = inputs[i];
      if (value instanceof Tensor) handle.writeTensor(m, method, i, value);
      else if (typeof value === 'boolean') handle.setBool(m, method, i, value);
      else if (typeof value === 'bigint' || (typeof value === 'number' && info.inputs[i]!.kind === 'Int')) {
        handle.setInt(m, method, i, value);
      } else if (typeof value === 'number') handle.setDouble(m, method, i, value);
    }
    try {
      handle.execute(m, method, profile);
    } finally {
      this.#deliverPrinted();
    }
    // A graph that mutates an argument (torch.export's user_input_mutation)
    // updates the caller's tensor, as the module call would in PyTorch.
    for (const i of info.mutatedInputs ?? []) {
      const value = inputs[i];
      if (value instanceof Tensor) handle.readInputInto(m, method, i, value);
    }
    return handle.readOutputs(m, method).map((out, i) => toOutputValue(out, method, i));
  }

  /** What the program printed (TFRT's tfrt.print.*): to onPrint, else to the console. */
  #deliverPrinted(): void {
    const text = this.#handle.takePrinted();
    if (text === '') return;
    if (this.#onPrint !== undefined) this.#onPrint(text);
    else console.log(text.endsWith('\n') ? text.slice(0, -1) : text);
  }

  /** The test cases embedded in a .bpte, with their expected outputs ([] for a .pte). */
  bundledTests(): BundledTest[] {
    this.assertLive('bundledTests()');
    return this.#handle.bundledTests().map((raw, i) => {
      const where = `bundled test ${i}`;
      const test = raw as { method?: unknown; inputs?: unknown; outputs?: unknown };
      if (typeof test.method !== 'string' || !Array.isArray(test.inputs) || !Array.isArray(test.outputs)) {
        throw new TridentError(`${where}: runtime returned a malformed case`, ErrorCode.Internal);
      }
      return {
        method: test.method,
        inputs: test.inputs.map((v, j) => valueFromJson(v, `${where}: input ${j}`) as InputValue),
        expected: test.outputs.map((v, j) => valueFromJson(v, `${where}: output ${j}`)),
      };
    });
  }

  /**
   * The example inputs stored with `method` (a .pt2's data/sample_inputs,
   * the inputs given to torch.export), ready to pass to run(); null when the
   * file stores none. `method` defaults to {@link defaultMethod}.
   */
  sampleInputs(method?: string): InputValue[] | null {
    this.assertLive('sampleInputs()');
    if (method === undefined) [method] = this.#call('sampleInputs', undefined, undefined);
    this.method(method);
    const raw = this.#handle.sampleInputs(method);
    if (raw === null) return null;
    if (!Array.isArray(raw)) {
      throw new TridentError(`sampleInputs('${method}'): runtime returned a malformed list`, ErrorCode.Internal);
    }
    return raw.map((v, i) => valueFromJson(v, `sampleInputs('${method}'): input ${i}`) as InputValue);
  }

  /** Frees the native program. Further calls throw; dispose() again is a no-op. */
  dispose(): void {
    this.#handle.dispose();
  }

  /** dispose(), for `using model = await load(...)`. */
  [Symbol.dispose](): void {
    this.dispose();
  }

  private assertLive(what: string): void {
    if (this.#handle.disposed) {
      throw new TridentError(`${what}: this Model was disposed; load the file again to use it`, ErrorCode.InvalidState);
    }
  }
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
