#include "cpp/kernels/util/quant_args.h"

#include <cinttypes>
#include <cmath>

#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/nd_iter.h"

namespace tri {
namespace {

void quant_range(ScalarType t, int64_t* lo, int64_t* hi) {
  switch (t) {
    case ScalarType::Byte: *lo = 0; *hi = 255; return;
    case ScalarType::Char: *lo = -128; *hi = 127; return;
    case ScalarType::Short: *lo = -32768; *hi = 32767; return;
    case ScalarType::UInt16: *lo = 0; *hi = 65535; return;
    default: *lo = INT32_MIN; *hi = INT32_MAX; return;
  }
}

// `param`'s elements as one strided line of `count` values: its single
// non-1 dim (or none when it has one element).
Error param_line(const Tensor& param, int64_t count, uint32_t dtypes, const char* what,
                 int64_t* stride) {
  TRI_TRY(check_dtype(param.scalar_type(), dtypes, what));
  TRI_CHECK(static_cast<int64_t>(param.numel()) == count, Error::InvalidArgument,
            "%s: has %zu elements, expected %" PRId64, what, param.numel(), count);
  *stride = 0;
  int non_one = 0;
  for (int32_t d = 0; d < param.dim(); ++d) {
    if (param.size(d) != 1) {
      ++non_one;
      *stride = param.strides()[d];
    }
  }
  TRI_CHECK(non_one <= 1, Error::InvalidArgument,
            "%s: expected a 1-D tensor of %" PRId64 " values, got rank %d", what, count,
            param.dim());
  return Error::Ok;
}

TensorView broadcast_view(const Tensor& param, const TensorView& in) {
  TensorView v;
  v.data = param.mutable_data();
  v.type = param.scalar_type();
  v.dim = in.dim;
  for (int32_t d = 0; d < in.dim; ++d) {
    v.sizes[d] = in.sizes[d];
    v.strides[d] = 0;
  }
  return v;
}

}  // namespace

Result<ScalarType> scalar_type_arg(const KernelArgs& args, size_t i, const char* what) {
  TRI_ASSIGN_OR_RETURN(const Optional<ScalarType> t, args.optional_scalar_type(i));
  TRI_CHECK(t.has_value, Error::InvalidArgument, "%s: expected a ScalarType, got None", what);
  return t.value;
}

Error check_quant_bounds(ScalarType dtype, int64_t quant_min, int64_t quant_max) {
  TRI_TRY(check_dtype(dtype, kQuantTypes, "dtype"));
  int64_t lo = 0, hi = 0;
  quant_range(dtype, &lo, &hi);
  TRI_CHECK(quant_min >= lo, Error::InvalidArgument,
            "quant_min %" PRId64 " is below the range of %s [%" PRId64 ", %" PRId64 "]",
            quant_min, scalar_type_name(dtype), lo, hi);
  TRI_CHECK(quant_max <= hi, Error::InvalidArgument,
            "quant_max %" PRId64 " is above the range of %s [%" PRId64 ", %" PRId64 "]",
            quant_max, scalar_type_name(dtype), lo, hi);
  return Error::Ok;
}

Error check_scale(double scale, const char* what) {
  TRI_CHECK(std::isfinite(scale) && scale > 0, Error::InvalidArgument,
            "%s: must be finite and > 0, got %g", what, scale);
  return Error::Ok;
}

Error scalar_param(const Tensor& t, bool floating, const char* what, double* d, int64_t* i) {
  TRI_TRY(check_dtype(t.scalar_type(), floating ? kFloatHBTypes : kIntTypes, what));
  TRI_CHECK(t.numel() == 1, Error::InvalidArgument, "%s: expected one element, got %zu",
            what, t.numel());
  if (floating) {
    *d = load_one<double>(t.scalar_type(), t.data());
  } else {
    *i = load_one<int64_t>(t.scalar_type(), t.data());
  }
  return Error::Ok;
}

Error channel_param_view(const Tensor& param, const TensorView& in, int32_t axis,
                         uint32_t dtypes, const char* what, TensorView* view) {
  int64_t stride = 0;
  TRI_TRY(param_line(param, in.sizes[axis], dtypes, what, &stride));
  *view = broadcast_view(param, in);
  view->strides[axis] = stride;
  return Error::Ok;
}

Error token_param_view(const Tensor& param, const TensorView& in, uint32_t dtypes,
                       const char* what, TensorView* view) {
  TRI_TRY(check_dtype(param.scalar_type(), dtypes, what));
  int64_t tokens = 1;
  for (int32_t d = 0; d + 1 < in.dim; ++d) tokens *= in.sizes[d];
  TRI_CHECK(static_cast<int64_t>(param.numel()) == tokens, Error::InvalidArgument,
            "%s: has %zu elements, expected one per token (%" PRId64 ")", what, param.numel(),
            tokens);
  TRI_CHECK(TensorView::of(param).is_row_major(), Error::InvalidArgument,
            "%s: must be contiguous (row-major)", what);
  *view = broadcast_view(param, in);
  int64_t stride = 1;
  for (int32_t d = in.dim - 2; d >= 0; --d) {
    view->strides[d] = stride;
    stride *= in.sizes[d];
  }
  return Error::Ok;
}

Error check_scales(const Tensor& scales, const char* what) {
  const TensorView v = TensorView::of(scales);
  const TensorView* ops[1] = {&v};
  const NdIter it(v.sizes, v.dim, ops, 1);
  bool ok = true;
  double bad = 0;
  it.for_each_row([&](char* const* p, const int64_t* s, int64_t n) {
    for (int64_t k = 0; k < n && ok; ++k) {
      const double x = load_one<double>(v.type, p[0] + k * s[0]);
      if (!(std::isfinite(x) && x > 0)) {
        ok = false;
        bad = x;
      }
    }
  });
  TRI_CHECK(ok, Error::InvalidArgument, "%s: every scale must be finite and > 0, got %g", what,
            bad);
  return Error::Ok;
}

Error read_quant_range(const KernelArgs& args, size_t i, QuantRange* range) {
  TRI_ASSIGN_OR_RETURN(range->qmin, args.int_value(i));
  TRI_ASSIGN_OR_RETURN(range->qmax, args.int_value(i + 1));
  TRI_ASSIGN_OR_RETURN(range->dtype, scalar_type_arg(args, i + 2, "dtype"));
  return Error::Ok;
}

Error read_per_tensor_args(const KernelArgs& args, bool as_tensors, PerTensorArgs* a) {
  TRI_ASSIGN_OR_RETURN(a->input, args.tensor(0));
  if (as_tensors) {
    TRI_ASSIGN_OR_RETURN(Tensor* scale_t, args.tensor(1));
    TRI_ASSIGN_OR_RETURN(Tensor* zp_t, args.tensor(2));
    TRI_TRY(scalar_param(*scale_t, true, "scale", &a->scale, nullptr));
    TRI_TRY(scalar_param(*zp_t, false, "zero_point", nullptr, &a->zero_point));
  } else {
    TRI_ASSIGN_OR_RETURN(a->scale, args.double_value(1));
    TRI_ASSIGN_OR_RETURN(a->zero_point, args.int_value(2));
  }
  return read_quant_range(args, 3, &a->range);
}

}  // namespace tri
