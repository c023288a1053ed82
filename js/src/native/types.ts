// The embind contract of wasm/README.md, as TypeScript types. Only
// js/src/native/ uses these; the public API never sees a raw pointer.

/** An embind `NativeProgram`: statuses are 0 = ok, details in lastError(). */
export interface NativeProgram {
  addDataFile(ptr: number, len: number): number;
  load(ptr: number, len: number, maxPlannedBytes: number): number;
  format(): string;
  describe(): string;
  prepareInput(method: string, index: number, shape: number[]): number;
  setInputScalar(method: string, index: number, kind: string, value: string): number;
  /** Threads this model's runs may use; 0: all the pool has. */
  setThreads(threads: number): void;
  execute(method: string, profile: boolean): number;
  profile(method: string): string;
  outputCount(method: string): number;
  output(method: string, index: number): string;
  bundledTestCount(): number;
  bundledTest(index: number): string;
  sampleInputs(method: string): string;
  input(method: string, index: number): string;
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
  /** Routes operator `name` to the JS kernel call-back; returns an Error code. */
  registerJsKernel(name: string): number;
  /** MLIR text to BEF: {bytes} or {error, message, line, column}. */
  mlirToBef(source: string, filename: string): { bytes?: Uint8Array; error?: string; message?: string; line?: number; column?: number };
  /** Runs a BEF file like bef_executor; options and answer are JSON. */
  befRun(bytes: Uint8Array, optionsJson: string): string;
  /** tfrt_translate -verify-diagnostics: {exitCode, err} as JSON. */
  mlirToBefVerify(source: string, filename: string, split: boolean): string;
}

export interface ModuleFactoryOptions {
  wasmBinary: Uint8Array;
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
  mutatedInputs?: number[];
  delegates?: RawDelegate[];
}

/** output(method, i): a tensor in the heap, or a scalar with a string value. */
export type RawOutput =
  | { kind: 'Tensor'; dtype: string; shape: number[]; ptr: number; nbytes: number }
  | { kind: string; value?: string | number | boolean | null };

/** profile(method): one instruction of the last profiled run. */
export interface RawInstructionProfile {
  index: number;
  name: string;
  calls: number;
  ns: number;
}
