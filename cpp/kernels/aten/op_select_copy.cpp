// aten::select_copy.int_out: self[..., index, ...] at `dim` (the dim is
// removed; index may be negative).
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dims.h"

namespace tri {
namespace kernels {

Error select_copy_int_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(int64_t index, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_TRY(check_copy_dtypes(*self, *out));
  TRI_CHECK(self->dim() > 0, Error::InvalidArgument,
            "select() cannot be applied to a 0-dim tensor");
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, self->dim(), &d));
  const int64_t size = self->size(d);
  TRI_CHECK(index >= -size && index < size, Error::InvalidArgument,
            "select(): index %" PRId64 " out of range for tensor of size %" PRId64
            " at dimension %d",
            index, size, d);
  if (index < 0) index += size;
  TensorView v = TensorView::of(*self);
  v.data = static_cast<char*>(v.data) +
           index * v.strides[d] * static_cast<int64_t>(v.element_size());
  v.remove_dim(d);
  return copy_into(v, *out);
}

}  // namespace kernels
}  // namespace tri
