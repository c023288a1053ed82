// The only code that touches the wasm heap: hands file bytes to the runtime,
// writes inputs into their planned slots, copies outputs out, and turns
// every non-zero status into a TridentError carrying the runtime's message.

import { arrayClassOf, assertDType, bytesPerElement, type DType } from '../dtype.js';
import { env } from '../env.js';
import { ErrorCode, TridentError } from '../errors.js';
import { Tensor, shapeSize } from '../tensor.js';
import type { NativeProgram, RawInstructionProfile, RawMethod, RawOutput, TridentModule } from './types.js';

export type ScalarKind = 'Int' | 'Double' | 'Bool';
export type NativeOutput = { kind: 'Tensor'; tensor: Tensor } | { kind: string; value: string | number | boolean | null };

// Frees the native program of a Model that was dropped without dispose().
const leaks = new FinalizationRegistry<NativeProgram>((program) => program.delete());

export class NativeHandle {
  private program: NativeProgram | null;

  private constructor(
    private readonly module: TridentModule,
    program: NativeProgram,
  ) {
    this.program = program;
    leaks.register(this, program, this);
  }

  /** Loads a program; data files (.ptd) are registered before the program. */
  static open(module: TridentModule, bytes: Uint8Array, dataFiles: readonly Uint8Array[], maxPlannedBytes: number): NativeHandle {
    const handle = new NativeHandle(module, new module.NativeProgram());
    try {
      dataFiles.forEach((data, i) => {
        const ptr = handle.copyIn(data, `external data file ${i}`);
        handle.check(handle.live().addDataFile(ptr, data.length), `external data file ${i}`);
      });
      const ptr = handle.copyIn(bytes, 'the program');
      handle.check(handle.live().load(ptr, bytes.length, maxPlannedBytes), 'cannot load the program');
    } catch (err) {
      handle.dispose();
      throw err;
    }
    return handle;
  }

  get disposed(): boolean {
    return this.program === null;
  }

  format(): string {
    return this.live().format();
  }

  describe(): RawMethod[] {
    return this.json<{ methods: RawMethod[] }>(this.live().describe(), 'describe()').methods;
  }

  /** Resizes tensor input `index` and writes its bytes into the planned slot. */
  writeTensor(method: string, index: number, tensor: Tensor): void {
    const program = this.live();
    const ptr = program.prepareInput(method, index, [...tensor.shape]);
    if (ptr === 0) this.fail(`run('${method}')`);
    const data = tensor.data;
    // Re-read HEAPU8 after the call: memory may have grown and detached it.
    this.module.HEAPU8.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), ptr);
  }

  setScalar(method: string, index: number, kind: ScalarKind, value: string): void {
    this.check(this.live().setInputScalar(method, index, kind, value), `run('${method}')`);
  }

  setThreads(threads: number): void {
    this.live().setThreads(threads);
  }

  execute(method: string, profile = false): void {
    this.module.setSimdEnabled(env.simd);
    this.check(this.live().execute(method, profile), `run('${method}')`);
  }

  /** Per-instruction times of the last execute(method, true). */
  profile(method: string): RawInstructionProfile[] {
    return this.json<{ instructions: RawInstructionProfile[] }>(this.live().profile(method), `profile('${method}')`).instructions;
  }

  /**
   * Copies input `index`'s bytes, as the last run left them, into `tensor`
   * (which must have the input's dtype and shape): for inputs a method
   * mutates in place.
   */
  readInputInto(method: string, index: number, tensor: Tensor): void {
    const raw = this.json<RawOutput>(this.live().input(method, index), `run('${method}'): input ${index}`);
    if (!isTensorOutput(raw) || raw.nbytes !== tensor.data.byteLength) {
      throw new TridentError(`run('${method}'): input ${index} came back with another size`, ErrorCode.Internal);
    }
    const data = tensor.data;
    new Uint8Array(data.buffer, data.byteOffset, data.byteLength).set(this.module.HEAPU8.subarray(raw.ptr, raw.ptr + raw.nbytes));
  }

  /** Copies every output out of the heap; call right after execute(). */
  readOutputs(method: string): NativeOutput[] {
    const program = this.live();
    const count = program.outputCount(method);
    if (count < 0) this.fail(`run('${method}')`);
    const outputs: NativeOutput[] = [];
    for (let i = 0; i < count; i++) {
      const raw = this.json<RawOutput>(program.output(method, i), `run('${method}'): output ${i}`);
      if (isTensorOutput(raw)) outputs.push({ kind: 'Tensor', tensor: this.copyTensor(raw, `${method}: output ${i}`) });
      else outputs.push({ kind: raw.kind, value: raw.value ?? null });
    }
    return outputs;
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

  dispose(): void {
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
    const ptr = this.module._malloc(Math.max(bytes.length, 1));
    if (ptr === 0) {
      throw new TridentError(`cannot allocate ${bytes.length} bytes of wasm memory for ${what}`, ErrorCode.MemoryAllocationFailed);
    }
    this.module.HEAPU8.set(bytes, ptr);
    return ptr;
  }

  private copyTensor(raw: Extract<RawOutput, { kind: 'Tensor' }>, where: string): Tensor {
    const dtype: DType = assertDType(raw.dtype, where);
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
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new TridentError(`${what}: runtime returned invalid JSON: ${(err as Error).message}`, ErrorCode.Internal);
    }
  }

  private check(status: number, context: string): void {
    if (status !== 0) this.fail(context);
  }

  private fail(context: string): never {
    const program = this.live();
    const message = program.lastError() || 'unknown runtime error';
    throw new TridentError(`${context}: ${message}`, program.lastErrorCode() || ErrorCode.Internal);
  }
}

function isTensorOutput(raw: RawOutput): raw is Extract<RawOutput, { kind: 'Tensor' }> {
  return raw.kind === 'Tensor';
}
