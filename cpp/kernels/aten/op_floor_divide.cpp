// aten::floor_divide.out: division rounded toward -inf (as div with
// rounding_mode='floor'). Integer divisors may not be 0.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/elementwise.h"
#include "cpp/kernels/util/floor_div.h"

namespace tri {
namespace kernels {

Error floor_divide_out(KernelContext&, KernelArgs& args) {
  BinarySpec spec;
  spec.allowed = kRealHBTypes;
  BinaryOperands ops;
  TRI_TRY(prepare_binary(args, spec, &ops));
  const TensorView other_v = TensorView::of(*ops.other);
  TRI_TRY(check_int_divisor(other_v, ops.common, *ops.out));
  return map2<kComputeAll>(ops.common, TensorView::of(*ops.self), other_v, TensorView::of(*ops.out),
                           [](auto tag) {
                             using C = typename decltype(tag)::type;
                             return [](C x, C y) -> C { return floor_div(x, y); };
                           });
}

}  // namespace kernels
}  // namespace tri
