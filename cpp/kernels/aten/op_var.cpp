// aten::var / aten::std / aten::var_mean, .correction_out (`correction`, default 1) and .out
// (`unbiased`: correction 1 or 0), over `dim` (None or [] = all dims).
// Floating self only; out may be any floating dtype. Two passes in double:
// the mean, then the squared deviations over max(0, N - correction), so
// N <= correction gives inf (or NaN for 0/0), as in ATen.
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/reduce.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

// with_mean: var_mean, whose second out (argument 5) gets the mean.
Error var_impl(KernelArgs& args, bool correction_overload, bool take_sqrt, bool with_mean = false) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const EValue* const dims, args.slot(1));
  double correction = 1;
  if (correction_overload) {
    TRI_ASSIGN_OR_RETURN(const Optional<Scalar> c, args.optional_scalar(2));
    if (c.has_value) correction = c.value.as_double();
  } else {
    TRI_ASSIGN_OR_RETURN(const bool unbiased, args.bool_value(2));
    correction = unbiased ? 1 : 0;
  }
  TRI_ASSIGN_OR_RETURN(const bool keepdim, args.bool_value(3));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(4));
  TRI_CHECK(is_floating_type(self->scalar_type()), Error::InvalidType,
            "std and var only support floating point and complex dtypes (self: %s)",
            scalar_type_name(self->scalar_type()));
  TRI_TRY(check_dtype(out->scalar_type(), kFloatHBTypes, "out"));
  Tensor* mean_out = nullptr;
  if (with_mean) {
    TRI_ASSIGN_OR_RETURN(mean_out, args.tensor(5));
    TRI_TRY(check_dtype(mean_out->scalar_type(), kFloatHBTypes, "out1"));
  }
  ReducePlan plan;
  TRI_TRY(plan_over_dims(*self, *dims, keepdim, &plan));
  const Span<const int64_t> out_sizes(plan.out_sizes, plan.out_dim);
  TRI_TRY(resize_out(*out, out_sizes));
  if (mean_out != nullptr) {
    TRI_TRY(resize_out(*mean_out, out_sizes));
    for (int32_t d = 0; d < out->dim(); ++d) {
      TRI_CHECK(mean_out->dim_order()[d] == out->dim_order()[d], Error::InvalidArgument,
                "out0 and out1 must have the same dim order");
    }
  }
  const double n = static_cast<double>(plan.reduce_numel);
  const double divisor = n - correction > 0 ? n - correction : 0.0;
  const ScalarType out_type = out->scalar_type();
  char* const out_base = static_cast<char*>(out->mutable_data());
  const int64_t out_es = static_cast<int64_t>(out->element_size());
  const ScalarType mean_type = mean_out != nullptr ? mean_out->scalar_type() : out_type;
  char* const mean_base = mean_out != nullptr ? static_cast<char*>(mean_out->mutable_data()) : nullptr;
  const int64_t mean_es = mean_out != nullptr ? static_cast<int64_t>(mean_out->element_size()) : 0;
  for_each_reduction(plan, TensorView::of(*out), [&](char* o, const char* in) {
    double sum = 0;
    for_each_reduced_double(plan, in, [&](double v) { sum += v; });
    const double mean = sum / n;
    double m2 = 0;
    for_each_reduced_double(plan, in, [&](double v) { m2 += (v - mean) * (v - mean); });
    const double var = m2 / divisor;
    store_one<double>(out_type, take_sqrt ? std::sqrt(var) : var, o);
    if (mean_base != nullptr) {
      // Same shape and dim order as out: the same element offset.
      store_one<double>(mean_type, mean, mean_base + (o - out_base) / out_es * mean_es);
    }
  });
  return Error::Ok;
}

}  // namespace

Error var_correction_out(KernelContext&, KernelArgs& args) { return var_impl(args, true, false); }
Error var_out(KernelContext&, KernelArgs& args) { return var_impl(args, false, false); }
Error std_correction_out(KernelContext&, KernelArgs& args) { return var_impl(args, true, true); }
Error std_out(KernelContext&, KernelArgs& args) { return var_impl(args, false, true); }
Error var_mean_correction_out(KernelContext&, KernelArgs& args) {
  return var_impl(args, true, false, true);
}

}  // namespace kernels
}  // namespace tri
