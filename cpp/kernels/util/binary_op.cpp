#include "cpp/kernels/util/binary_op.h"

#include "cpp/kernels/util/broadcast.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/elementwise.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/type_promotion.h"

namespace tri {

Error prepare_binary(KernelArgs& args, const BinarySpec& spec, BinaryOperands* ops) {
  ResultType rt;
  if (spec.self_kind == OperandKind::Scalar) {
    TRI_ASSIGN_OR_RETURN(ops->self_scalar, args.scalar(0));
    ops->self_is_scalar = true;
    rt.add(ops->self_scalar);
  } else {
    TRI_ASSIGN_OR_RETURN(ops->self, args.tensor(0));
    rt.add(*ops->self);
  }
  if (spec.other_kind == OperandKind::Scalar) {
    TRI_ASSIGN_OR_RETURN(ops->other_scalar, args.scalar(1));
    ops->other = nullptr;
    rt.add(ops->other_scalar);
  } else {
    TRI_ASSIGN_OR_RETURN(ops->other, args.tensor(1));
    rt.add(*ops->other);
  }
  TRI_ASSIGN_OR_RETURN(ops->out, args.tensor(spec.out_index));
  TRI_TRY(rt.get(&ops->common));
  if (spec.int_to_float && !is_floating_type(ops->common)) {
    ops->common = ScalarType::Float;
  }
  TRI_TRY(check_dtype(ops->common, spec.allowed, "operands' common dtype"));
  TRI_TRY(check_dtype(ops->out->scalar_type(), kRealHBBoolTypes, "out"));
  if (!spec.out_is_bool) {
    TRI_TRY(check_can_cast(ops->common, ops->out->scalar_type()));
  }
  SizesType shape[kTensorDimLimit];
  int32_t dim = 0;
  const Span<const SizesType> empty;
  TRI_TRY(broadcast_shapes(ops->self ? ops->self->sizes() : empty,
                           ops->other ? ops->other->sizes() : empty, shape, &dim));
  return resize_out(*ops->out, Span<const SizesType>(shape, dim));
}

Error check_alpha(const Scalar& alpha, ScalarType common) {
  TRI_CHECK(!alpha.is_bool() || common == ScalarType::Bool, Error::InvalidArgument,
            "Boolean alpha only supported for Boolean results");
  TRI_CHECK(is_floating_type(common) || !alpha.is_floating(), Error::InvalidArgument,
            "for integral input tensors, argument alpha must not be a floating "
            "point number (got %g)", alpha.d);
  return Error::Ok;
}

Error check_int_divisor(const TensorView& divisor, ScalarType common, const Tensor& out) {
  if (compute_kind(common) != ComputeKind::Int || out.numel() == 0) {
    return Error::Ok;
  }
  TRI_CHECK(!any_zero_in(divisor, common), Error::InvalidArgument,
            "other: integer division by zero (ZeroDivisionError)");
  return Error::Ok;
}

}  // namespace tri
