// aten::_softmax.out and aten::_log_softmax.out along `dim`, computed
// stably (the row max is subtracted first) in float32 (double for Double).
// Float rows that are contiguous, and row-major Float tensors reduced over a
// non-last dim (lanes = the contiguous inner elements), go through the
// SIMD primitives of reduce_simd.h; everything else through softmax_row.
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/reduce.h"
#include "cpp/kernels/util/reduce_simd.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

constexpr int64_t kChunk = 256;

// One row of n elements of `type`, computed in C (float, or double for
// Double); strides in bytes. Called once per row. Each pass reads the row in
// place when it is a contiguous row of C, else converts it a chunk at a time.
template <typename C, bool kLog>
void softmax_row(ScalarType type, const char* in, int64_t in_stride, char* out,
                 int64_t out_stride, int64_t n) {
  const bool direct = type == dtype_of<C>() && in_stride == static_cast<int64_t>(sizeof(C)) &&
                      out_stride == static_cast<int64_t>(sizeof(C));
  C buf[kChunk];
  auto chunk = [&](int64_t i, int64_t m) -> const C* {
    if (direct) return reinterpret_cast<const C*>(in) + i;
    load_row<C>(type, in + i * in_stride, in_stride, m, buf);
    return buf;
  };
  auto size = [n](int64_t i) { return n - i < kChunk ? n - i : kChunk; };
  C max = chunk(0, 1)[0];
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t m = size(i);
    const C* x = chunk(i, m);
    for (int64_t j = 0; j < m; ++j) {
      const C v = x[j];
      max = (v > max || v != v) && max == max ? v : max;
    }
  }
  C sum = C(0);
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t m = size(i);
    const C* x = chunk(i, m);
    for (int64_t j = 0; j < m; ++j) sum += std::exp(x[j] - max);
  }
  const C shift = kLog ? max + std::log(sum) : C(0);
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t m = size(i);
    const C* x = chunk(i, m);
    C* y = direct ? reinterpret_cast<C*>(out) + i : buf;
    if (kLog) {
      for (int64_t j = 0; j < m; ++j) y[j] = x[j] - shift;
    } else {
      for (int64_t j = 0; j < m; ++j) y[j] = std::exp(x[j] - max) / sum;
    }
    if (!direct) store_row<C>(type, buf, out + i * out_stride, out_stride, m);
  }
}

// A contiguous Float row.
template <bool kLog>
void softmax_row_f32(const float* x, float* y, int64_t n) {
  const float max = extreme_f32(x, n, -INFINITY, true);
  if (kLog) {
    const float sum = exp_sum_f32(x, max, nullptr, n);
    sub_f32(x, max + std::log(sum), y, n);
  } else {
    const float sum = exp_sum_f32(x, max, y, n);
    scale_f32(y, 1.0f / sum, y, n);
  }
}

// m lanes of a row-major Float tensor reduced over a dim of n elements at a
// distance of `inner` floats. x and y may be the same memory.
template <bool kLog>
void softmax_lanes_f32(const float* x, float* y, int64_t n, int64_t inner, int64_t m) {
  float max[kChunk];
  float sum[kChunk];
  float tmp[kChunk];
  for (int64_t j = 0; j < m; ++j) {
    max[j] = -INFINITY;
    sum[j] = 0;
  }
  for (int64_t c = 0; c < n; ++c) extreme_f32_rows(max, x + c * inner, m, true);
  for (int64_t c = 0; c < n; ++c) {
    exp_sum_f32_rows(x + c * inner, max, kLog ? tmp : y + c * inner, sum, m);
  }
  if (kLog) {
    for (int64_t j = 0; j < m; ++j) max[j] += std::log(sum[j]);
    for (int64_t c = 0; c < n; ++c) sub_f32_rows(x + c * inner, max, y + c * inner, m);
  } else {
    for (int64_t j = 0; j < m; ++j) sum[j] = 1.0f / sum[j];
    for (int64_t c = 0; c < n; ++c) mul_f32_rows(y + c * inner, sum, y + c * inner, m);
  }
}

template <bool kLog>
Error softmax_impl(KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(const bool half_to_float, args.bool_value(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_CHECK(!half_to_float, Error::NotSupported,
            "softmax with half to float conversion is not supported on CPU");
  TRI_TRY(check_dtype(self->scalar_type(), kFloatHBTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, self->dim(), &d));
  TRI_TRY(resize_out(*out, self->sizes()));
  if (self->numel() == 0) {
    return Error::Ok;
  }
  const ScalarType type = self->scalar_type();
  const bool scalar = self->dim() == 0;
  const int64_t n = scalar ? 1 : self->size(d);
  const int64_t es = static_cast<int64_t>(self->element_size());
  const int64_t in_stride = scalar ? 0 : self->strides()[d] * es;
  const int64_t out_stride = scalar ? 0 : out->strides()[d] * es;
  const TensorView in_v = TensorView::of(*self);
  const TensorView out_v = TensorView::of(*out);
  const int64_t inner = scalar ? 1 : size_product(self->sizes(), d + 1, self->dim());
  if (type == ScalarType::Float && inner > 1 && in_v.is_row_major() && out_v.is_row_major()) {
    const float* x = static_cast<const float*>(in_v.data);
    float* y = static_cast<float*>(out_v.data);
    const int64_t outer = self->numel() / (n * inner);
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t j = 0; j < inner; j += kChunk) {
        const int64_t at = o * n * inner + j;
        softmax_lanes_f32<kLog>(x + at, y + at, n, inner, inner - j < kChunk ? inner - j : kChunk);
      }
    }
    return Error::Ok;
  }
  bool mask[kTensorDimLimit] = {};
  mask[d] = true;
  ReducePlan plan;
  make_reduce_plan(*self, mask, /*keepdim=*/true, &plan);
  const bool f32_rows = type == ScalarType::Float && in_stride == 4 && out_stride == 4;
  if (type == ScalarType::Double) {
    for_each_reduction(plan, out_v, [&](char* o, const char* in) {
      softmax_row<double, kLog>(type, in, in_stride, o, out_stride, n);
    });
  } else if (f32_rows) {
    for_each_reduction(plan, out_v, [&](char* o, const char* in) {
      softmax_row_f32<kLog>(reinterpret_cast<const float*>(in), reinterpret_cast<float*>(o), n);
    });
  } else {
    for_each_reduction(plan, out_v, [&](char* o, const char* in) {
      softmax_row<float, kLog>(type, in, in_stride, o, out_stride, n);
    });
  }
  return Error::Ok;
}

}  // namespace

Error softmax_out(KernelContext&, KernelArgs& args) { return softmax_impl<false>(args); }
Error log_softmax_out(KernelContext&, KernelArgs& args) { return softmax_impl<true>(args); }

}  // namespace kernels
}  // namespace tri
