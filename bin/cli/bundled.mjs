// Compares a bundled test case's outputs with the expected ones it carries,
// with the tolerances ExecuTorch's bundled-program check uses by default
// (rtol 1e-5, atol 1e-8; NaN matches NaN).

import { Tensor } from '../../dist/js/index-node.js';

const RTOL = 1e-5;
const ATOL = 1e-8;

/**
 * @returns {{ok: boolean, maxAbsError: number, mismatch?: string}} whether
 *   every output matches, the largest absolute error over tensor elements,
 *   and what the first mismatch was
 */
export function compareBundled(outputs, expected) {
  let maxAbsError = 0;
  if (outputs.length !== expected.length) {
    return { ok: false, maxAbsError, mismatch: `${outputs.length} outputs, expected ${expected.length}` };
  }
  for (let i = 0; i < outputs.length; i++) {
    const got = outputs[i];
    const want = expected[i];
    if (want instanceof Tensor) {
      if (!(got instanceof Tensor)) return { ok: false, maxAbsError, mismatch: `output ${i} is not a tensor` };
      if (got.dtype !== want.dtype || got.shape.join() !== want.shape.join()) {
        return { ok: false, maxAbsError, mismatch: `output ${i} is ${got.dtype}[${got.shape}], expected ${want.dtype}[${want.shape}]` };
      }
      const a = got.toArray();
      const b = want.toArray();
      for (let k = 0; k < a.length; k++) {
        const x = Number(a[k]);
        const y = Number(b[k]);
        if (Number.isNaN(x) && Number.isNaN(y)) continue;
        const error = x === y ? 0 : Math.abs(x - y);
        if (error > maxAbsError) maxAbsError = error;
        if (!(error <= ATOL + RTOL * Math.abs(y))) {
          return { ok: false, maxAbsError, mismatch: `output ${i}[${k}] is ${a[k]}, expected ${b[k]}` };
        }
      }
    } else if (!Object.is(got, want) && got !== want) {
      // Scalars: equal as Object.is has it (NaN is NaN) or as === has it (0 is -0).
      return { ok: false, maxAbsError, mismatch: `output ${i} is ${String(got)}, expected ${String(want)}` };
    }
  }
  return { ok: true, maxAbsError };
}
