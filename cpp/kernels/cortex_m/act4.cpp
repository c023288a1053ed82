#include "cpp/kernels/cortex_m/act4.h"

#include <cinttypes>
#include <initializer_list>

#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/tensor_view.h"

namespace tri {
namespace cortex_m {

Act4 Act4::of(const Tensor& t, bool nhwc) {
  const TensorView v = TensorView::of(t);
  Act4 a;
  a.data = static_cast<char*>(v.data);
  const int32_t ci = nhwc ? 3 : 1, hi = nhwc ? 1 : 2, wi = nhwc ? 2 : 3;
  a.n = v.sizes[0];
  a.c = v.sizes[ci];
  a.h = v.sizes[hi];
  a.w = v.sizes[wi];
  a.sn = v.strides[0];
  a.sc = v.strides[ci];
  a.sh = v.strides[hi];
  a.sw = v.strides[wi];
  return a;
}

Error check_act(const Tensor& t, const char* what) {
  TRI_CHECK(t.scalar_type() == ScalarType::Char, Error::InvalidType, "%s must be int8, got %s",
            what, scalar_type_name(t.scalar_type()));
  TRI_CHECK(t.dim() == 4, Error::InvalidArgument, "%s must be 4-D, got rank %d", what, t.dim());
  return Error::Ok;
}

Error resize_act(Tensor& out, int64_t n, int64_t c, int64_t h, int64_t w, bool nhwc, Act4* view) {
  TRI_CHECK(out.scalar_type() == ScalarType::Char, Error::InvalidType, "out must be int8, got %s",
            scalar_type_name(out.scalar_type()));
  TRI_CHECK(n >= 0 && c >= 0 && h > 0 && w > 0, Error::InvalidArgument,
            "the output would be empty or negative (%" PRId64 "x%" PRId64 "x%" PRId64 "x%" PRId64 ")",
            n, c, h, w);
  const int64_t nchw[4] = {n, c, h, w};
  const int64_t nhwc_sizes[4] = {n, h, w, c};
  TRI_TRY(resize_out(out, Span<const int64_t>(nhwc ? nhwc_sizes : nchw, 4)));
  *view = Act4::of(out, nhwc);
  return Error::Ok;
}

Error check_channel_params(const Tensor& multipliers, const Tensor& shifts, int64_t channels) {
  for (const Tensor* t : {&multipliers, &shifts}) {
    TRI_CHECK(t->scalar_type() == ScalarType::Int && static_cast<int64_t>(t->numel()) == channels && t->is_contiguous(),
              Error::InvalidArgument,
              "requantize multipliers and shifts must be %" PRId64 " contiguous int32 values", channels);
  }
  const int32_t* s = static_cast<const int32_t*>(shifts.data());
  for (int64_t i = 0; i < channels; ++i) {
    TRI_CHECK(s[i] >= -31 && s[i] <= 30, Error::InvalidArgument,
              "requantize shift %d (channel %" PRId64 ") is outside [-31, 30]", s[i], i);
  }
  return Error::Ok;
}

Error check_shift(int64_t shift, const char* what) {
  TRI_CHECK(shift >= -31 && shift <= 30, Error::InvalidArgument,
            "%s %" PRId64 " is outside [-31, 30]", what, shift);
  return Error::Ok;
}

Error read_pair(const Span<const int64_t>& v, const char* what, int64_t* a, int64_t* b) {
  TRI_CHECK(v.size() == 2, Error::InvalidArgument, "%s must have 2 values, got %zu", what, v.size());
  *a = v[0];
  *b = v[1];
  return Error::Ok;
}

}  // namespace cortex_m
}  // namespace tri
