// aten::masked_fill.Scalar_out: out = mask ? value : self, with self and the
// Bool mask broadcast together (as the functional masked_fill's
// expand_outplace). value must fit self's dtype; the result is in self's
// dtype, then converted to out's (any dtype, as the generated out wrapper's
// copy_).
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/broadcast.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/elementwise.h"
#include "cpp/kernels/util/fill.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error masked_fill_scalar_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Tensor* mask, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(const Scalar value, args.scalar(2));
  TRI_ASSIGN_OR_RETURN(Tensor * out, args.tensor(3));
  const ScalarType type = self->scalar_type();
  TRI_TRY(check_dtype(type, kRealHBBoolTypes, "self"));
  TRI_CHECK(mask->scalar_type() == ScalarType::Bool, Error::InvalidType,
            "mask: expected a Bool tensor, got %s", scalar_type_name(mask->scalar_type()));
  TRI_TRY(check_dtype(out->scalar_type(), kRealHBBoolTypes, "out"));
  TRI_TRY(check_scalar_fits(value, type));
  SizesType shape[kTensorDimLimit];
  int32_t dim = 0;
  TRI_TRY(broadcast_shapes(self->sizes(), mask->sizes(), shape, &dim));
  TRI_TRY(resize_out(*out, Span<const SizesType>(shape, dim)));
  // The value as an element of self's dtype (Half/BFloat16 rounded to it).
  alignas(8) unsigned char element[8];
  scalar_to_bytes(value, type, element);
  const TensorView value_v = TensorView::scalar(element, type);
  return map3<kComputeAll>(type, TensorView::of(*mask), value_v, TensorView::of(*self),
                           TensorView::of(*out), [](auto tag) {
                             using C = typename decltype(tag)::type;
                             return [](C m, C v, C x) -> C { return m != C(0) ? v : x; };
                           });
}

}  // namespace kernels
}  // namespace tri
