// aten::logit.out: log(x / (1 - x)), with x first clamped to [eps, 1 - eps]
// when eps is given (ATen skips the clamp for a negative eps, as for None).
// Integer inputs compute in Float.
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error logit_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const Optional<double> eps, args.optional_double(1));
  Tensor* self = nullptr;
  Tensor* out = nullptr;
  TRI_TRY(read_unary(args, 2, &self, &out));
  ScalarType compute;
  TRI_TRY(check_unary_float(*self, *out, &compute));
  const bool clamp = eps.has_value && eps.value >= 0;
  const double lo = clamp ? eps.value : 0.0;
  const double hi = 1.0 - lo;
  return map_unary<kComputeFloating>(compute, *self, *out, [=](auto x) {
    using C = decltype(x);
    if (clamp) x = x < static_cast<C>(lo) ? static_cast<C>(lo) : (x > static_cast<C>(hi) ? static_cast<C>(hi) : x);
    return static_cast<C>(std::log(x / (C(1) - x)));
  });
}

}  // namespace kernels
}  // namespace tri
