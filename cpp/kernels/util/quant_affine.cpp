#include "cpp/kernels/util/quant_affine.h"

#include <cmath>

#include "cpp/kernels/util/cast.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/nd_iter.h"

namespace tri {
namespace {

constexpr int64_t kChunk = 256;

// ATen clamps the rounded value in floating point and then converts; doing
// the conversion first (saturating, NaN -> 0) and clamping in int64 gives
// the same values wherever ATen's conversion is defined.
template <typename C>
void round_clamp(const C* v, int64_t qmin, int64_t qmax, int64_t* q, int64_t n) {
  for (int64_t k = 0; k < n; ++k) {
    int64_t r = float_to_integral<int64_t>(v[k]);
    r = r < qmin ? qmin : r;
    q[k] = r > qmax ? qmax : r;
  }
}

// inv[k] = 1 / scales[k] in the scales' precision, held in C.
template <typename C>
void load_inverse(const TensorView& scales, const char* p, int64_t stride, int64_t n, C* inv) {
  if (scales.type == ScalarType::Float) {
    float f[kChunk];
    load_row<float>(scales.type, p, stride, n, f);
    for (int64_t k = 0; k < n; ++k) inv[k] = static_cast<C>(1.0f / f[k]);
  } else {
    double d[kChunk];
    load_row<double>(scales.type, p, stride, n, d);
    for (int64_t k = 0; k < n; ++k) inv[k] = static_cast<C>(1.0 / d[k]);
  }
}

// One chunk: the rounding steps are separate statements so that no compiler
// contracts them into a fused multiply-add (ATen rounds each one).
template <typename C>
void quantize_chunk(C* x, const C* inv, int64_t inv_step, const C* zp, int64_t zp_step,
                    bool zp_before_round, int64_t n) {
  if (zp_before_round) {
    for (int64_t k = 0; k < n; ++k) {
      const C v = x[k] * inv[k * inv_step];
      const C w = v + zp[k * zp_step];
      x[k] = std::nearbyint(w);
    }
  } else {
    for (int64_t k = 0; k < n; ++k) {
      const C v = x[k] * inv[k * inv_step];
      const C r = std::nearbyint(v);
      x[k] = r + zp[k * zp_step];
    }
  }
}

template <typename C>
void quantize_rows(const NdIter& it, const TensorView& in, const TensorView& out,
                   const QuantizeSpec& spec) {
  const C inv_tensor = static_cast<C>(1.0 / spec.scale);
  const C zp_tensor = static_cast<C>(spec.zero_point);
  it.for_each_row([&](char* const* p, const int64_t* s, int64_t n) {
    C x[kChunk], inv[kChunk], zp[kChunk];
    int64_t q[kChunk];
    for (int64_t i = 0; i < n; i += kChunk) {
      const int64_t m = n - i < kChunk ? n - i : kChunk;
      load_row<C>(in.type, p[1] + i * s[1], s[1], m, x);
      const C* inv_p = &inv_tensor;
      const C* zp_p = &zp_tensor;
      int64_t step = 0;
      if (spec.scales != nullptr) {
        // A row along a non-channel dim sees one channel: one division.
        const bool one = s[2] == 0 && (spec.zero_points == nullptr || s[3] == 0);
        const int64_t pm = one ? 1 : m;
        load_inverse<C>(*spec.scales, p[2] + i * s[2], s[2], pm, inv);
        if (spec.zero_points != nullptr) {
          load_row<C>(spec.zero_points->type, p[3] + i * s[3], s[3], pm, zp);
        } else {
          for (int64_t k = 0; k < pm; ++k) zp[k] = 0;
        }
        inv_p = inv;
        zp_p = zp;
        step = one ? 0 : 1;
      }
      quantize_chunk<C>(x, inv_p, step, zp_p, step, spec.zp_before_round, m);
      round_clamp<C>(x, spec.quant_min, spec.quant_max, q, m);
      store_row<int64_t>(out.type, q, p[0] + i * s[0], s[0], m);
    }
  });
}

template <typename C>
void dequantize_tensor_rows(const NdIter& it, const TensorView& in, const TensorView& out,
                            double scale, int64_t zero_point) {
  const C sc = static_cast<C>(scale);
  const C zp = static_cast<C>(zero_point);
  it.for_each_row([&](char* const* p, const int64_t* s, int64_t n) {
    C v[kChunk];
    for (int64_t i = 0; i < n; i += kChunk) {
      const int64_t m = n - i < kChunk ? n - i : kChunk;
      load_row<C>(in.type, p[1] + i * s[1], s[1], m, v);
      if constexpr (std::is_same<C, float>::value) round_to_dtype(out.type, v, m);
      for (int64_t k = 0; k < m; ++k) v[k] = v[k] - zp;
      if constexpr (std::is_same<C, float>::value) round_to_dtype(out.type, v, m);
      for (int64_t k = 0; k < m; ++k) v[k] = v[k] * sc;
      store_row<C>(out.type, v, p[0] + i * s[0], s[0], m);
    }
  });
}

template <typename C>
void dequantize_rows(const NdIter& it, const TensorView& in, const TensorView& out,
                     const TensorView& scales, const TensorView* zero_points) {
  it.for_each_row([&](char* const* p, const int64_t* s, int64_t n) {
    int64_t q[kChunk], zp[kChunk];
    C sc[kChunk];
    for (int64_t i = 0; i < n; i += kChunk) {
      const int64_t m = n - i < kChunk ? n - i : kChunk;
      load_row<int64_t>(in.type, p[1] + i * s[1], s[1], m, q);
      load_row<C>(scales.type, p[2] + i * s[2], s[2], m, sc);
      if (zero_points != nullptr) {
        load_row<int64_t>(zero_points->type, p[3] + i * s[3], s[3], m, zp);
        // Wrapping int64 subtraction, as ATen's (zero points are untrusted).
        for (int64_t k = 0; k < m; ++k) {
          q[k] = static_cast<int64_t>(static_cast<uint64_t>(q[k]) - static_cast<uint64_t>(zp[k]));
        }
      }
      for (int64_t k = 0; k < m; ++k) sc[k] = static_cast<C>(q[k]) * sc[k];
      store_row<C>(out.type, sc, p[0] + i * s[0], s[0], m);
    }
  });
}

}  // namespace

void quantize_affine(const TensorView& in, const TensorView& out, const QuantizeSpec& spec) {
  const TensorView* ops[4] = {&out, &in, spec.scales, spec.zero_points};
  const int nops = spec.scales == nullptr ? 2 : (spec.zero_points == nullptr ? 3 : 4);
  const NdIter it(out.sizes, out.dim, ops, nops);
  if (spec.use_double) {
    quantize_rows<double>(it, in, out, spec);
  } else {
    quantize_rows<float>(it, in, out, spec);
  }
}

void dequantize_per_tensor(const TensorView& in, const TensorView& out, double scale,
                           int64_t zero_point) {
  const TensorView* ops[2] = {&out, &in};
  const NdIter it(out.sizes, out.dim, ops, 2);
  if (out.type == ScalarType::Double) {
    dequantize_tensor_rows<double>(it, in, out, scale, zero_point);
  } else {
    dequantize_tensor_rows<float>(it, in, out, scale, zero_point);
  }
}

void dequantize_affine(const TensorView& in, const TensorView& out, const TensorView& scales,
                       const TensorView* zero_points) {
  const TensorView* ops[4] = {&out, &in, &scales, zero_points};
  const NdIter it(out.sizes, out.dim, ops, zero_points == nullptr ? 3 : 4);
  if (scales.type == ScalarType::Double) {
    dequantize_rows<double>(it, in, out, scales, zero_points);
  } else {
    dequantize_rows<float>(it, in, out, scales, zero_points);
  }
}

}  // namespace tri
