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
import type { LoadedReply, LoadRequest, Reply, Request, RunReply } from './protocol.js';
import { buffersOf, fromWire, toWire, toWireError, type WireValue } from './wire.js';

export type PostReply = (reply: Reply, transfer: Transferable[]) => void;

/** A handler for the page's requests, answering each through `post`. */
export function serveRequests(post: PostReply): (request: Request) => void {
  const engines = new Map<number, LocalEngine>();
  let nextModel = 1;
  let queue = Promise.resolve();

  function engineOf(model: number): LocalEngine {
    const engine = engines.get(model);
    if (engine === undefined) throw new TridentError(`the worker has no model ${model} (disposed?)`, ErrorCode.InvalidState);
    return engine;
  }

  async function load({ files, options }: LoadRequest): Promise<LoadedReply> {
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

  function run(request: Extract<Request, { op: 'run' }>, print: (text: string) => void): [RunReply, Transferable[]] {
    const engine = engineOf(request.model);
    const info = engine.methods[request.method];
    if (info === undefined) throw new TridentError(`the model has no method ${request.method}`, ErrorCode.MethodMissing);
    const inputs = request.inputs.map(fromWire) as InputValue[];
    const { outputs, instructions } = engine.runNow(request.method, info, inputs, request.profile, print);
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
          [result, transfer] = run(request, print);
          break;
        case 'threads':
          engineOf(request.model).setThreads(request.threads);
          break;
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
    }
  }

  return (request) => {
    queue = queue.then(() => handle(request));
  };
}
