// float16 and bfloat16 <-> JS number. Tensors of these dtypes hold raw 16-bit
// patterns (JS has no 16-bit float array in Node 20), so these convert at the
// edges: Tensor.from() and toArray().

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE binary16 bits of `value`, rounded to nearest even (via float32). */
export function toFloat16Bits(value: number): number {
  f32[0] = value;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant !== 0 ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    // Subnormal half: shift the full 24-bit significand down, keeping the
    // bits that fall off for rounding.
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (rest > halfway || (rest === halfway && (half & 1) === 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  // A carry out of the mantissa correctly bumps the exponent (up to inf).
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1) === 1)) half++;
  return sign | half;
}

export function fromFloat16Bits(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >>> 10) & 0x1f;
  const mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant !== 0 ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** bfloat16 bits of `value`: the top half of its float32, rounded to nearest even. */
export function toBFloat16Bits(value: number): number {
  f32[0] = value;
  const x = u32[0]!;
  if (Number.isNaN(value)) return ((x >>> 16) & 0x8000) | 0x7fc0;
  const lsb = (x >>> 16) & 1;
  return Math.floor((x + 0x7fff + lsb) / 0x10000) & 0xffff;
}

export function fromBFloat16Bits(bits: number): number {
  u32[0] = (bits & 0xffff) << 16;
  return f32[0]!;
}
