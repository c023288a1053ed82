// Order statistics of a list of timings. Medians and quartiles, not means:
// one preempted run on a shared machine must not move the result.

export function quantile(values, q) {
  if (values.length === 0) throw new Error('quantile of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/** median, quartiles and extremes of `values` (milliseconds). */
export function summarize(values) {
  return {
    runs: values.length,
    median_ms: quantile(values, 0.5),
    q1_ms: quantile(values, 0.25),
    q3_ms: quantile(values, 0.75),
    min_ms: Math.min(...values),
    max_ms: Math.max(...values),
  };
}
