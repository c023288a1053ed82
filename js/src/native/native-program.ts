// The only code that touches the wasm heap: hands file bytes to the runtime,
// writes inputs into their planned slots, copies outputs out, and turns
// every non-zero status into a TridentError carrying the runtime's message.

import type { OpenOptions } from '../engine/local-engine.js';
import { arrayClassOf, assertDType, bytesPerElement, type DType } from '../dtype.js';
import { env } from '../env.js';
import { ErrorCode, TridentError } from '../errors.js';
import type { Graph, WeightInfo } from '../inspect.js';
import { Tensor, shapeSize, type AnyTensor } from '../tensor.js';
import type { NativeProgram, RawInstructionProfile, RawMethod, TridentModule } from './types.js';
import type { ModelMemory } from '../values.js';
import { ValueReader, type RawValue } from './value-descriptor.js';

type RawTensor = Extract<RawValue, { kind: 'Tensor' }>;
/** An output copied out of the heap: tensors as Tensors, other kinds as read. */
export type NativeOutput = { kind: 'Tensor'; tensor: Tensor } | Exclude<RawValue, RawTensor>;

/** The most memory a wasm32 module can have. */
const WASM32_MEMORY = 2 ** 32;

/** executeSlice()'s status for a run stopped between two instructions. */
const SUSPENDED = -1;

// Frees the native program of a Model that was dropped without dispose().
const leaks = new FinalizationRegistry<NativeProgram>((program) => program.delete());

export class NativeHandle {
  private program: NativeProgram | null;
  private readonly reader: ValueReader;
  private readonly shapeAddress: number;
  /** Outputs per method index, asked once. */
  private readonly outputCounts: number[] = [];
  /** A run is under way (see hold()). */
  private busy = false;
  /** dispose() came during a run: the program is freed when the run ends. */
  private disposeWhenIdle = false;

  private constructor(
    private readonly module: TridentModule,
    program: NativeProgram,
    /** Limits.maxWasmMemoryBytes, set on the module around every call that may allocate. */
    private readonly memoryLimit: number,
  ) {
    this.program = program;
    leaks.register(this, program, this);
    this.reader = ValueReader.of(module);
    this.shapeAddress = program.shapeAddress();
  }

  /** Loads a program; data files (.ptd) are registered before the program. */
  static open(
    module: TridentModule,
    bytes: Uint8Array,
    dataFiles: readonly Uint8Array[],
    options: OpenOptions,
  ): NativeHandle {
    module.setMemoryLimit(options.maxWasmMemoryBytes);
    const handle = new NativeHandle(module, new module.NativeProgram(), options.maxWasmMemoryBytes);
    try {
      dataFiles.forEach((data, i) => {
        const ptr = handle.copyIn(data, `external data file ${i}`);
        handle.check(handle.live().addDataFile(ptr, data.length), `external data file ${i}`);
      });
      const ptr = handle.copyIn(bytes, 'the program');
      const program = handle.live();
      const status = program.load(
        ptr,
        bytes.length,
        options.maxPlannedBytes,
        options.maxTensorElements,
        options.maxInstructionsPerRun,
        options.optimize,
        options.memoryPlan,
        options.numThreads,
        options.keepFileBytes,
        options.sourceName,
      );
      handle.check(status, options.sourceName === '' ? 'cannot load the program' : `cannot load ${options.sourceName}`);
    } catch (err) {
      handle.dispose();
      throw err;
    }
    return handle;
  }

  get disposed(): boolean {
    return this.program === null || this.disposeWhenIdle;
  }

  /**
   * Runs `body` (a run, or a state reset) with the program held. A JS kernel
   * runs inside the native run: if it disposes the model, the program is
   * freed once the run has ended (its outputs still come back); if it runs
   * or resets this same model, that call is refused, since the run is using
   * the program's memory.
   */
  hold<T>(what: string, body: () => T): T {
    this.take(what);
    try {
      return body();
    } finally {
      this.release();
    }
  }

  /**
   * hold() across awaits, for a run in slices: dispose() before it settles
   * frees the program when it does.
   */
  async holdAcross<T>(what: string, body: () => Promise<T>): Promise<T> {
    this.take(what);
    try {
      return await body();
    } finally {
      this.release();
    }
  }

  private take(what: string): void {
    if (this.busy) {
      throw new TridentError(`${what}: this model is in the middle of a run (a JS kernel cannot run or reset the model that calls it)`, ErrorCode.InvalidState);
    }
    this.live();
    this.busy = true;
  }

  private release(): void {
    this.busy = false;
    if (this.disposeWhenIdle) this.free();
  }

  format(): string {
    return this.live().format();
  }

  describe(): RawMethod[] {
    return this.json<{ methods: RawMethod[] }>(this.live().describe(), 'describe()').methods;
  }

  // The run path: methods by index (describe()'s order), `name` only for
  // messages, and nothing but numbers across the boundary.

  /** Resizes tensor input `index` and writes its bytes into the planned slot. */
  writeTensor(method: number, name: string, index: number, tensor: Tensor): void {
    const program = this.live();
    this.module.setMemoryLimit(this.memoryLimit);
    const shape = tensor.shape;
    new Int32Array(this.module.HEAPU8.buffer, this.shapeAddress, shape.length).set(shape);
    const ptr = program.prepareInput(method, index, shape.length);
    if (ptr === 0) this.fail(`run('${name}')`);
    const data = tensor.data;
    // Re-read HEAPU8 after the call: memory may have grown and detached it.
    this.module.HEAPU8.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), ptr);
  }

  setInt(method: number, name: string, index: number, value: number | bigint): void {
    let low: number;
    let high: number;
    if (typeof value === 'number') {
      low = value >>> 0;
      high = Math.floor(value / 2 ** 32) | 0;
    } else {
      const bits = BigInt.asUintN(64, value);
      low = Number(bits & 0xffffffffn);
      high = Number(BigInt.asIntN(32, bits >> 32n));
    }
    if (this.live().setInputInt(method, index, low, high) !== 0) this.fail(`run('${name}')`);
  }

  setDouble(method: number, name: string, index: number, value: number): void {
    if (this.live().setInputDouble(method, index, value) !== 0) this.fail(`run('${name}')`);
  }

  setBool(method: number, name: string, index: number, value: boolean): void {
    if (this.live().setInputBool(method, index, value) !== 0) this.fail(`run('${name}')`);
  }

  /** What the program printed since the last call (TFRT's tfrt.print.*). */
  takePrinted(): string {
    const program = this.live();
    // A string return allocates in the heap; most runs print nothing.
    return program.printedSize() === 0 ? '' : program.takePrinted();
  }

  setThreads(threads: number): void {
    this.live().setThreads(threads);
  }

  resetState(): void {
    if (this.live().resetState() !== 0) this.fail('resetState()');
  }

  execute(method: number, name: string, profile = false): void {
    this.beforeRunning();
    if (this.live().execute(method, profile) !== 0) this.fail(`run('${name}')`);
  }

  /**
   * A run that can stop between instructions: runs about `sliceMs`, and
   * returns whether it finished; if not, resumeSlice() goes on with it and
   * abandon() drops it. Call inside holdAcross().
   */
  executeSlice(method: number, name: string, profile: boolean, sliceMs: number): boolean {
    this.beforeRunning();
    return this.sliceStatus(this.live().executeSlice(method, profile, sliceMs), name);
  }

  resumeSlice(method: number, name: string, sliceMs: number): boolean {
    this.beforeRunning();
    return this.sliceStatus(this.live().resumeSlice(method, sliceMs), name);
  }

  /**
   * Module-wide settings a run reads, set for this model: other models (and
   * env.simd changes) may have set them since.
   */
  private beforeRunning(): void {
    this.module.setSimdEnabled(env.simd);
    this.module.setMemoryLimit(this.memoryLimit);
  }

  abandon(method: number): void {
    this.program?.abandon(method);
  }

  private sliceStatus(status: number, name: string): boolean {
    if (status === SUSPENDED) return false;
    if (status !== 0) this.fail(`run('${name}')`);
    return true;
  }

  /** Per-instruction times of the last execute(method, true). */
  profile(method: number, name: string): RawInstructionProfile[] {
    return this.json<{ instructions: RawInstructionProfile[] }>(this.live().profile(method), `profile('${name}')`).instructions;
  }

  /**
   * Copies input `index`'s bytes, as the last run left them, into `tensor`
   * (which must have the input's dtype and shape): for inputs a method
   * mutates in place.
   */
  readInputInto(method: number, name: string, index: number, tensor: Tensor): void {
    const address = this.live().input(method, index);
    if (address === 0) this.fail(`run('${name}'): input ${index}`);
    const [raw] = this.reader.read(address, 1, `run('${name}'): input`);
    if (raw?.kind !== 'Tensor' || raw.nbytes !== tensor.data.byteLength) {
      throw new TridentError(`run('${name}'): input ${index} came back with another size`, ErrorCode.Internal);
    }
    const data = tensor.data;
    new Uint8Array(data.buffer, data.byteOffset, data.byteLength).set(this.module.HEAPU8.subarray(raw.ptr, raw.ptr + raw.nbytes));
  }

  /** Copies every output out of the heap; call right after execute(). */
  readOutputs(method: number, name: string): NativeOutput[] {
    const program = this.live();
    let count = this.outputCounts[method];
    if (count === undefined) {
      count = program.outputCount(method);
      if (count < 0) this.fail(`run('${name}')`);
      this.outputCounts[method] = count;
    }
    const address = program.outputs(method);
    if (address === 0) this.fail(`run('${name}')`);
    return this.reader.read(address, count, `${name}: output`).map((raw, i) => {
      const where = `${name}: output ${i}`;
      if (raw.kind === 'Tensor') return { kind: 'Tensor', tensor: this.copyTensor(raw, where) };
      if (raw.kind === 'Json') {
        // A dataflow function's tensor result: its JSON names it in the heap.
        const value = this.json<{ kind: string; dtype?: unknown; shape?: number[]; ptr?: number; nbytes?: number }>(raw.text, where);
        if (value.kind === 'Tensor') {
          const dtype = assertDType(value.dtype, where);
          const tensor: RawTensor = { kind: 'Tensor', dtype, shape: value.shape ?? [], ptr: value.ptr ?? 0, nbytes: value.nbytes ?? 0 };
          return { kind: 'Tensor', tensor: this.copyTensor(tensor, where) };
        }
      }
      return raw;
    });
  }

  bundledTests(): unknown[] {
    const program = this.live();
    const count = program.bundledTestCount();
    const tests: unknown[] = [];
    for (let i = 0; i < count; i++) tests.push(this.json(program.bundledTest(i), `bundled test ${i}`));
    return tests;
  }

  /** The example inputs the file stores for `method` as JSON values, or null when it has none. */
  sampleInputs(method: string): unknown[] | null {
    const program = this.live();
    const text = program.sampleInputs(method);
    if (text === '' && program.lastErrorCode() === ErrorCode.NotFound) return null;
    return this.json<unknown[]>(text, `sampleInputs('${method}')`);
  }

  /** Method `method`'s graph (inspect.ts). */
  graph(method: number, name: string): Graph {
    return parseGraph(this.graphText(method, name), name);
  }

  /** The same as JSON text: what worker mode sends (JSON.parse on the page is several times cheaper than a structured clone of the objects). */
  graphText(method: number, name: string): string {
    const text = this.live().graph(method);
    if (text === '') this.fail(`graph('${name}')`);
    return text;
  }

  memory(): ModelMemory {
    return JSON.parse(this.live().memory()) as ModelMemory;
  }

  weights(): WeightInfo[] {
    return this.json<{ weights: WeightInfo[] }>(this.live().weights(), 'weights()').weights;
  }

  /** A copy of one weight's bytes: wasm memory may grow, which detaches any view of it. */
  weight(name: string): AnyTensor {
    const where = `weight('${name}')`;
    const raw = this.json<{ dtype: unknown; shape: number[]; address: number; nbytes: number }>(this.live().weight(name), where);
    const dtype = assertDType(raw.dtype, where);
    return this.copyTensor({ kind: 'Tensor', dtype, shape: raw.shape, ptr: raw.address, nbytes: raw.nbytes }, where) as AnyTensor;
  }

  dispose(): void {
    if (this.program === null) return;
    if (this.busy) {
      this.disposeWhenIdle = true;
      return;
    }
    this.free();
  }

  private free(): void {
    if (this.program === null) return;
    leaks.unregister(this);
    this.program.delete();
    this.program = null;
  }

  private live(): NativeProgram {
    if (this.program === null) {
      throw new TridentError('this Model was disposed; load the file again to use it', ErrorCode.InvalidState);
    }
    return this.program;
  }

  /** Copies bytes into a fresh heap block whose ownership passes to the program. */
  private copyIn(bytes: Uint8Array, what: string): number {
    // The export returns a signed i32: an address past 2 GiB (the memory
    // grows to 4 GiB) comes back negative without the unsigned shift.
    const ptr = this.module._malloc(Math.max(bytes.length, 1)) >>> 0;
    if (ptr === 0) {
      if (this.memoryLimit < WASM32_MEMORY) {
        throw new TridentError(
          `cannot allocate ${bytes.length} bytes of wasm memory for ${what}: the wasm memory may not grow past maxWasmMemoryBytes, ${this.memoryLimit} bytes`,
          ErrorCode.LimitExceeded,
        );
      }
      throw new TridentError(`cannot allocate ${bytes.length} bytes of wasm memory for ${what}`, ErrorCode.MemoryAllocationFailed);
    }
    this.module.HEAPU8.set(bytes, ptr);
    return ptr;
  }

  private copyTensor(raw: RawTensor, where: string): Tensor {
    const dtype: DType = raw.dtype;
    const expected = shapeSize(raw.shape) * bytesPerElement(dtype);
    if (raw.nbytes !== expected) {
      throw new TridentError(
        `${where}: runtime reported ${raw.nbytes} bytes for ${dtype}[${raw.shape.join(', ')}], expected ${expected}`,
        ErrorCode.Internal,
      );
    }
    // slice() copies into a fresh, aligned buffer that outlives the next run.
    const bytes = this.module.HEAPU8.slice(raw.ptr, raw.ptr + raw.nbytes);
    const Data = arrayClassOf(dtype);
    return new Tensor(dtype, new Data(bytes.buffer, 0, bytes.length / Data.BYTES_PER_ELEMENT), raw.shape);
  }

  /** Parses a JSON answer; "" means the call failed (details in lastError). */
  private json<T>(text: string, what: string): T {
    if (text === '') this.fail(what);
    return parseJson<T>(text, what);
  }

  private check(status: number, context: string): void {
    if (status !== 0) this.fail(context);
  }

  private fail(context: string): never {
    const program = this.live();
    const message = program.lastError() || 'unknown runtime error';
    const code = program.lastErrorCode() || ErrorCode.Internal;
    if (code === ErrorCode.MemoryAllocationFailed && this.memoryLimit < WASM32_MEMORY) {
      // The heap stopped at the model's bound, not at the engine's.
      throw new TridentError(`${context}: ${message} (the wasm memory may not grow past maxWasmMemoryBytes, ${this.memoryLimit} bytes)`, ErrorCode.LimitExceeded);
    }
    throw new TridentError(`${context}: ${message}`, code);
  }
}

/** A runtime JSON answer, parsed; invalid JSON is an internal error naming `what`. */
export function parseJson<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new TridentError(`${what}: runtime returned invalid JSON: ${(err as Error).message}`, ErrorCode.Internal);
  }
}

/** A graph's JSON text (graphText) as the Graph it describes. */
export function parseGraph(text: string, name: string): Graph {
  return parseJson<Graph>(text, `graph('${name}')`);
}
