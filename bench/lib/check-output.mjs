// A timing means nothing if the answer is wrong: every engine's first output
// is checked against eager PyTorch's (NAME.expected.npy) with the exporter's
// tolerance before anything is timed.

export function checkOutput(actual, expected, tolerance, what) {
  if (actual.length !== expected.length) {
    throw new Error(`${what}: output has ${actual.length} elements, PyTorch's has ${expected.length}`);
  }
  let maxRef = 0;
  for (const v of expected) maxRef = Math.max(maxRef, Math.abs(v));
  const rel = tolerance?.max_abs_error_rel_to_max_ref;
  const bound = rel !== undefined ? rel * Math.max(1, maxRef) : tolerance?.max_abs_error;
  if (bound === undefined) throw new Error(`${what}: the model's entry has no tolerance`);
  let maxAbsError = 0;
  for (let i = 0; i < actual.length; i++) {
    const e = Math.abs(actual[i] - expected[i]);
    if (!(e <= maxAbsError)) maxAbsError = Number.isNaN(e) ? Infinity : e;
  }
  if (!(maxAbsError <= bound)) {
    throw new Error(`${what}: output differs from PyTorch's by ${maxAbsError} > ${bound}`);
  }
  return { maxAbsError, bound };
}
