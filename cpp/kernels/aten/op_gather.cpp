// aten::gather.out: out[p] = self[p with p[dim] = index[p]]; out has
// index's shape and self's dtype.
#include <cinttypes>
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/index_walk.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error gather_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(Tensor* index, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(const bool sparse_grad, args.bool_value(3));
  (void)sparse_grad;
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(4));
  TRI_TRY(check_dtype(self->scalar_type(), kAllTypes, "self"));
  TRI_TRY(check_same_dtype(*index, ScalarType::Long, "index"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, self->dim(), &d));
  const TensorView s = at_least_1d(TensorView::of(*self));
  const TensorView idx = at_least_1d(TensorView::of(*index));
  TRI_CHECK(idx.dim == s.dim, Error::InvalidArgument,
            "index must have the same number of dimensions as self (%d vs %d)", idx.dim, s.dim);
  for (int32_t k = 0; k < s.dim; ++k) {
    TRI_CHECK(k == d || idx.sizes[k] <= s.sizes[k], Error::InvalidArgument,
              "index size %" PRId64 " exceeds self's size %" PRId64 " at dimension %d",
              idx.sizes[k], s.sizes[k], k);
  }
  TRI_TRY(check_index_values(idx, s.sizes[d], d, /*allow_negative=*/false));
  TRI_TRY(resize_out(*out, index->sizes()));
  const TensorView o = at_least_1d(TensorView::of(*out));
  const TensorView* views[] = {&o, &s};
  const int64_t es = static_cast<int64_t>(self->element_size());
  char* dst = static_cast<char*>(o.data);
  const char* src = static_cast<const char*>(s.data);
  const int64_t dim_stride = s.strides[d];
  for_each_index(idx, d, views, 2, /*skip_dim_mask=*/0x2u, [&](int64_t v, const int64_t* off) {
    std::memcpy(dst + off[0] * es, src + (off[1] + v * dim_stride) * es, static_cast<size_t>(es));
  });
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
