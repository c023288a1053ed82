// The embind contract of wasm/README.md, as TypeScript types. Only
// js/src/native/ uses these; the public API never sees a raw pointer.

/** An embind `NativeProgram`: statuses are 0 = ok, details in lastError(). */
export interface NativeProgram {
  addDataFile(ptr: number, len: number): number;
  /** memoryPlan: 0 auto, 1 file, 2 lifetimes, 3 per-shape (host_model.h's MemoryPlanChoice). */
  /** sourceName: what messages call the file (its path), '' when it has none. */
  load(
    ptr: number,
    len: number,
    maxPlannedBytes: number,
    maxTensorElements: number,
    maxInstructionsPerRun: number,
    optimize: boolean,
    memoryPlan: number,
    threads: number,
    keepFileBytes: boolean,
    sourceName: string,
  ): number;
  format(): string;
  describe(): string;
  /** Where prepareInput reads an input's sizes (int32[16]). */
  shapeAddress(): number;
  /** Resizes a tensor input to the `rank` sizes at shapeAddress(); its data address, or 0. */
  prepareInput(method: number, index: number, rank: number): number;
  /** An Int from its low (unsigned) and high (signed) 32-bit halves. */
  setInputInt(method: number, index: number, low: number, high: number): number;
  setInputDouble(method: number, index: number, value: number): number;
  setInputBool(method: number, index: number, value: boolean): number;
  /** Threads this model's runs may use; 0: all the pool has. */
  setThreads(threads: number): void;
  execute(method: number, profile: boolean): number;
  /** A run in slices of about sliceMs: 0 finished, -1 suspended between instructions, else an error code. */
  executeSlice(method: number, profile: boolean, sliceMs: number): number;
  resumeSlice(method: number, sliceMs: number): number;
  abandon(method: number): void;
  /** State kept in planned memory across runs back to its state after load; 0 or an error code. */
  resetState(): number;
  profile(method: number): string;
  outputCount(method: number): number;
  /** Address of outputCount() value records of the last run, or 0. */
  outputs(method: number): number;
  /** Address of one input's value record, read back after a run, or 0. */
  input(method: number, index: number): number;
  bundledTestCount(): number;
  bundledTest(index: number): string;
  sampleInputs(method: string): string;
  /** What the program printed since the last call (TFRT's tfrt.print.*). */
  takePrinted(): string;
  /** Bytes takePrinted() would return; asking allocates nothing. */
  printedSize(): number;
  /** JSON: a method's graph, the weights list, one weight's {dtype, shape, address, nbytes}; '' on failure. */
  graph(method: number): string;
  weights(): string;
  weight(name: string): string;
  /** JSON: what the model holds now (host_model.h's memory_json). */
  memory(): string;
  lastError(): string;
  lastErrorCode(): number;
  delete(): void;
}

/** The instantiated Emscripten module (the factory's resolved value). */
export interface TridentModule {
  HEAPU8: Uint8Array;
  _malloc(size: number): number;
  _free(ptr: number): void;
  NativeProgram: new () => NativeProgram;
  version(): string;
  /** Kernels take their wasm SIMD paths (true) or their scalar reference paths. */
  setSimdEnabled(enabled: boolean): void;
  simdEnabled(): boolean;
  /** The runtime's format registry: {"format"} or {"error","code"} as JSON. */
  detectFormat(head: Uint8Array): string;
  /** JSON [{"id","description","supported"}]. */
  fileFormats(): string;
  /** How many leading bytes detectFormat reads. */
  sniffBytes(): number;
  /**
   * Starts the kernels' thread pool (the caller included; the first call
   * decides its size) and returns its size: 1 in the single-threaded build.
   */
  startThreadPool(threads: number): number;
  /** JSON: value records' size and offsets, and the codes of kinds and dtypes. */
  valueLayout(): string;
  /** Heap allocations (malloc and friends) since the module started. */
  heapAllocations(): number;
  heapBytes(): number;
  /** Bounds the wasm memory the heap may grow to (maxWasmMemoryBytes); 0 lifts it. */
  setMemoryLimit(bytes: number): void;
  /**
   * Routes operator `name` to the JS kernel call-back for registration `id`
   * (programs loaded from now on), with `outs` out tensors checked at load;
   * returns an Error code.
   */
  registerJsKernel(name: string, id: number, outs: number): number;
  /** Removes the JS kernel `name`, restoring the built-in it replaced; returns an Error code. */
  unregisterJsKernel(name: string): number;
  /** Whether the build has a kernel `name` of its own. */
  hasBuiltinKernel(name: string): boolean;
  /** MLIR text to BEF: {bytes} or {error, message, line, column}. */
  mlirToBef(source: string, filename: string): { bytes?: Uint8Array; error?: string; message?: string; line?: number; column?: number };
  /** Runs a BEF file like bef_executor; options and answer are JSON. */
  befRun(bytes: Uint8Array, optionsJson: string): string;
  /** tfrt_translate -verify-diagnostics: {exitCode, err} as JSON. */
  mlirToBefVerify(source: string, filename: string, split: boolean): string;
}

export interface ModuleFactoryOptions {
  /** Instantiates the wasm with Emscripten's imports and hands back the instance and its module; returns {} (asynchronous). */
  // Plain object types: the public .d.ts files must compile without the
  // DOM library, which is where WebAssembly's types live.
  instantiateWasm: (imports: object, receive: (instance: object, module: object) => void) => Record<string, never>;
  locateFile?: (file: string, prefix: string) => string;
  mainScriptUrlOrBlob?: string;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
  /** Threads build: pthread workers to start before the module resolves. */
  tridentWorkers?: number;
}

export type ModuleFactory = (options: ModuleFactoryOptions) => Promise<TridentModule>;

/** One entry of describe()'s "inputs"/"outputs". */
export interface RawValueSpec {
  kind: string;
  type?: string;
  dtype?: string;
  shape?: number[];
  dynamism?: string;
}

export interface RawDelegateValue {
  dtype: string;
  shape: number[];
}

export interface RawDelegate {
  backend: string;
  nodeCounts: Record<string, number>;
  nodes: Array<{ type: string; inputs: RawDelegateValue[]; outputs: RawDelegateValue[] }>;
}

export interface RawMethod {
  name: string;
  inputs: RawValueSpec[];
  outputs: RawValueSpec[];
  instructions?: number;
  plannedBytes?: number;
  intermediateBytes?: number;
  memoryPlan?: 'file' | 'lifetimes' | 'per-shape';
  mutatedInputs?: number[];
  delegates?: RawDelegate[];
}

/** profile(method): one instruction of the last profiled run. */
export interface RawInstructionProfile {
  index: number;
  name: string;
  source: number;
  sourceCount: number;
  calls: number;
  /** A delegate's time per node, where its backend times them. */
  nodeNs?: number[];
  ns: number;
}
