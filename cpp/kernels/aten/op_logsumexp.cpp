// aten::logsumexp.out over `dim` ([] = all dims): log(sum(exp(x))) computed
// stably as m + log(sum(exp(x - m))) with m the max (0 when the max is
// infinite, as in ATen), in double. Integral self gives a floating result;
// out must be floating. An empty reduction is -inf.
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/reduce.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error logsumexp_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const EValue* const dims, args.slot(1));
  TRI_ASSIGN_OR_RETURN(const bool keepdim, args.bool_value(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBBoolTypes, "self"));
  TRI_CHECK(is_floating_type(out->scalar_type()), Error::InvalidType,
            "logsumexp(): Expected floating point type for result tensor, but got: %s",
            scalar_type_name(out->scalar_type()));
  TRI_TRY(check_dtype(out->scalar_type(), kFloatHBTypes, "out"));
  ReducePlan plan;
  TRI_TRY(plan_over_dims(*self, *dims, keepdim, &plan));
  TRI_TRY(resize_out(*out, Span<const int64_t>(plan.out_sizes, plan.out_dim)));
  const ScalarType out_type = out->scalar_type();
  for_each_reduction(plan, TensorView::of(*out), [&](char* o, const char* in) {
    double max = -INFINITY;
    for_each_reduced_double(plan, in, [&](double v) {
      if (max == max && (v > max || v != v)) max = v;  // NaN propagates
    });
    const double shift = std::isinf(max) ? 0.0 : max;
    double sum = 0;
    for_each_reduced_double(plan, in, [&](double v) { sum += std::exp(v - shift); });
    store_one<double>(out_type, std::log(sum) + shift, o);
  });
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
