#include "cpp/kernels/util/reduce_minmax.h"

#include <cmath>

#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/reduce_simd.h"

namespace tri {
namespace {

constexpr int64_t kChunk = 256;

template <typename C, bool kMax>
inline bool better(C v, C best) {
  if (best != best) return false;  // the first NaN stays
  if (v != v) return true;
  return kMax ? v > best : v < best;
}

// Values and indices in the compute type C of self's dtype (conversion keeps
// order and NaN); elements are converted a chunk at a time.
template <typename C, bool kMax>
void extreme_in(const ReducePlan& plan, const TensorView* values, const TensorView* indices) {
  const ScalarType type = plan.in.type;
  const TensorView& a = values != nullptr ? *values : *indices;
  const TensorView& b = indices != nullptr ? *indices : a;
  for_each_reduction2(plan, a, b, [&](char* va, char* vb, const char* in) {
    int64_t index = 0;
    int64_t best_index = 0;
    C best = C(0);
    walk_reduced(plan, in, [&](const char* p, int64_t n, int64_t stride) {
      C buf[kChunk];
      for (int64_t i0 = 0; i0 < n; i0 += kChunk) {
        const int64_t m = n - i0 < kChunk ? n - i0 : kChunk;
        load_row<C>(type, p + i0 * stride, stride, m, buf);
        for (int64_t i = 0; i < m; ++i, ++index) {
          if (index == 0 || better<C, kMax>(buf[i], best)) {
            best = buf[i];
            best_index = index;
          }
        }
      }
    });
    if (values != nullptr) store_one<C>(values->type, best, va);
    if (indices != nullptr) *reinterpret_cast<int64_t*>(vb) = best_index;
  });
}

// Float values only (amax and friends): contiguous runs and column blocks go
// through the SIMD primitives.
void extreme_values_f32(const ReducePlan& plan, bool is_max, const TensorView& out) {
  const float init = is_max ? -INFINITY : INFINITY;
  if (column_mode_applies(plan, out)) {
    for_each_column_block(plan, out, kChunk, [&](char* o, const char* in, int64_t m) {
      float acc[kChunk];
      for (int64_t j = 0; j < m; ++j) acc[j] = init;
      walk_reduced(plan, in, [&](const char* p, int64_t n, int64_t stride) {
        for (int64_t i = 0; i < n; ++i) {
          extreme_f32_rows(acc, reinterpret_cast<const float*>(p + i * stride), m, is_max);
        }
      });
      for (int64_t j = 0; j < m; ++j) reinterpret_cast<float*>(o)[j] = acc[j];
    });
    return;
  }
  for_each_reduction(plan, out, [&](char* o, const char* in) {
    float acc = init;
    walk_reduced(plan, in, [&](const char* p, int64_t n, int64_t stride) {
      if (stride == static_cast<int64_t>(sizeof(float))) {
        acc = extreme_f32(reinterpret_cast<const float*>(p), n, acc, is_max);
      } else {
        for (int64_t i = 0; i < n; ++i) {
          acc = extreme_f32(reinterpret_cast<const float*>(p + i * stride), 1, acc, is_max);
        }
      }
    });
    *reinterpret_cast<float*>(o) = acc;
  });
}

template <bool kMax>
void dispatch(const ReducePlan& plan, const TensorView* values, const TensorView* indices) {
  switch (compute_kind(plan.in.type)) {
    case ComputeKind::Int: extreme_in<int64_t, kMax>(plan, values, indices); break;
    case ComputeKind::Float: extreme_in<float, kMax>(plan, values, indices); break;
    case ComputeKind::Double: extreme_in<double, kMax>(plan, values, indices); break;
  }
}

}  // namespace

void reduce_extreme(const ReducePlan& plan, bool is_max, const TensorView* values,
                    const TensorView* indices) {
  if (indices == nullptr && values != nullptr && plan.in.type == ScalarType::Float &&
      values->type == ScalarType::Float) {
    extreme_values_f32(plan, is_max, *values);
  } else if (is_max) {
    dispatch<true>(plan, values, indices);
  } else {
    dispatch<false>(plan, values, indices);
  }
}

}  // namespace tri
