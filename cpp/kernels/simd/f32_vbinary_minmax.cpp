#include "cpp/kernels/simd/f32_vbinary_minmax.h"

#include "cpp/kernels/util/gemm_f4.h"
#include "cpp/kernels/util/simd.h"

namespace tri {
namespace {

float apply(F32BinaryOp op, float x, float y) {
  switch (op) {
    case F32BinaryOp::Add: return x + y;
    case F32BinaryOp::Sub: return x - y;
    case F32BinaryOp::Mul: return x * y;
    case F32BinaryOp::Div: return x / y;
    case F32BinaryOp::Min: return f4_lane_min(x, y);
    case F32BinaryOp::Max: return f4_lane_max(x, y);
    case F32BinaryOp::PRelu: return x > 0 ? x : x * y;
  }
  return 0;
}

template <F32BinaryOp kOp>
F4 apply4(F4 x, F4 y) {
  if constexpr (kOp == F32BinaryOp::Add) return f4_add(x, y);
  if constexpr (kOp == F32BinaryOp::Sub) return f4_sub(x, y);
  if constexpr (kOp == F32BinaryOp::Mul) return f4_mul(x, y);
  if constexpr (kOp == F32BinaryOp::Div) return f4_div(x, y);
  if constexpr (kOp == F32BinaryOp::Min) return f4_min(x, y);
  if constexpr (kOp == F32BinaryOp::Max) return f4_max(x, y);
  if constexpr (kOp == F32BinaryOp::PRelu) {
#if TRI_WASM_SIMD
    return wasm_v128_bitselect(x, wasm_f32x4_mul(x, y), wasm_f32x4_gt(x, wasm_f32x4_splat(0)));
#else
    for (int l = 0; l < 4; ++l) x.v[l] = x.v[l] > 0 ? x.v[l] : x.v[l] * y.v[l];
    return x;
#endif
  }
}

// The row: full vectors, then the tail through the scalar op.
template <F32BinaryOp kOp>
void row(size_t n, const float* a, size_t sa, const float* b, size_t sb, float* out, float min,
         float max) {
  const F4 vmin = f4_splat(min);
  const F4 vmax = f4_splat(max);
  size_t i = 0;
  if (sa == 1 && sb == 1) {
    for (; i + 4 <= n; i += 4) {
      f4_store(out + i, f4_clamp(apply4<kOp>(f4_load(a + i), f4_load(b + i)), vmin, vmax));
    }
  } else if (sa == 1) {
    const F4 vb = f4_splat(*b);
    for (; i + 4 <= n; i += 4) {
      f4_store(out + i, f4_clamp(apply4<kOp>(f4_load(a + i), vb), vmin, vmax));
    }
  } else if (sb == 1) {
    const F4 va = f4_splat(*a);
    for (; i + 4 <= n; i += 4) {
      f4_store(out + i, f4_clamp(apply4<kOp>(va, f4_load(b + i)), vmin, vmax));
    }
  }
  for (; i < n; ++i) {
    const float v = apply(kOp, a[i * sa], b[i * sb]);
    out[i] = f4_lane_min(f4_lane_max(v, min), max);
  }
}

}  // namespace

void f32_vbinary_minmax_4x(F32BinaryOp op, size_t n, const float* a, size_t sa, const float* b,
                           size_t sb, float* out, float min, float max) {
  switch (op) {
    case F32BinaryOp::Add: return row<F32BinaryOp::Add>(n, a, sa, b, sb, out, min, max);
    case F32BinaryOp::Sub: return row<F32BinaryOp::Sub>(n, a, sa, b, sb, out, min, max);
    case F32BinaryOp::Mul: return row<F32BinaryOp::Mul>(n, a, sa, b, sb, out, min, max);
    case F32BinaryOp::Div: return row<F32BinaryOp::Div>(n, a, sa, b, sb, out, min, max);
    case F32BinaryOp::Min: return row<F32BinaryOp::Min>(n, a, sa, b, sb, out, min, max);
    case F32BinaryOp::Max: return row<F32BinaryOp::Max>(n, a, sa, b, sb, out, min, max);
    case F32BinaryOp::PRelu: return row<F32BinaryOp::PRelu>(n, a, sa, b, sb, out, min, max);
  }
}

void f32_vbinary_minmax_reference(F32BinaryOp op, size_t n, const float* a, size_t sa,
                                  const float* b, size_t sb, float* out, float min, float max) {
  for (size_t i = 0; i < n; ++i) {
    out[i] = f4_lane_min(f4_lane_max(apply(op, a[i * sa], b[i * sb]), min), max);
  }
}

void f32_vbinary_minmax(F32BinaryOp op, size_t n, const float* a, size_t sa, const float* b,
                        size_t sb, float* out, float min, float max) {
  if (simd_enabled()) {
    f32_vbinary_minmax_4x(op, n, a, sa, b, sb, out, min, max);
  } else {
    f32_vbinary_minmax_reference(op, n, a, sa, b, sb, out, min, max);
  }
}

}  // namespace tri
