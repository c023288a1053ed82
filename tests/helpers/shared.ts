// Access to the reference corpus in ../shared (beside the checkout), which
// the repo never copies. In CI its absence is a failure; on a developer's
// machine without it, the tests that need it are skipped, saying so.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { REPO_ROOT } from './paths.js';

export const SHARED_DIR = path.resolve(REPO_ROOT, '..', 'shared');
export const PTE_CORPUS = path.join(SHARED_DIR, 'corpus', 'pte');
export const BEF_CORPUS = path.join(SHARED_DIR, 'corpus', 'bef');
export const hasShared = existsSync(PTE_CORPUS);

/** Absolute path of a file in ../shared/corpus/pte. */
export function corpusFile(relative: string): string {
  return path.join(PTE_CORPUS, relative);
}

/** describe() for suites that read ../shared. */
export function describeShared(name: string, body: () => void): void {
  if (hasShared) {
    describe(name, body);
  } else if (process.env['CI'] === 'true') {
    describe(name, () => {
      it('needs the corpus in ../shared', () => {
        throw new Error(`${PTE_CORPUS} is missing, but CI=true: CI must check out ../shared beside the repo`);
      });
    });
  } else {
    console.warn(`[skipped] ${name}: the corpus is absent (${PTE_CORPUS} does not exist)`);
    describe.skip(name, body);
  }
}

/** Corpus programs some tests use (the project-owned fixtures are in build/fixtures). */
export const CORPUS = {
  /** forward(float32[1], float32[1]) -> float32[1]: a + b. */
  add: 'pytorch__executorch/extension__apple__ExecuTorch____tests____resources__add.pte',
  /** forward(float32[3,2], float32[3,2]) -> float32[3,2]: a * b. */
  mul: 'mybigday__node-executorch/lib____fixtures____mul.pte',
  /** forward(int64[1], float32[1]) -> (int64[1], float32[1]): (2a, 2b). */
  dtypes: 'corey-cole__executorch-numpy-runtime/tests__models__dtypes.pte',
  /** get_scalar/get_double/get_bool/get_tensor constant methods. */
  constMethods: 'corey-cole__executorch-numpy-runtime/tests__models__const_methods.pte',
  /** forward(float32[2,2]) -> 3x+2 with weights in the .ptd below. */
  dataMap: 'barakugav__executorch-rs/examples__data_map__model__model.pte',
  dataMapPtd: 'barakugav__executorch-rs/examples__data_map__model___default_external_constant.ptd',
  /** BP08 bundle with 10 embedded cases. */
  bundled: 'pytorch__executorch/extension__module__test__resources__bundled_program.bpte',
  /** forward(float32[2,4096]) softmax: plans a few tens of KiB. */
  softmax: 'pytorch__executorch/operator_and_model_testing__softmax__pte__softmax.pte',
  /** forward(float32[3], float32[3]) -> float32[3]: one XnnpackBackend delegate (XNNAdd). */
  xnnpack: 'corey-cole__executorch-numpy-runtime/tests__models__add.pte',
  /** forward(float32[8] bounded) -> float32[8]: x * 2 in one XnnpackBackend delegate. */
  xnnpackDynamic: 'corey-cole__executorch-numpy-runtime/tests__models__dynamic.pte',
  /** forward(float32[2,8]) -> float32[2,8]: Convert, qint8 FullyConnected, Convert in one XnnpackBackend delegate. */
  xnnpackQuantized: 'corey-cole__executorch-numpy-runtime/tests__models__quantized.pte',
  /** forward(float32[1,1,<=1024,<=1024]) -> float32[1,10]: two XnnpackBackend delegates (conv net, linear head). */
  simpleTorchModel: 'corey-cole__simple-torch-model/model.pte',
  /** Delegated to EthosUBackend, which no wasm runtime can run. */
  ethosU: 'Arm-Examples__CMSIS-Executorch/ai_layer__engine__model__ethos_u_minimal_example.pte',
} as const;

/** Every file under `root` whose name ends with one of `extensions`, as absolute paths, sorted. */
export function listFiles(root: string, extensions: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (extensions.some((ext) => entry.name.endsWith(ext))) out.push(full);
    }
  };
  walk(root);
  return out.sort();
}
