// aten::glu.out(self, dim): the first half of self along dim times the
// sigmoid of the second half. Floating only; the result casts into any
// floating out (as in ATen).
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error glu_out(KernelContext&, KernelArgs& args) {
  Tensor* self = nullptr;
  Tensor* out = nullptr;
  TRI_TRY(read_unary(args, 2, &self, &out));
  TRI_ASSIGN_OR_RETURN(const int64_t dim_arg, args.int_value(1));
  TRI_TRY(check_dtype(self->scalar_type(), kFloatHBTypes, "self"));
  TRI_TRY(check_dtype(out->scalar_type(), kFloatHBTypes, "out"));
  TRI_TRY(check_can_cast(self->scalar_type(), out->scalar_type()));
  TRI_CHECK(self->dim() > 0, Error::InvalidArgument,
            "self: glu does not support 0-dimensional tensors");
  int32_t dim = 0;
  TRI_TRY(normalize_dim(dim_arg, self->dim(), &dim));
  const SizesType n = self->size(dim);
  TRI_CHECK(n % 2 == 0, Error::InvalidArgument,
            "self: halving dimension must be even, but dimension %d is size %d", dim, n);
  SizesType sizes[kTensorDimLimit];
  for (int32_t d = 0; d < self->dim(); ++d) sizes[d] = self->size(d);
  sizes[dim] = n / 2;
  TRI_TRY(resize_out(*out, Span<const SizesType>(sizes, self->dim())));
  TensorView a = TensorView::of(*self);
  a.sizes[dim] = n / 2;
  TensorView b = a;
  // An empty self may have no data; no offset from a null pointer.
  if (self->numel() > 0) {
    b.data = static_cast<char*>(a.data) +
             (n / 2) * a.strides[dim] * static_cast<int64_t>(a.element_size());
  }
  return map2<kComputeFloating>(self->scalar_type(), a, b, TensorView::of(*out), [](auto tag) {
    using C = typename decltype(tag)::type;
    return [](C x, C y) -> C { return x * (C(1) / (C(1) + std::exp(-y))); };
  });
}

}  // namespace kernels
}  // namespace tri
