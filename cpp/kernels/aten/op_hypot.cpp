// aten::hypot.out: out = sqrt(self^2 + other^2) without overflow. Floating
// operands only, as in ATen (integers are refused, not promoted).
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/elementwise.h"

namespace tri {
namespace kernels {

Error hypot_out(KernelContext&, KernelArgs& args) {
  BinarySpec spec;
  spec.allowed = kFloatHBTypes;
  BinaryOperands ops;
  TRI_TRY(prepare_binary(args, spec, &ops));
  return map2<kComputeFloating>(ops.common, TensorView::of(*ops.self), TensorView::of(*ops.other),
                                TensorView::of(*ops.out), [](auto tag) {
                                  using C = typename decltype(tag)::type;
                                  return [](C x, C y) -> C { return std::hypot(x, y); };
                                });
}

}  // namespace kernels
}  // namespace tri
