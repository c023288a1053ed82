// aten::slice_copy.Tensor_out: self[start:end:step] along `dim`; start and
// end may be None or negative and are clamped to the dim, as in Python.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dims.h"

namespace tri {
namespace kernels {

Error slice_copy_tensor_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(const Optional<int64_t> start_arg, args.optional_int(2));
  TRI_ASSIGN_OR_RETURN(const Optional<int64_t> end_arg, args.optional_int(3));
  TRI_ASSIGN_OR_RETURN(const int64_t step, args.int_value(4));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(5));
  TRI_TRY(check_copy_dtypes(*self, *out));
  TRI_CHECK(self->dim() > 0, Error::InvalidArgument, "slice() cannot be applied to a 0-dim tensor");
  TRI_CHECK(step > 0, Error::InvalidArgument, "slice step must be positive, got %" PRId64, step);
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, self->dim(), &d));
  const int64_t size = self->size(d);
  int64_t start = start_arg.has_value ? start_arg.value : 0;
  int64_t end = end_arg.has_value ? end_arg.value : size;
  if (start < 0) start += size;
  if (end < 0) end += size;
  start = start < 0 ? 0 : (start > size ? size : start);
  end = end < start ? start : (end > size ? size : end);
  TensorView v = TensorView::of(*self);
  v.data = static_cast<char*>(v.data) +
           start * v.strides[d] * static_cast<int64_t>(v.element_size());
  v.sizes[d] = (end - start + step - 1) / step;
  v.strides[d] *= step;
  return copy_into(v, *out);
}

}  // namespace kernels
}  // namespace tri
