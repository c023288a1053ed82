// aten::transpose_copy.int_out (dims dim0 and dim1 swapped) and
// aten::t_copy.out (transpose of a tensor of rank <= 2).
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dims.h"

namespace tri {
namespace kernels {
namespace {

Error transpose_into(const Tensor& self, int32_t d0, int32_t d1, Tensor& out) {
  TensorView v = TensorView::of(self);
  if (self.dim() > 0) {
    const int64_t size = v.sizes[d0];
    const int64_t stride = v.strides[d0];
    v.sizes[d0] = v.sizes[d1];
    v.strides[d0] = v.strides[d1];
    v.sizes[d1] = size;
    v.strides[d1] = stride;
  }
  return copy_into(v, out);
}

}  // namespace

Error transpose_copy_int_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim0, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(const int64_t dim1, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_TRY(check_copy_dtypes(*self, *out));
  int32_t d0 = 0;
  int32_t d1 = 0;
  TRI_TRY_CONTEXT(normalize_dim(dim0, self->dim(), &d0), "dim0");
  TRI_TRY_CONTEXT(normalize_dim(dim1, self->dim(), &d1), "dim1");
  return transpose_into(*self, d0, d1, *out);
}

Error t_copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(1));
  TRI_TRY(check_copy_dtypes(*self, *out));
  TRI_CHECK(self->dim() <= 2, Error::InvalidArgument,
            "t() expects a tensor with <= 2 dimensions, but self is %dD", self->dim());
  return transpose_into(*self, 0, self->dim() == 2 ? 1 : 0, *out);
}

}  // namespace kernels
}  // namespace tri
