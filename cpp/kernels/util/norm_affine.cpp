#include "cpp/kernels/util/norm_affine.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/nd_iter.h"
#include "cpp/kernels/util/simd.h"

namespace tri {
namespace {

constexpr int64_t kChunk = 256;

// Sums of a contiguous Float row (at most kRowChunk long, so float lanes keep
// enough precision); the caller adds them up in double.
float sum_f32(const float* x, int64_t n, float center, bool squares) {
#if TRI_WASM_SIMD
  if (simd_enabled()) {
    const v128_t c = wasm_f32x4_splat(center);
    v128_t acc0 = wasm_f32x4_splat(0.0f);
    v128_t acc1 = acc0;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
      v128_t a = wasm_f32x4_sub(wasm_v128_load(x + i), c);
      v128_t b = wasm_f32x4_sub(wasm_v128_load(x + i + 4), c);
      if (squares) {
        a = wasm_f32x4_mul(a, a);
        b = wasm_f32x4_mul(b, b);
      }
      acc0 = wasm_f32x4_add(acc0, a);
      acc1 = wasm_f32x4_add(acc1, b);
    }
    acc0 = wasm_f32x4_add(acc0, acc1);
    float s = wasm_f32x4_extract_lane(acc0, 0) + wasm_f32x4_extract_lane(acc0, 1) +
              wasm_f32x4_extract_lane(acc0, 2) + wasm_f32x4_extract_lane(acc0, 3);
    for (; i < n; ++i) {
      const float d = x[i] - center;
      s += squares ? d * d : d;
    }
    return s;
  }
#endif
  float s = 0.0f;
  for (int64_t i = 0; i < n; ++i) {
    const float d = x[i] - center;
    s += squares ? d * d : d;
  }
  return s;
}

struct MomentsPass {
  ScalarType type;
  double center;
  bool squares;
  double total;
};

void moments_row(void* ctx, char* const* p, const int64_t* s, int64_t n) {
  MomentsPass& pass = *static_cast<MomentsPass*>(ctx);
  if (pass.type == ScalarType::Float && s[0] == 4) {
    pass.total += sum_f32(reinterpret_cast<const float*>(p[0]), n,
                          static_cast<float>(pass.center), pass.squares);
    return;
  }
  double buf[kChunk];
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t m = n - i < kChunk ? n - i : kChunk;
    load_row<double>(pass.type, p[0] + i * s[0], s[0], m, buf);
    double sum = 0;
    for (int64_t j = 0; j < m; ++j) {
      const double d = buf[j] - pass.center;
      sum += pass.squares ? d * d : d;
    }
    pass.total += sum;
  }
}

// out = (x * a + b) * s + t over one contiguous Float row; s and t have
// stride 0 (one value) or 1.
void affine_f32(float* out, const float* x, int64_t n, float a, float b, const float* s,
                bool s_row, const float* t, bool t_row) {
#if TRI_WASM_SIMD
  if (simd_enabled()) {
    const v128_t va = wasm_f32x4_splat(a);
    const v128_t vb = wasm_f32x4_splat(b);
    int64_t i = 0;
    if (s == nullptr) {
      for (; i + 4 <= n; i += 4) {
        wasm_v128_store(out + i, wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(x + i), va), vb));
      }
      for (; i < n; ++i) out[i] = x[i] * a + b;
      return;
    }
    const v128_t s1 = wasm_f32x4_splat(*s);
    const v128_t t1 = wasm_f32x4_splat(*t);
    for (; i + 4 <= n; i += 4) {
      const v128_t y = wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(x + i), va), vb);
      const v128_t vs = s_row ? wasm_v128_load(s + i) : s1;
      const v128_t vt = t_row ? wasm_v128_load(t + i) : t1;
      wasm_v128_store(out + i, wasm_f32x4_add(wasm_f32x4_mul(y, vs), vt));
    }
    for (; i < n; ++i) out[i] = (x[i] * a + b) * s[s_row ? i : 0] + t[t_row ? i : 0];
    return;
  }
#endif
  if (s == nullptr) {
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] * a + b;
    return;
  }
  const int64_t ss = s_row ? 1 : 0;
  const int64_t ts = t_row ? 1 : 0;
  for (int64_t i = 0; i < n; ++i) out[i] = (x[i] * a + b) * s[i * ss] + t[i * ts];
}

template <typename C>
struct AffinePass {
  ScalarType out_type, x_type, s_type, t_type;
  C a, b;
  bool has_st;
};

template <typename C>
void affine_row(void* ctx, char* const* p, const int64_t* st, int64_t n) {
  const AffinePass<C>& pass = *static_cast<const AffinePass<C>*>(ctx);
  if constexpr (std::is_same<C, float>::value) {
    const bool st_ok = !pass.has_st ||
                       (pass.s_type == ScalarType::Float && pass.t_type == ScalarType::Float &&
                        (st[2] == 0 || st[2] == 4) && (st[3] == 0 || st[3] == 4));
    if (pass.out_type == ScalarType::Float && pass.x_type == ScalarType::Float && st[0] == 4 &&
        st[1] == 4 && st_ok) {
      affine_f32(reinterpret_cast<float*>(p[0]), reinterpret_cast<const float*>(p[1]), n, pass.a,
                 pass.b, pass.has_st ? reinterpret_cast<const float*>(p[2]) : nullptr, st[2] != 0,
                 pass.has_st ? reinterpret_cast<const float*>(p[3]) : nullptr, st[3] != 0);
      return;
    }
  }
  C x[kChunk];
  C s[kChunk];
  C t[kChunk];
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t m = n - i < kChunk ? n - i : kChunk;
    load_row<C>(pass.x_type, p[1] + i * st[1], st[1], m, x);
    if (pass.has_st) {
      load_row<C>(pass.s_type, p[2] + i * st[2], st[2], m, s);
      load_row<C>(pass.t_type, p[3] + i * st[3], st[3], m, t);
      for (int64_t j = 0; j < m; ++j) x[j] = (x[j] * pass.a + pass.b) * s[j] + t[j];
    } else {
      for (int64_t j = 0; j < m; ++j) x[j] = x[j] * pass.a + pass.b;
    }
    store_row<C>(pass.out_type, x, p[0] + i * st[0], st[0], m);
  }
}

}  // namespace

void moments_f32(const float* x, int64_t n, double* mean, double* var) {
  if (n == 0) {
    *mean = 0.0;
    *var = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  // As moments() walks one contiguous Float row: the same sums, in order.
  const double m = static_cast<double>(sum_f32(x, n, 0.0f, false)) / static_cast<double>(n);
  const float center = static_cast<float>(m);
  *mean = m;
  *var = static_cast<double>(sum_f32(x, n, center, true)) / static_cast<double>(n);
}

void affine_f32_row(float* out, const float* x, int64_t n, float a, float b, const float* s,
                    const float* t) {
  affine_f32(out, x, n, a, b, s, true, t, true);
}

void moments(const TensorView& x, double* mean, double* var) {
  const int64_t n = x.numel();
  if (n == 0) {
    *mean = 0.0;
    *var = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  const TensorView* ops[] = {&x};
  NdIter it(x.sizes, x.dim, ops, 1);
  MomentsPass pass{x.type, 0.0, false, 0.0};
  it.walk_rows(&moments_row, &pass);
  const double m = pass.total / static_cast<double>(n);
  // The second pass centers on m as the Float path sees it, so both paths
  // measure the spread around the same value.
  pass.center = x.type == ScalarType::Float ? static_cast<double>(static_cast<float>(m)) : m;
  pass.squares = true;
  pass.total = 0.0;
  it.walk_rows(&moments_row, &pass);
  *mean = m;
  *var = pass.total / static_cast<double>(n);
}

template <typename C>
void affine_apply(const TensorView& out, const TensorView& x, C a, C b, const TensorView* s,
                  const TensorView* t) {
  if (out.numel() == 0) return;
  const bool has_st = s != nullptr && t != nullptr;
  const TensorView* ops[] = {&out, &x, has_st ? s : &x, has_st ? t : &x};
  NdIter it(out.sizes, out.dim, ops, 4);
  AffinePass<C> pass{out.type, x.type, has_st ? s->type : x.type, has_st ? t->type : x.type,
                     a, b, has_st};
  it.walk_rows(&affine_row<C>, &pass);
}

template void affine_apply<float>(const TensorView&, const TensorView&, float, float,
                                  const TensorView*, const TensorView*);
template void affine_apply<double>(const TensorView&, const TensorView&, double, double,
                                   const TensorView*, const TensorView*);

TensorView channel_view(const void* data, ScalarType type, int32_t rank, int32_t d, int64_t n) {
  TensorView v;
  v.data = const_cast<void*>(data);
  v.type = type;
  v.dim = rank;
  for (int32_t i = 0; i < rank; ++i) {
    v.sizes[i] = i == d ? n : 1;
    v.strides[i] = i == d ? 1 : 0;
  }
  return v;
}

TensorView trailing_view(const TensorView& v, int32_t axis, int64_t off) {
  TensorView b;
  b.data = static_cast<char*>(v.data) + off * static_cast<int64_t>(v.element_size());
  b.type = v.type;
  b.dim = v.dim - axis;
  for (int32_t d = axis; d < v.dim; ++d) {
    b.sizes[d - axis] = v.sizes[d];
    b.strides[d - axis] = v.strides[d];
  }
  return b;
}

TensorView narrow_view(const TensorView& v, int32_t d, int64_t start, int64_t len) {
  TensorView s = v;
  s.data = static_cast<char*>(v.data) + start * v.strides[d] * static_cast<int64_t>(v.element_size());
  s.sizes[d] = len;
  return s;
}

}  // namespace tri
