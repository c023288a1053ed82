// aten::select_scatter.out and aten::slice_scatter.out: out = copy of self
// with self.select(dim, index) (or self[start:end:step] along dim) replaced
// by src, which must have exactly that part's shape; src converts to self's
// dtype.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/shape_view.h"

namespace tri {
namespace kernels {
namespace {

Error check_common(const Tensor& self, const Tensor& src, const Tensor& out) {
  TRI_TRY(check_dtype(self.scalar_type(), kAllTypes, "self"));
  TRI_TRY(check_dtype(src.scalar_type(), kAllTypes, "src"));
  return check_same_dtype(out, self.scalar_type(), "out");
}

// Copies self into out (already resized), then src into `part`, a view of
// out.
Error scatter_part(const Tensor& self, const Tensor& src, const TensorView& part, Tensor& out) {
  const TensorView s = TensorView::of(src);
  bool same = s.dim == part.dim;
  for (int32_t d = 0; same && d < s.dim; ++d) same = s.sizes[d] == part.sizes[d];
  TRI_CHECK(same, Error::InvalidArgument,
            "expected src to have a size equal to the slice of self (src has rank %d, the slice "
            "rank %d; compare their sizes)", s.dim, part.dim);
  TRI_TRY(copy_into(TensorView::of(self), out));
  copy_view(s, part);
  return Error::Ok;
}

}  // namespace

Error select_scatter_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* src, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(int64_t index, args.int_value(3));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(4));
  TRI_TRY(check_common(*self, *src, *out));
  TRI_CHECK(self->dim() > 0, Error::InvalidArgument,
            "select() cannot be applied to a 0-dim tensor");
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, self->dim(), &d));
  const int64_t size = self->size(d);
  TRI_CHECK(index >= -size && index < size, Error::InvalidArgument,
            "select(): index %" PRId64 " out of range for tensor of size %" PRId64
            " at dimension %d", index, size, d);
  if (index < 0) index += size;
  TRI_TRY(resize_out(*out, self->sizes()));
  TensorView part = narrow_view(TensorView::of(*out), d, index, 1);
  part.remove_dim(d);
  return scatter_part(*self, *src, part, *out);
}

Error slice_scatter_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* src, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(const Optional<int64_t> start, args.optional_int(3));
  TRI_ASSIGN_OR_RETURN(const Optional<int64_t> end, args.optional_int(4));
  TRI_ASSIGN_OR_RETURN(const int64_t step, args.int_value(5));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(6));
  TRI_TRY(check_common(*self, *src, *out));
  TRI_CHECK(self->dim() > 0, Error::InvalidArgument,
            "slice() cannot be applied to a 0-dim tensor");
  TRI_CHECK(step > 0, Error::InvalidArgument, "slice step must be positive, got %" PRId64, step);
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, self->dim(), &d));
  int64_t first = 0;
  const int64_t n = clamp_slice(self->size(d), start.has_value, start.value, end.has_value,
                                end.value, step, &first);
  TRI_TRY(resize_out(*out, self->sizes()));
  TensorView part = narrow_view(TensorView::of(*out), d, first, n);
  if (n > 1) part.strides[d] *= step;  // n > 1 means step < size: no overflow
  return scatter_part(*self, *src, part, *out);
}

}  // namespace kernels
}  // namespace tri
