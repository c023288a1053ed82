// Statistics of a tensor's elements: what the weights view and the run
// outputs show. Pure functions, run in the stats worker for big tensors.

export interface TensorStats {
  count: number;
  min: number;
  max: number;
  mean: number;
  std: number;
  /** Fraction of elements equal to zero. */
  zeros: number;
  /** NaN and ±Infinity elements (left out of the other figures). */
  nonFinite: number;
  /** Equal-width bins over [min, max]. */
  histogram: number[];
}

export type NumericData = Float32Array | Float64Array | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | BigInt64Array | BigUint64Array;

/** float16 / bfloat16 bits to numbers (the runtime hands those dtypes over as raw bits). */
export function decodeHalf(bits: Uint16Array, dtype: 'float16' | 'bfloat16'): Float32Array {
  const out = new Float32Array(bits.length);
  if (dtype === 'bfloat16') {
    const u32 = new Uint32Array(out.buffer);
    for (let i = 0; i < bits.length; i++) u32[i] = bits[i]! << 16;
    return out;
  }
  for (let i = 0; i < bits.length; i++) {
    const h = bits[i]!;
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const fraction = h & 0x3ff;
    out[i] = exponent === 0 ? sign * 2 ** -14 * (fraction / 1024)
      : exponent === 31 ? (fraction ? NaN : sign * Infinity)
      : sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
  }
  return out;
}

export function tensorStats(data: NumericData, bins = 48): TensorStats {
  const n = data.length;
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let zeros = 0;
  let nonFinite = 0;
  const at = (i: number) => Number(data[i]!);
  for (let i = 0; i < n; i++) {
    const v = at(i);
    if (!Number.isFinite(v)) {
      nonFinite++;
      continue;
    }
    if (v === 0) zeros++;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
  }
  const finite = n - nonFinite;
  const mean = finite ? sum / finite : NaN;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const v = at(i);
    if (Number.isFinite(v)) squares += (v - mean) * (v - mean);
  }
  const histogram = new Array<number>(finite ? bins : 0).fill(0);
  if (finite) {
    const width = max > min ? (max - min) / bins : 1;
    for (let i = 0; i < n; i++) {
      const v = at(i);
      if (!Number.isFinite(v)) continue;
      histogram[Math.min(bins - 1, Math.floor((v - min) / width))]!++;
    }
  }
  return {
    count: n,
    min: finite ? min : NaN,
    max: finite ? max : NaN,
    mean,
    std: finite ? Math.sqrt(squares / finite) : NaN,
    zeros: n ? zeros / n : 0,
    nonFinite,
    histogram,
  };
}
