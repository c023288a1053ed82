// The page's side of worker mode: one worker per build choice, shared by
// every model loaded with `worker: true`, started on first use and ended
// when its last model is disposed (a wasm memory never shrinks; ending the
// worker is what gives it back). RemoteEngine is a Model's engine there.

import { throwIfAborted, type AbortSignalLike } from '../abort.js';
import { currentKernels } from '../custom-kernels.js';
import type { EngineRun, ModelEngine } from '../engine/model-engine.js';
import { ErrorCode, TridentError } from '../errors.js';
import { env } from '../env.js';
import type { Graph, WeightInfo } from '../inspect.js';
import type { RuntimeInfo } from '../load.js';
import { handOverBuild, type ThreadsChoice } from '../native/load-wasm.js';
import { parseGraph } from '../native/native-program.js';
import { isNode, nodePlatform, type WorkerEndpoint } from '../platform.js';
import { Tensor, type AnyTensor } from '../tensor.js';
import type { InputValue, MethodInfo, ModelMemory } from '../values.js';
import { startBrowserWorker } from './browser-worker.js';
import { answerKernelCall, isKernelCall, type KernelCall } from './kernel-calls.js';
import type { LoadedReply, LoadRequest, Reply, Request, RunReply } from './protocol.js';
import { fromWire, fromWireError, toWire, workerFailed, type WireValue } from './wire.js';

type Pending = { resolve: (reply: Reply) => void; reject: (err: Error) => void };

/** Distributes a request over Omit, keeping each member's own fields. */
type Unsent<R> = R extends unknown ? Omit<R, 'id'> : never;

/** The worker for each build choice, while it is starting or running. */
const runtimes = new Map<ThreadsChoice, Promise<WorkerRuntime>>();
const running = new Map<ThreadsChoice, WorkerRuntime>();

export class WorkerRuntime {
  readonly #endpoint: WorkerEndpoint;
  readonly #pending = new Map<number, Pending>();
  readonly #key: ThreadsChoice;
  #nextId = 1;
  #users = 0;
  #failure: Error | undefined;
  /** Released by its last model: ends once what was sent is answered. */
  #endWhenIdle: Error | undefined;
  /** The kernel pool's size in the worker. */
  poolThreads = 1;

  private constructor(endpoint: WorkerEndpoint, key: ThreadsChoice) {
    this.#endpoint = endpoint;
    this.#key = key;
    endpoint.listen(
      (data) => this.#receive(data as Reply | KernelCall),
      (reason) => this.#fail(workerFailed(reason)),
    );
    endpoint.keepAlive(false);
  }

  /** The worker for `threads`, started if needed, with one more user (release() when done). */
  static async acquire(threads: ThreadsChoice): Promise<WorkerRuntime> {
    let pending = runtimes.get(threads);
    if (pending === undefined) {
      pending = WorkerRuntime.#start(threads);
      runtimes.set(threads, pending);
      pending.catch(() => runtimes.delete(threads));
    }
    const runtime = await pending;
    runtime.#users++;
    return runtime;
  }

  static async #start(threads: ThreadsChoice): Promise<WorkerRuntime> {
    const [build, endpoint] = await Promise.all([handOverBuild(threads), isNode ? nodePlatform('worker mode').startWorker() : startBrowserWorker()]);
    const runtime = new WorkerRuntime(endpoint, threads);
    try {
      await runtime.request({ op: 'init', build, simd: env.simd });
    } catch (err) {
      runtime.#end(err as Error);
      throw err;
    }
    runtime.poolThreads = build.poolThreads;
    running.set(threads, runtime);
    return runtime;
  }

  /**
   * One user fewer; the last one ends the worker, once the requests already
   * sent are answered (runs still under way when their model is disposed
   * finish and return). Returns whether the worker lives on.
   */
  release(): boolean {
    if (--this.#users > 0) return true;
    this.#endWhenIdle = workerFailed('was ended: its last model was disposed');
    // A load from now on starts a worker of its own.
    this.#forget();
    if (this.#pending.size === 0) this.#end(this.#endWhenIdle);
    return false;
  }

  /** Sends `request`; resolves to the worker's reply (an error reply included). `sent` learns its id. */
  send(request: Unsent<Request>, transfer: Transferable[] = [], sent?: (id: number) => void): Promise<Reply> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#endWhenIdle !== undefined) return Promise.reject(this.#endWhenIdle);
    const id = this.#nextId++;
    sent?.(id);
    return new Promise<Reply>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#endpoint.keepAlive(true);
      this.#endpoint.post({ ...request, id }, transfer);
    });
  }

  /** send(), resolving to the result and rejecting with the worker's error. */
  async request(request: Unsent<Request>, transfer: Transferable[] = []): Promise<unknown> {
    const reply = await this.send(request, transfer);
    if (!reply.ok) throw fromWireError(reply.error);
    return reply.result;
  }

  /** Asks the worker to drop cancellable run `id` (its reply still comes, and is ignored). */
  cancel(id: number): void {
    if (this.#failure === undefined && this.#pending.has(id)) this.#endpoint.post({ op: 'cancel', run: id }, []);
  }

  #receive(reply: Reply | KernelCall): void {
    if (isKernelCall(reply)) {
      answerKernelCall(reply);
      return;
    }
    const pending = this.#pending.get(reply.id);
    if (pending === undefined) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#endpoint.keepAlive(false);
    pending.resolve(reply);
    if (this.#pending.size === 0 && this.#endWhenIdle !== undefined) this.#end(this.#endWhenIdle);
  }

  #fail(err: Error): void {
    this.#end(err);
  }

  /** Ends the worker; what is pending, and every later request, rejects with `reason`. */
  #end(reason: Error): void {
    if (this.#failure !== undefined) return;
    this.#failure = reason;
    for (const { reject } of this.#pending.values()) reject(reason);
    this.#pending.clear();
    this.#forget();
    this.#endpoint.terminate();
  }

  #forget(): void {
    if (running.get(this.#key) === this) {
      running.delete(this.#key);
      runtimes.delete(this.#key);
    }
  }
}

/** Sends a load to the runtime's worker; the model's engine, holding one use of the worker. */
export async function loadRemote(runtime: WorkerRuntime, files: LoadRequest['files'], options: LoadRequest['options'], transfer: Transferable[]): Promise<RemoteEngine> {
  const kernels = currentKernels();
  if (kernels.length > 0 && !sharedMemory()) {
    throw new TridentError(
      `load: worker mode runs JavaScript kernels (${kernels.map((k) => k.name).join(', ')}) on the page's thread, which needs shared memory: ` +
        'serve the page cross-origin isolated (COOP/COEP headers), or load without worker: true',
      ErrorCode.NotSupported,
    );
  }
  const loaded = (await runtime.request({ op: 'load', files, options, kernels }, transfer)) as LoadedReply;
  return new RemoteEngine(runtime, loaded);
}

/** Whether the worker can block on memory the page writes: SharedArrayBuffer, which browsers give only to cross-origin isolated pages. */
function sharedMemory(): boolean {
  return typeof SharedArrayBuffer === 'function' && (isNode || (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true);
}

export class RemoteEngine implements ModelEngine {
  readonly format: string;
  readonly methods: readonly MethodInfo[];
  readonly poolThreads: number;
  readonly #runtime: WorkerRuntime;
  readonly #loaded: LoadedReply;
  #disposed = false;

  constructor(runtime: WorkerRuntime, loaded: LoadedReply) {
    this.#runtime = runtime;
    this.#loaded = loaded;
    this.format = loaded.format;
    this.methods = Object.freeze(loaded.methods.map((m) => Object.freeze(m)));
    this.poolThreads = loaded.poolThreads;
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  setThreads(threads: number): void {
    // Requests are answered in order, so the next run sees it.
    void this.#runtime.send({ op: 'threads', model: this.#loaded.model, threads }).catch(() => {});
  }

  async resetState(): Promise<void> {
    await this.#runtime.request({ op: 'resetState', model: this.#loaded.model });
  }

  async run(index: number, _info: MethodInfo, inputs: readonly InputValue[], profile: boolean, print: (text: string) => void, signal?: AbortSignalLike): Promise<EngineRun> {
    throwIfAborted(signal);
    // Inputs are copied (the caller keeps its tensors); outputs are the
    // worker's fresh arrays, transferred.
    let id = 0;
    const sending = this.#runtime.send(
      { op: 'run', model: this.#loaded.model, method: index, inputs: inputs.map(toWire), profile, simd: env.simd, cancellable: signal !== undefined },
      [],
      (sent) => (id = sent),
    );
    const reply = signal === undefined ? await sending : await this.#untilAborted(sending, signal, () => this.#runtime.cancel(id));
    if (reply.printed) print(reply.printed);
    if (!reply.ok) throw fromWireError(reply.error);
    const { outputs, mutated, instructions } = reply.result as RunReply;
    for (const [i, value] of mutated) {
      const target = inputs[i];
      const updated = fromWire(value);
      if (target instanceof Tensor && updated instanceof Tensor) (target.data as { set(from: ArrayLike<unknown>): void }).set(updated.data);
    }
    const result: EngineRun = { outputs: outputs.map(fromWire) };
    if (instructions !== undefined) result.instructions = instructions;
    return result;
  }

  /**
   * `reply`, or the signal's reason as soon as it fires (the page need not
   * wait for the worker to reach a slice's end; `cancel` tells it to stop).
   */
  #untilAborted(reply: Promise<Reply>, signal: AbortSignalLike, cancel: () => void): Promise<Reply> {
    return new Promise<Reply>((resolve, reject) => {
      const onAbort = (): void => {
        cancel();
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      reply.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  bundledTests(): unknown[] {
    return this.#loaded.bundledTests;
  }

  sampleInputs(method: string): unknown {
    return this.#loaded.sampleInputs[method] ?? null;
  }

  async graph(index: number, name: string): Promise<Graph> {
    // The worker sends JSON text: parsing it here costs a fraction of cloning the objects.
    return parseGraph((await this.#runtime.request({ op: 'graph', model: this.#loaded.model, method: index, name })) as string, name);
  }

  async weights(): Promise<WeightInfo[]> {
    return (await this.#runtime.request({ op: 'weights', model: this.#loaded.model })) as WeightInfo[];
  }

  async memory(): Promise<ModelMemory> {
    return (await this.#runtime.request({ op: 'memory', model: this.#loaded.model })) as ModelMemory;
  }

  async weight(name: string): Promise<AnyTensor> {
    return fromWire((await this.#runtime.request({ op: 'weight', model: this.#loaded.model, name })) as WireValue) as AnyTensor;
  }

  async runtimeInfo(): Promise<RuntimeInfo> {
    return (await this.#runtime.request({ op: 'info' })) as RuntimeInfo;
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    // The last model ends the worker, which frees everything in it at once.
    if (this.#runtime.release()) void this.#runtime.send({ op: 'dispose', model: this.#loaded.model }).catch(() => {});
  }
}
