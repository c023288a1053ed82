/// <reference lib="esnext.disposable" preserve="true" />
// Model: a loaded program, its methods' signatures, and run().

import type { AbortSignalLike } from './abort.js';
import { checkInputs } from './check-inputs.js';
import type { ModelFormat } from './detect-format.js';
import type { ModelEngine } from './engine/model-engine.js';
import { ErrorCode, TridentError } from './errors.js';
import type { Graph, WeightInfo } from './inspect.js';
import { valueFromJson } from './json-value.js';
import type { RuntimeInfo } from './load.js';
import { threadsWithin } from './threads.js';
import { Tensor, withArticle, type AnyTensor } from './tensor.js';
import type { InputValue, MethodInfo, ModelMemory, OutputValue } from './values.js';

/** A test case embedded in a bundled program (.bpte). */
export interface BundledTest {
  readonly method: string;
  readonly inputs: readonly InputValue[];
  readonly expected: readonly OutputValue[];
}

/** Options of one run(), runTensors() or profile() call. */
export interface RunOptions {
  /**
   * Cancels the run: it stops at the next instruction boundary it reaches
   * after the signal fires (a delegate call, such as one XNNPACK subgraph,
   * is one instruction; a .bef/.mlir function is checked only before it
   * starts) and rejects with the signal's reason. The model stays usable.
   * A run given a signal yields to the event loop about every 16 ms, so a
   * page running it on its own thread also keeps responding.
   */
  signal?: AbortSignalLike;
}

/** One instruction of a profiled run (Model.profile). */
export interface InstructionProfile {
  /** Position in the method's instruction list. */
  readonly index: number;
  /** The operator ("aten::convolution.out"), the delegate's backend ("XnnpackBackend"), or "move", "jump_false", "free". */
  readonly name: string;
  /**
   * The file's instructions it runs: [source, source + sourceCount). The
   * same as `index` unless a load-time pass fused a chain (convolution,
   * batch norm, activation) into this one instruction; `source` then is
   * the chain's first. These are the indices of `model.graph()`'s nodes
   * for a .pte, and of a .pt2 node's `lowered` list.
   */
  readonly source: number;
  readonly sourceCount: number;
  /** Times it ran in this run (more than 1 inside a loop). */
  readonly calls: number;
  /** Wall time spent in it, in milliseconds. */
  readonly ms: number;
  /**
   * A delegate call whose backend times its own nodes (XNNPACK does): the
   * milliseconds of each node, in the order of the delegate's graph
   * (`model.graph()`'s subgraph of this instruction's node).
   */
  readonly nodes?: readonly number[];
}

/** What Model.profile returns: the run's outputs and where its time went. */
export interface RunProfile {
  readonly outputs: OutputValue[];
  /** The whole call, from JS, including writing inputs and copying outputs out. */
  readonly totalMs: number;
  /** The instructions that ran, in program order. */
  readonly instructions: InstructionProfile[];
}

/** @internal The engine behind each model. */
const engines = new WeakMap<Model, ModelEngine>();

/** @internal runtimeInfo(model): the build `model` runs on, or undefined for a non-Model. */
export function modelRuntimeInfo(model: Model): Promise<RuntimeInfo> | undefined {
  return engines.get(model)?.runtimeInfo();
}

export class Model {
  readonly format: ModelFormat;
  readonly methods: readonly MethodInfo[];
  readonly #engine: ModelEngine;
  readonly #onPrint: ((text: string) => void) | undefined;
  #numThreads = 1;

  private constructor(engine: ModelEngine, onPrint: ((text: string) => void) | undefined) {
    this.#engine = engine;
    this.#onPrint = onPrint;
    this.format = engine.format as ModelFormat;
    this.methods = engine.methods;
  }

  /** @internal Use `load()`. The model owns `engine` from here on. */
  static over(engine: ModelEngine, numThreads: number, onPrint: ((text: string) => void) | undefined): Model {
    try {
      const model = new Model(engine, onPrint);
      engines.set(model, engine);
      model.numThreads = numThreads;
      return model;
    } catch (err) {
      engine.dispose();
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
    this.#numThreads = threadsWithin(threads, this.#engine.poolThreads, 'numThreads');
    this.#engine.setThreads(this.#numThreads);
  }

  get disposed(): boolean {
    return this.#engine.disposed;
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

  /** run()'s arguments: the method named, or the default one, the inputs and the options. */
  #call(what: string, first: string | readonly InputValue[] | RunOptions | undefined, second: readonly InputValue[] | RunOptions | undefined, third: RunOptions | undefined): [string, readonly InputValue[], RunOptions] {
    const options = (value: unknown, position: string): RunOptions => {
      if (value === undefined) return {};
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new TridentError(`${what}: the ${position} argument must be the options ({ signal }), got ${Array.isArray(value) ? 'an array' : typeof value}`, ErrorCode.InvalidArgument);
      }
      return value as RunOptions;
    };
    if (typeof first === 'string') {
      // Other non-arrays are left to checkInputs, which names what they are.
      if (typeof second === 'object' && second !== null && !Array.isArray(second)) {
        throw new TridentError(`${what}('${first}', ...): the inputs come second, as an array: ${what}(method, inputs, options)`, ErrorCode.InvalidArgument);
      }
      return [first, (second as readonly InputValue[] | undefined) ?? [], options(third, 'third')];
    }
    if (Array.isArray(second)) {
      throw new TridentError(`${what}: the method name must come first: ${what}(method, inputs), or ${what}(inputs) for the default method`, ErrorCode.InvalidArgument);
    }
    if (third !== undefined) {
      throw new TridentError(`${what}: three arguments need the method name first: ${what}(method, inputs, options)`, ErrorCode.InvalidArgument);
    }
    let inputs: readonly InputValue[] = [];
    let runOptions = options(second, 'second');
    if (Array.isArray(first)) inputs = first as readonly InputValue[];
    else if (first !== undefined) {
      if (second !== undefined) throw new TridentError(`${what}: the inputs come first, as an array: ${what}(inputs, options)`, ErrorCode.InvalidArgument);
      runOptions = options(first, 'first');
    }
    this.assertLive(`${what}()`);
    const name = this.defaultMethod;
    if (name === undefined) {
      throw new TridentError(
        `${what}(): this program has ${this.methods.length} methods (${this.methods.map((m) => `'${m.name}'`).join(', ') || 'none'}) and none is 'forward'; name the one to run`,
        ErrorCode.MethodMissing,
      );
    }
    return [name, inputs, runOptions];
  }

  /**
   * Runs `method` (default: {@link defaultMethod}) on `inputs` (one per
   * input of its signature) and resolves to its outputs. Tensor data is
   * written straight into the runtime's planned input slots; outputs are
   * copied out, so they stay valid after later runs and after dispose().
   * Runs of one model take turns: a call made while another runs waits
   * for it. `options.signal` cancels the run (RunOptions).
   */
  async run(inputs?: readonly InputValue[], options?: RunOptions): Promise<OutputValue[]>;
  async run(method: string, inputs?: readonly InputValue[], options?: RunOptions): Promise<OutputValue[]>;
  async run(first?: string | readonly InputValue[], second?: readonly InputValue[] | RunOptions, third?: RunOptions): Promise<OutputValue[]> {
    const [method, values, options] = this.#call('run', first, second, third);
    return (await this.#run(method, values, false, options)).outputs;
  }

  /**
   * Like run(), for methods whose outputs are all tensors: resolves to
   * Tensors, or rejects with InvalidType naming the first output that is
   * not one.
   */
  async runTensors(inputs?: readonly InputValue[], options?: RunOptions): Promise<AnyTensor[]>;
  async runTensors(method: string, inputs?: readonly InputValue[], options?: RunOptions): Promise<AnyTensor[]>;
  async runTensors(first?: string | readonly InputValue[], second?: readonly InputValue[] | RunOptions, third?: RunOptions): Promise<AnyTensor[]> {
    const [method, values, options] = this.#call('runTensors', first, second, third);
    const { outputs } = await this.#run(method, values, false, options);
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
  async profile(inputs?: readonly InputValue[], options?: RunOptions): Promise<RunProfile>;
  async profile(method: string, inputs?: readonly InputValue[], options?: RunOptions): Promise<RunProfile>;
  async profile(first?: string | readonly InputValue[], second?: readonly InputValue[] | RunOptions, third?: RunOptions): Promise<RunProfile> {
    const [method, values, options] = this.#call('profile', first, second, third);
    const start = performance.now();
    const { outputs, instructions } = await this.#run(method, values, true, options);
    return { outputs, totalMs: performance.now() - start, instructions: instructions ?? [] };
  }

  #run(method: string, inputs: readonly InputValue[], profile: boolean, options: RunOptions): Promise<{ outputs: OutputValue[]; instructions?: InstructionProfile[] }> {
    const m = this.#indexOf(method);
    const info = this.methods[m]!;
    checkInputs(info, inputs);
    return this.#engine.run(m, info, inputs, profile, (text) => this.#deliverPrinted(text), options.signal);
  }

  /** What the program printed (TFRT's tfrt.print.*): to onPrint, else to the console. */
  #deliverPrinted(text: string): void {
    if (this.#onPrint !== undefined) this.#onPrint(text);
    else console.log(text.endsWith('\n') ? text.slice(0, -1) : text);
  }

  /** The test cases embedded in a .bpte, with their expected outputs ([] for a .pte). */
  bundledTests(): BundledTest[] {
    this.assertLive('bundledTests()');
    return this.#engine.bundledTests().map((raw, i) => {
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
    if (method === undefined) [method] = this.#call('sampleInputs', undefined, undefined, undefined);
    this.method(method);
    const raw = this.#engine.sampleInputs(method);
    if (raw === null) return null;
    if (!Array.isArray(raw)) {
      throw new TridentError(`sampleInputs('${method}'): runtime returned a malformed list`, ErrorCode.Internal);
    }
    return raw.map((v, i) => valueFromJson(v, `sampleInputs('${method}'): input ${i}`) as InputValue);
  }

  /**
   * The graph of `method` (default: {@link defaultMethod}) as the file
   * describes it: every instruction or node with its operator, arguments and
   * results, the values between them with dtypes and shapes, the edges from
   * each value's writer to its readers, and nested graphs (a delegate's own
   * nodes, a BEF kernel's region functions). See inspect.ts for the shape.
   */
  async graph(method?: string): Promise<Graph> {
    this.assertLive('graph()');
    if (method === undefined) [method] = this.#call('graph', undefined, undefined, undefined);
    return this.#engine.graph(this.#indexOf(method), method);
  }

  /**
   * Puts the state a program keeps across runs back to what it was after
   * load: an LLM's KV caches (mutable buffers, which ExecuTorch programs
   * keep in planned memory from one run to the next), a training program's
   * parameters. Runs after it start a new sequence. Programs without such
   * state are unaffected.
   */
  async resetState(): Promise<void> {
    this.assertLive('resetState()');
    await this.#engine.resetState();
  }

  /**
   * The memory the model holds now: the file bytes it keeps, the scratch its
   * kernels share, and per method its bookkeeping and planned memory. For a
   * method planned per shape (MethodInfo.memoryPlan 'per-shape'), plannedBytes
   * grows with the largest shapes run so far and peakBytes is the most its
   * runs placed at once.
   */
  async memory(): Promise<ModelMemory> {
    this.assertLive('memory()');
    return this.#engine.memory();
  }

  /** Every constant tensor of the program (delegates' included): name, dtype, shape, bytes. */
  async weights(): Promise<WeightInfo[]> {
    this.assertLive('weights()');
    return this.#engine.weights();
  }

  /**
   * One constant tensor by its weights() name, as a Tensor holding a copy of
   * its bytes (a view would be detached when wasm memory grows). Packed
   * 4-bit delegate weights come as their bytes (uint8). Throws NotFound for
   * an unknown name, ExternalDataMissing for a .ptd tensor not attached.
   */
  async weight(name: string): Promise<AnyTensor> {
    this.assertLive('weight()');
    return this.#engine.weight(name);
  }

  /** Frees the native program. Further calls throw; dispose() again is a no-op. */
  dispose(): void {
    this.#engine.dispose();
  }

  /** dispose(), for `using model = await load(...)`. */
  [Symbol.dispose](): void {
    this.dispose();
  }

  private assertLive(what: string): void {
    if (this.#engine.disposed) {
      throw new TridentError(`${what}: this Model was disposed; load the file again to use it`, ErrorCode.InvalidState);
    }
  }
}
