// Public API of trident-runtime: the browser entry, which imports no node:
// module. Under Node, index-node.ts adds file paths and worker_threads.

export { load, runtimeInfo, type LoadOptions, type RuntimeInfo } from './load.js';
export type { AbortSignalLike } from './abort.js';
export { Model, type BundledTest, type InstructionProfile, type RunOptions, type RunProfile } from './model.js';
export { generate, llmMetadata, pickToken, type GenerateOptions, type LlmMetadata } from './generate.js';
export { Tensor, type AnyTensor, type ElementOf, type NestedValues, type TensorInit, type TensorJson } from './tensor.js';
export { TridentError, ErrorCode, errorCodeName, type ErrorCodeName } from './errors.js';
export { DTYPES, isDType, type DType, type TensorData, type TensorDataMap, type ElementValue } from './dtype.js';
export { detectFormat, fileFormats, type FormatInfo, type ModelFormat } from './detect-format.js';
export type { BlobLike, ModelSource, ReadOptions, ResponseLike, UrlLike } from './read-source.js';
export {
  formatValueInfo,
  type DelegateInfo,
  type DelegateNodeInfo,
  type DelegateValueInfo,
  type Dynamism,
  type InputValue,
  type MethodInfo,
  type MethodMemory,
  type ModelMemory,
  type OutputValue,
  type ValueInfo,
  type ValueKind,
} from './values.js';
export { valueFromJson, valueToJson, stringifyJson, jsonNumber, type JsonTensor, type JsonScalar, type JsonNumber } from './json-value.js';
export { cache } from './model-cache.js';
export type { Graph, GraphEdge, GraphNode, GraphPort, GraphValue, WeightInfo } from './inspect.js';
export { env, type WasmEnv, type WasmFile, type WasmFileUrls } from './env.js';
export { DEFAULT_LIMITS, type Limits } from './limits.js';
export {
  registerKernel,
  registeredKernels,
  unregisterKernel,
  type KernelFunction,
  type KernelResult,
  type KernelValue,
  type RegisterKernelOptions,
} from './custom-kernels.js';
export {
  mlirToBef,
  runBefExecutor,
  verifyMlirToBef,
  type MlirToBefOptions,
  type BefExecutorOptions,
  type BefExecutorReport,
  type TranslationCheck,
} from './tfrt.js';
