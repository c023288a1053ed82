// How exported-model tests compare runtime outputs with PyTorch's.

/** A bound on max |got - ref|: absolute, or relative to max(1, max|ref|). */
export interface Tolerance {
  max_abs_error_rel_to_max_ref?: number;
  max_abs_error?: number;
}

/** The entry's bound on max |got - ref|. */
export function errorBound(tolerance: Tolerance, refMax: number): number {
  if (tolerance.max_abs_error !== undefined) return tolerance.max_abs_error;
  if (tolerance.max_abs_error_rel_to_max_ref !== undefined) {
    return tolerance.max_abs_error_rel_to_max_ref * Math.max(1, refMax);
  }
  throw new Error(`tolerance ${JSON.stringify(tolerance)} has no bound`);
}

/** max |got - want| and max |want| over float32 data. */
export function maxErrors(got: Float32Array, want: Float32Array): { err: number; refMax: number } {
  let err = 0;
  let refMax = 0;
  for (let i = 0; i < want.length; i++) {
    const d = Math.abs(got[i]! - want[i]!);
    // NaN anywhere is an infinite error.
    err = Number.isNaN(d) ? Infinity : Math.max(err, d);
    refMax = Math.max(refMax, Math.abs(want[i]!));
  }
  return { err, refMax };
}

