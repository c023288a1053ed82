#include "cpp/kernels/util/unary_simd.h"

#include "cpp/kernels/util/nd_iter.h"
#include "cpp/kernels/util/simd.h"
#include "cpp/kernels/util/simd_math.h"
#include "cpp/runtime/platform/parallel.h"

namespace tri {

#if TRI_WASM_SIMD
namespace {

struct Params {
  v128_t a;
  v128_t b;
};

using RowFn = void (*)(const float* in, float* out, int64_t n, const Params& p);

// One generic row: the op on 4 lanes at a time, the tail through a padded
// vector so that the last 1-3 elements get exactly the same arithmetic.
template <typename Op>
void row(const float* in, float* out, int64_t n, const Params& p) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    wasm_v128_store(out + i, Op::apply(wasm_v128_load(in + i), p));
  }
  if (i < n) {
    float tmp[4] = {0, 0, 0, 0};
    for (int64_t k = i; k < n; ++k) tmp[k - i] = in[k];
    const v128_t r = Op::apply(wasm_v128_load(tmp), p);
    wasm_v128_store(tmp, r);
    for (int64_t k = i; k < n; ++k) out[k] = tmp[k - i];
  }
}

namespace sm = simd_math;

struct NegOp {
  static v128_t apply(v128_t x, const Params&) { return wasm_f32x4_neg(x); }
};
struct AbsOp {
  static v128_t apply(v128_t x, const Params&) { return wasm_f32x4_abs(x); }
};
struct SqrtOp {
  static v128_t apply(v128_t x, const Params&) { return wasm_f32x4_sqrt(x); }
};
// wasm's min/max propagate NaN, as ATen's clamp and relu do.
struct ReluOp {
  static v128_t apply(v128_t x, const Params&) { return wasm_f32x4_max(x, wasm_f32x4_splat(0)); }
};
struct ClampOp {
  static v128_t apply(v128_t x, const Params& p) {
    return wasm_f32x4_min(wasm_f32x4_max(x, p.a), p.b);
  }
};
struct LeakyReluOp {
  static v128_t apply(v128_t x, const Params& p) {
    return wasm_v128_bitselect(x, wasm_f32x4_mul(x, p.a), wasm_f32x4_gt(x, wasm_f32x4_splat(0)));
  }
};
// x * min(max(x + 3, 0), 6) / 6, in ATen's order of operations.
struct HardswishOp {
  static v128_t apply(v128_t x, const Params&) {
    const v128_t r = wasm_f32x4_min(
        wasm_f32x4_max(wasm_f32x4_add(x, sm::splat(3)), sm::splat(0)), sm::splat(6));
    return wasm_f32x4_div(wasm_f32x4_mul(x, r), sm::splat(6));
  }
};
struct ExpOp {
  static v128_t apply(v128_t x, const Params&) { return sm::exp(x); }
};
struct TanhOp {
  static v128_t apply(v128_t x, const Params&) { return sm::tanh(x); }
};
struct SigmoidOp {
  static v128_t apply(v128_t x, const Params&) { return sm::sigmoid(x); }
};
struct SiluOp {
  static v128_t apply(v128_t x, const Params&) { return wasm_f32x4_mul(x, sm::sigmoid(x)); }
};
// 0.5 x (1 + erf(x / sqrt 2)), with 1 + erf(z) = erfc(-z): 2 - erfc(|z|) for
// z >= 0, erfc(|z|) below (no cancellation for negative x).
struct GeluOp {
  static v128_t apply(v128_t x, const Params&) {
    const v128_t z = wasm_f32x4_abs(wasm_f32x4_mul(x, sm::splat(0.70710678118654752f)));
    const v128_t e = sm::erfc_abs(z);
    const v128_t q = wasm_v128_bitselect(wasm_f32x4_sub(sm::splat(2), e), e,
                                         wasm_f32x4_ge(x, sm::splat(0)));
    return wasm_f32x4_mul(wasm_f32x4_mul(x, sm::splat(0.5f)), q);
  }
};
// 0.5 x (1 + tanh(u)) = x sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3).
struct GeluTanhOp {
  static v128_t apply(v128_t x, const Params&) {
    const v128_t x3 = wasm_f32x4_mul(wasm_f32x4_mul(x, x), x);
    const v128_t u = wasm_f32x4_mul(sm::splat(0.7978845608028654f),
                                    wasm_f32x4_add(x, wasm_f32x4_mul(sm::splat(0.044715f), x3)));
    return wasm_f32x4_mul(x, sm::sigmoid(wasm_f32x4_add(u, u)));
  }
};

RowFn row_of(SimdUnary op) {
  switch (op) {
    case SimdUnary::Neg: return &row<NegOp>;
    case SimdUnary::Abs: return &row<AbsOp>;
    case SimdUnary::Sqrt: return &row<SqrtOp>;
    case SimdUnary::Relu: return &row<ReluOp>;
    case SimdUnary::Clamp: return &row<ClampOp>;
    case SimdUnary::LeakyRelu: return &row<LeakyReluOp>;
    case SimdUnary::Hardswish: return &row<HardswishOp>;
    case SimdUnary::Exp: return &row<ExpOp>;
    case SimdUnary::Tanh: return &row<TanhOp>;
    case SimdUnary::Sigmoid: return &row<SigmoidOp>;
    case SimdUnary::Silu: return &row<SiluOp>;
    case SimdUnary::Gelu: return &row<GeluOp>;
    case SimdUnary::GeluTanh: return &row<GeluTanhOp>;
    default: return nullptr;
  }
}

bool same_layout(const Tensor& a, const Tensor& b) {
  if (a.dim() != b.dim()) return false;
  for (int32_t d = 0; d < a.dim(); ++d) {
    if (a.size(d) != b.size(d) || a.dim_order()[d] != b.dim_order()[d]) return false;
  }
  return true;
}

}  // namespace

bool simd_unary(SimdUnary op, const Tensor& self, const Tensor& out, float a, float b) {
  if (!simd_enabled() || self.scalar_type() != ScalarType::Float ||
      out.scalar_type() != ScalarType::Float || !same_layout(self, out)) {
    return false;
  }
  const RowFn fn = row_of(op);
  if (fn == nullptr) return false;
  const Params p = {wasm_f32x4_splat(a), wasm_f32x4_splat(b)};
  const float* in = self.data_ptr<float>();
  float* dst = out.data_ptr<float>();
  const int64_t n = static_cast<int64_t>(self.numel());
  // Chunks, so that the row function is called often enough for V8 to tier
  // it up.
  const size_t chunks = static_cast<size_t>((n + kRowChunk - 1) / kRowChunk);
  parallel_for(chunks, 8, [&](size_t begin, size_t end) {
    for (int64_t i = static_cast<int64_t>(begin) * kRowChunk; i < n && i < static_cast<int64_t>(end) * kRowChunk;
         i += kRowChunk) {
      fn(in + i, dst + i, n - i < kRowChunk ? n - i : kRowChunk, p);
    }
  });
  return true;
}

#else

bool simd_unary(SimdUnary, const Tensor&, const Tensor&, float, float) { return false; }

#endif

}  // namespace tri
