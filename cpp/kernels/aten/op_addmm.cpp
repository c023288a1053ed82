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
  matmul_into(context, *mat1, *mat2, *out);
  const ScalarType type = out->scalar_type();
  const TensorView out_v = TensorView::of(*out);
  // beta == 0 and alpha == 1 as values of out's dtype (integers wrap).
  ComputeScalar a_value(alpha, type);
  ComputeScalar b_value(beta, type);
  double a_num = 0;
  double b_num = 0;
  switch (compute_kind(type)) {
    case ComputeKind::Int:
      a_num = static_cast<double>(a_value.get<int64_t>());
      b_num = static_cast<double>(b_value.get<int64_t>());
      break;
    case ComputeKind::Float:
      a_num = a_value.get<float>();
      b_num = b_value.get<float>();
      break;
    case ComputeKind::Double:
      a_num = a_value.get<double>();
      b_num = b_value.get<double>();
      break;
  }
  if (b_num == 0) {
    if (a_num == 1) {
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

}  // namespace kernels
}  // namespace tri
