// aten::narrow_copy.out (self[start:start+length] along dim; a negative
// start counts from the end) and aten::unfold_copy.out (every window of
// `size` elements, `step` apart, along `dimension`, as a new last dim).
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/shape_view.h"

namespace tri {
namespace kernels {

Error narrow_copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(int64_t start, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(const int64_t length, args.int_value(3));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(4));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_TRY(check_copy_dtypes(*self, *out));
  TRI_CHECK(self->dim() > 0, Error::InvalidArgument,
            "narrow() cannot be applied to a 0-dim tensor");
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, self->dim(), &d));
  const int64_t size = self->size(d);
  if (start < 0) {
    TRI_CHECK(start >= -size, Error::InvalidArgument,
              "start %" PRId64 " is out of range for dimension %d of size %" PRId64, start, d,
              size);
    start += size;
  }
  TRI_CHECK(length >= 0 && start <= size - length, Error::InvalidArgument,
            "start (%" PRId64 ") + length (%" PRId64 ") exceeds dimension size (%" PRId64 ")",
            start, length, size);
  return copy_into(narrow_view(TensorView::of(*self), d, start, length), *out);
}

Error unfold_copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dimension, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(const int64_t size, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(const int64_t step, args.int_value(3));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(4));
  TRI_TRY(check_copy_dtypes(*self, *out));
  int32_t d = 0;
  TRI_TRY(normalize_dim(dimension, self->dim(), &d));
  TRI_CHECK(self->dim() < static_cast<int32_t>(kTensorDimLimit), Error::NotSupported,
            "unfold: the result would exceed the rank limit");
  TensorView v = TensorView::of(*self);
  const int64_t max_size = self->dim() == 0 ? 1 : v.sizes[d];
  const int64_t stride = self->dim() == 0 ? 1 : v.strides[d];
  TRI_CHECK(size >= 0, Error::InvalidArgument, "size is %" PRId64 " but must be >= 0", size);
  TRI_CHECK(size <= max_size, Error::InvalidArgument,
            "maximum size for tensor at dimension %d is %" PRId64 " but size is %" PRId64, d,
            max_size, size);
  TRI_CHECK(step > 0, Error::InvalidArgument, "step is %" PRId64 " but must be > 0", step);
  if (self->dim() > 0) {
    v.sizes[d] = (max_size - size) / step + 1;
    // With more than one window step < max_size, so the product fits.
    v.strides[d] = v.sizes[d] > 1 ? step * stride : stride;
  }
  v.insert_dim(v.dim, size, stride);
  return copy_into(v, *out);
}

}  // namespace kernels
}  // namespace tri
