// The worker's side of worker mode: the runtime runs here, on the build the
// page handed over, and answers the page's requests (protocol.ts) one at a
// time, in order. Models live here as LocalEngines; the page holds
// RemoteEngines that name them by number.

import { buildInfo, LocalEngine } from '../engine/local-engine.js';
import { env } from '../env.js';
import { ErrorCode, TridentError } from '../errors.js';
import { loadWasm, useHandedBuild } from '../native/load-wasm.js';
import { Tensor } from '../tensor.js';
import type { InputValue } from '../values.js';
import { registerKernel, registeredKernels, unregisterKernel } from '../custom-kernels.js';
import { pageKernel, type KernelCall } from './kernel-calls.js';
import type { CancelMessage, LoadedReply, LoadRequest, Reply, Request, RunReply } from './protocol.js';
import { buffersOf, fromWire, toWire, toWireError, type WireValue } from './wire.js';

export type PostReply = (reply: Reply | KernelCall, transfer: Transferable[]) => void;

/** A handler for the page's requests, answering each through `post`. */
export function serveRequests(post: PostReply): (message: Request | CancelMessage) => void {
  const engines = new Map<number, LocalEngine>();
  /** Cancellable runs sent and not yet answered, by request id. */
  const cancels = new Map<number, AbortController>();
  let nextModel = 1;
  let queue = Promise.resolve();

  function engineOf(model: number): LocalEngine {
    const engine = engines.get(model);
    if (engine === undefined) throw new TridentError(`the worker has no model ${model} (disposed?)`, ErrorCode.InvalidState);
    return engine;
  }

  /** The page registration each JS kernel name stands for here. */
  const mirrored = new Map<string, number>();

  /** Binds, for the program about to load, the page's JS kernels, each run on the page. */
  async function mirrorKernels(kernels: LoadRequest['kernels']): Promise<void> {
    for (const name of registeredKernels()) {
      if (!kernels.some((k) => k.name === name)) {
        unregisterKernel(name);
        mirrored.delete(name);
      }
    }
    for (const { name, id, outputs, override } of kernels) {
      if (mirrored.get(name) === id) continue;
      const replacing = registeredKernels().includes(name);
      await registerKernel(name, pageKernel(id, (call) => post(call, [])), { outputs, override: override || replacing });
      mirrored.set(name, id);
    }
  }

  async function load({ files, options, kernels }: LoadRequest): Promise<LoadedReply> {
    await mirrorKernels(kernels);
    const [program, ...data] = files;
    const engine = LocalEngine.open(
      await loadWasm(),
      program!.bytes,
      data.map((file) => file.bytes),
      { ...options, sourceName: program!.name },
    );
    const model = nextModel++;
    engines.set(model, engine);
    const sampleInputs: Record<string, unknown> = {};
    for (const method of engine.methods) sampleInputs[method.name] = engine.sampleInputs(method.name);
    return { model, format: engine.format, methods: [...engine.methods], poolThreads: engine.poolThreads, bundledTests: engine.bundledTests(), sampleInputs };
  }

  async function run(request: Extract<Request, { op: 'run' }>, print: (text: string) => void): Promise<[RunReply, Transferable[]]> {
    const engine = engineOf(request.model);
    const info = engine.methods[request.method];
    if (info === undefined) throw new TridentError(`the model has no method ${request.method}`, ErrorCode.MethodMissing);
    const inputs = request.inputs.map(fromWire) as InputValue[];
    const signal = cancels.get(request.id)?.signal;
    const { outputs, instructions } =
      signal === undefined ? engine.runNow(request.method, info, inputs, request.profile, print) : await engine.run(request.method, info, inputs, request.profile, print, signal);
    const wired = outputs.map(toWire);
    const mutated = (info.mutatedInputs ?? []).filter((i) => inputs[i] instanceof Tensor).map((i): [number, WireValue] => [i, toWire(inputs[i]!)]);
    const reply: RunReply = instructions === undefined ? { outputs: wired, mutated } : { outputs: wired, mutated, instructions };
    return [reply, buffersOf([...wired, ...mutated.map(([, value]) => value)])];
  }

  async function handle(request: Request): Promise<void> {
    let printed = '';
    const print = (text: string): void => void (printed += text);
    try {
      let result: Extract<Reply, { ok: true }>['result'] = null;
      let transfer: Transferable[] = [];
      switch (request.op) {
        case 'init':
          env.simd = request.simd;
          await useHandedBuild(request.build);
          break;
        case 'load':
          result = await load(request);
          break;
        case 'run':
          // env.simd is read at every run, on the page's side.
          env.simd = request.simd;
          [result, transfer] = await run(request, print);
          break;
        case 'threads':
          engineOf(request.model).setThreads(request.threads);
          break;
        case 'resetState':
          await engineOf(request.model).resetState();
          break;
        case 'graph':
          result = engineOf(request.model).graphText(request.method, request.name);
          break;
        case 'weights':
          result = await engineOf(request.model).weights();
          break;
        case 'memory':
          result = await engineOf(request.model).memory();
          break;
        case 'weight': {
          const wired = toWire(await engineOf(request.model).weight(request.name));
          [result, transfer] = [wired, buffersOf([wired])];
          break;
        }
        case 'info':
          result = buildInfo(await loadWasm(), true);
          break;
        case 'dispose':
          engines.get(request.model)?.dispose();
          engines.delete(request.model);
          break;
      }
      post({ id: request.id, ok: true, result, ...(printed && { printed }) }, transfer);
    } catch (err) {
      post({ id: request.id, ok: false, error: toWireError(err), ...(printed && { printed }) }, []);
    } finally {
      cancels.delete(request.id);
    }
  }

  return (message) => {
    if (message.op === 'cancel') {
      // Handled at once, not queued: the run it names is under way or waiting.
      cancels.get(message.run)?.abort();
      return;
    }
    if (message.op === 'run' && message.cancellable) cancels.set(message.id, new AbortController());
    queue = queue.then(() => handle(message));
  };
}
