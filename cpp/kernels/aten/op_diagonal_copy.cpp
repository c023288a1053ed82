// aten::diagonal_copy.out: the diagonal of the (dim1, dim2) planes, shifted
// by `offset` (> 0 above the main diagonal), as a new last dim.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dims.h"

namespace tri {
namespace kernels {

Error diagonal_copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t offset, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(const int64_t dim1, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(const int64_t dim2, args.int_value(3));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(4));
  TRI_TRY(check_copy_dtypes(*self, *out));
  TRI_CHECK(self->dim() >= 2, Error::InvalidArgument,
            "diagonal() needs a tensor of rank >= 2, got rank %d", self->dim());
  int32_t d1 = 0;
  int32_t d2 = 0;
  TRI_TRY_CONTEXT(normalize_dim(dim1, self->dim(), &d1), "dim1");
  TRI_TRY_CONTEXT(normalize_dim(dim2, self->dim(), &d2), "dim2");
  TRI_CHECK(d1 != d2, Error::InvalidArgument, "diagonal dimensions cannot be identical %" PRId64
            ", %" PRId64, dim1, dim2);
  TensorView v = TensorView::of(*self);
  const int64_t s1 = v.sizes[d1];
  const int64_t s2 = v.sizes[d2];
  // No overflow: sizes are below 2^31, so these stay within int64.
  int64_t n = offset >= 0 ? (s1 < s2 - offset ? s1 : s2 - offset)
                          : (s1 + offset < s2 ? s1 + offset : s2);
  if (n < 0) n = 0;
  if (n > 0) {
    const int64_t start = offset >= 0 ? offset * v.strides[d2] : -offset * v.strides[d1];
    v.data = static_cast<char*>(v.data) + start * static_cast<int64_t>(v.element_size());
  }
  const int64_t stride = v.strides[d1] + v.strides[d2];
  v.remove_dim(d1 > d2 ? d1 : d2);
  v.remove_dim(d1 < d2 ? d1 : d2);
  v.insert_dim(v.dim, n, stride);
  return copy_into(v, *out);
}

}  // namespace kernels
}  // namespace tri
