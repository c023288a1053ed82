// aten::index_select.out: out = self with dim `dim` gathered at `index`
// (a vector of Long or Int; negative entries are not allowed, as in ATen).
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/index_walk.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error index_select_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(Tensor* index, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_TRY(check_dtype(self->scalar_type(), kAllTypes, "self"));
  TRI_TRY(check_dtype(index->scalar_type(), kIndexTypes, "index"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_CHECK(index->dim() <= 1, Error::InvalidArgument,
            "index must be a vector, got rank %d", index->dim());
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, self->dim(), &d));
  const TensorView s = at_least_1d(TensorView::of(*self));
  const TensorView idx = at_least_1d(TensorView::of(*index));
  TRI_CHECK(self->dim() > 0 || index->numel() == 1, Error::InvalidArgument,
            "index_select() on a 0-dim tensor needs exactly one index, got %zu",
            index->numel());
  TRI_TRY(check_index_values(idx, s.sizes[d], d, /*allow_negative=*/false));
  int64_t shape[kTensorDimLimit];
  for (int32_t k = 0; k < self->dim(); ++k) shape[k] = self->size(k);
  if (self->dim() > 0) shape[d] = static_cast<int64_t>(index->numel());
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, static_cast<size_t>(self->dim()))));
  // One slice copy per index entry.
  const TensorView o = at_least_1d(TensorView::of(*out));
  const int64_t es = static_cast<int64_t>(self->element_size());
  for (int64_t i = 0; i < idx.sizes[0]; ++i) {
    const int64_t v = read_index(idx, i * idx.strides[0]);
    TensorView from = s;
    from.data = static_cast<char*>(s.data) + v * s.strides[d] * es;
    from.remove_dim(d);
    TensorView to = o;
    to.data = static_cast<char*>(o.data) + i * o.strides[d] * es;
    to.remove_dim(d);
    copy_view(from, to);
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
