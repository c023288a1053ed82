// aten::maximum.out, aten::minimum.out: elementwise max/min of two broadcast
// tensors; NaN propagates (unlike fmax/fmin); Bool is or/and.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/binary_simd.h"
#include "cpp/kernels/util/elementwise.h"

namespace tri {
namespace kernels {
namespace {

template <bool kMax>
Error run(ScalarType common, const TensorView& x, const TensorView& y, const TensorView& out) {
  const SimdBinary simd{kMax ? SimdBinOp::Max : SimdBinOp::Min, 1.0f};
  return map2_simd<kComputeAll | kComputeInt32>(simd, common, x, y, out, [](auto tag) {
    using C = typename decltype(tag)::type;
    return [](C a, C b) -> C {
      // a != a: a is NaN (never true for integers).
      if (a != a) return a;
      if (b != b) return b;
      return kMax ? (a < b ? b : a) : (b < a ? b : a);
    };
  });
}

Error minmax_impl(KernelArgs& args, bool is_max) {
  BinarySpec spec;
  spec.allowed = kRealHBBoolTypes;
  BinaryOperands ops;
  TRI_TRY(prepare_binary(args, spec, &ops));
  const TensorView self_v = TensorView::of(*ops.self);
  const TensorView other_v = TensorView::of(*ops.other);
  const TensorView out_v = TensorView::of(*ops.out);
  return is_max ? run<true>(ops.common, self_v, other_v, out_v)
                : run<false>(ops.common, self_v, other_v, out_v);
}

}  // namespace

Error maximum_out(KernelContext&, KernelArgs& args) { return minmax_impl(args, true); }
Error minimum_out(KernelContext&, KernelArgs& args) { return minmax_impl(args, false); }

}  // namespace kernels
}  // namespace tri
