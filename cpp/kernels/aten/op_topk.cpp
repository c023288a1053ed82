// aten::topk.values: the k largest (or smallest) elements along `dim` and
// their indices, in sorted order (NaN counts as the largest). `sorted=False`
// leaves the order unspecified in ATen; the sorted order is one such order.
// Equal values come in index order.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/sort_row.h"

namespace tri {
namespace kernels {

Error topk_values_out(KernelContext& ctx, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t k, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(const bool largest, args.bool_value(3));
  TRI_ASSIGN_OR_RETURN(const bool sorted, args.bool_value(4));
  (void)sorted;
  TRI_ASSIGN_OR_RETURN(Tensor* values, args.tensor(5));
  TRI_ASSIGN_OR_RETURN(Tensor* indices, args.tensor(6));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBTypes, "self"));
  TRI_TRY(check_same_dtype(*values, self->scalar_type(), "values"));
  TRI_TRY(check_same_dtype(*indices, ScalarType::Long, "indices"));
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, self->dim(), &d));
  const int64_t n = self->dim() == 0 ? 1 : self->size(d);
  TRI_CHECK(k >= 0 && k <= n, Error::InvalidArgument,
            "selected index k out of range (k = %" PRId64 ", dim size %" PRId64 ")", k, n);
  int64_t shape[kTensorDimLimit];
  for (int32_t i = 0; i < self->dim(); ++i) shape[i] = i == d ? k : self->size(i);
  const Span<const int64_t> sizes(shape, static_cast<size_t>(self->dim()));
  TRI_TRY(resize_out(*values, sizes, "values"));
  TRI_TRY(resize_out(*indices, sizes, "indices"));
  return sort_rows_into(ctx.temp, *self, d, k, largest, *values, *indices, "topk");
}

size_t topk_scratch(KernelArgs& args) {
  Result<Tensor*> self = args.tensor(0);
  Result<int64_t> dim = args.int_value(2);
  return self.ok() && dim.ok() ? sort_rows_scratch(**self, *dim) : 0;
}

}  // namespace kernels
}  // namespace tri
