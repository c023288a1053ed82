// aten::atan2.out: out = atan2(self, other), a float op (integer and Bool
// operands compute in Float).
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/elementwise.h"

namespace tri {
namespace kernels {

Error atan2_out(KernelContext&, KernelArgs& args) {
  BinarySpec spec;
  spec.allowed = kFloatHBTypes;
  spec.int_to_float = true;
  BinaryOperands ops;
  TRI_TRY(prepare_binary(args, spec, &ops));
  return map2<kComputeFloating>(ops.common, TensorView::of(*ops.self), TensorView::of(*ops.other),
                                TensorView::of(*ops.out), [](auto tag) {
                                  using C = typename decltype(tag)::type;
                                  return [](C y, C x) -> C { return std::atan2(y, x); };
                                });
}

}  // namespace kernels
}  // namespace tri
