// aten::logical_and.out, logical_or.out, logical_xor.out: operands of any
// dtype are converted to their common dtype (as ATen's comparison ops do)
// and tested for != 0 (NaN is true); out gets 0/1 in its own dtype.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/elementwise.h"

namespace tri {
namespace kernels {
namespace {

// The three ops share one loop per compute type: the result is bit
// (2 * p + q) of the op's truth table, p and q being the operands' truth.
constexpr uint32_t kAnd = 0b1000;
constexpr uint32_t kOr = 0b1110;
constexpr uint32_t kXor = 0b0110;

Error logical_impl(KernelArgs& args, uint32_t table) {
  BinarySpec spec;
  spec.allowed = kRealHBBoolTypes;
  spec.out_is_bool = true;
  BinaryOperands ops;
  TRI_TRY(prepare_binary(args, spec, &ops));
  return map2<kComputeAll>(ops.common, TensorView::of(*ops.self), TensorView::of(*ops.other),
                           TensorView::of(*ops.out), [table](auto tag) {
                             using C = typename decltype(tag)::type;
                             return [table](C a, C b) -> bool {
                               const uint32_t i = (a != C(0) ? 2u : 0u) | (b != C(0) ? 1u : 0u);
                               return ((table >> i) & 1u) != 0;
                             };
                           });
}

}  // namespace

Error logical_and_out(KernelContext&, KernelArgs& a) { return logical_impl(a, kAnd); }
Error logical_or_out(KernelContext&, KernelArgs& a) { return logical_impl(a, kOr); }
Error logical_xor_out(KernelContext&, KernelArgs& a) { return logical_impl(a, kXor); }

}  // namespace kernels
}  // namespace tri
