// aten::addmm.out: out = beta * self + alpha * (mat1 @ mat2), self broadcast
// to [m, n]. With beta == 0, self is ignored (NaN in it does not propagate).
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/broadcast.h"
#include "cpp/kernels/util/elementwise.h"
#include "cpp/kernels/util/matmul.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error addmm_out(KernelContext& context, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* mat1, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* mat2, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(const Scalar beta, args.scalar(3));
  TRI_ASSIGN_OR_RETURN(const Scalar alpha, args.scalar(4));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(5));
  TRI_TRY(check_same_dtype(*self, mat1->scalar_type(), "self"));
  TRI_TRY(check_matmul(*mat1, *mat2, *out));
  char shape_text[64];
  TRI_CHECK(broadcastable_to(self->sizes(), out->sizes()), Error::InvalidArgument,
            "self of shape %s cannot be broadcast to [%d, %d]",
            format_sizes(self->sizes(), shape_text, sizeof(shape_text)), out->size(0),
            out->size(1));
  const ScalarType type = out->scalar_type();
  // alpha and beta as values of out's dtype (integers wrap: beta 256 is 0
  // for uint8).
  const ComputeScalar a_value(alpha, type);
  const ComputeScalar b_value(beta, type);
  // A linear layer's form: a float bias row starts the gemm's sums.
  const float* row = type == ScalarType::Float && a_value.as_double() == 1 &&
                             b_value.as_double() == 1
                         ? f32_bias_row(*self, out->size(1))
                         : nullptr;
  if (row != nullptr) {
    matmul_add_row_into(context, *mat1, *mat2, row, *out);
    return Error::Ok;
  }
  matmul_into(context, *mat1, *mat2, *out);
  const TensorView out_v = TensorView::of(*out);
  if (b_value.as_double() == 0) {
    if (a_value.as_double() == 1) {
      return Error::Ok;
    }
    return map1<kComputeAll>(type, out_v, out_v, [&](auto tag) {
      using C = typename decltype(tag)::type;
      const C a = a_value.get<C>();
      return [a](C x) -> C { return arith_mul(a, x); };
    });
  }
  return map2<kComputeAll>(type, out_v, TensorView::of(*self), out_v, [&](auto tag) {
    using C = typename decltype(tag)::type;
    const C a = a_value.get<C>();
    const C b = b_value.get<C>();
    return [a, b](C x, C bias) -> C { return arith_add(arith_mul(a, x), arith_mul(b, bias)); };
  });
}

size_t addmm_scratch(KernelArgs& args) {
  Result<Tensor*> mat1 = args.tensor(1);
  Result<Tensor*> mat2 = args.tensor(2);
  if (!mat1.ok() || !mat2.ok() || (*mat1)->dim() != 2 || (*mat2)->dim() != 2) return 0;
  return matmul_scratch((*mat1)->scalar_type(), (*mat1)->size(0), (*mat2)->size(1), (*mat1)->size(1));
}

}  // namespace kernels
}  // namespace tri
