// aten::sort.values and sort.values_stable along `dim`: ascending with NaN
// last, or descending with NaN first; always stable (so `stable` changes
// nothing). values have self's dtype, indices are Long.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/sort_row.h"

namespace tri {
namespace kernels {
namespace {

// `first`: the index of dim (the stable overload has `stable` before it).
Error sort_impl(KernelContext& ctx, KernelArgs& args, size_t first) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  if (first == 2) {
    TRI_ASSIGN_OR_RETURN(const Optional<bool> stable, args.optional_bool(1));
    (void)stable;
  }
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(first));
  TRI_ASSIGN_OR_RETURN(const bool descending, args.bool_value(first + 1));
  TRI_ASSIGN_OR_RETURN(Tensor* values, args.tensor(first + 2));
  TRI_ASSIGN_OR_RETURN(Tensor* indices, args.tensor(first + 3));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBBoolTypes, "self"));
  TRI_TRY(check_same_dtype(*values, self->scalar_type(), "values"));
  TRI_TRY(check_same_dtype(*indices, ScalarType::Long, "indices"));
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, self->dim(), &d));
  TRI_TRY(resize_out(*values, self->sizes(), "values"));
  TRI_TRY(resize_out(*indices, self->sizes(), "indices"));
  const int64_t n = self->dim() == 0 ? 1 : self->size(d);
  return sort_rows_into(ctx.temp, *self, d, n, descending, *values, *indices, "sort");
}

}  // namespace

Error sort_values_out(KernelContext& ctx, KernelArgs& args) { return sort_impl(ctx, args, 1); }
Error sort_values_stable_out(KernelContext& ctx, KernelArgs& args) {
  return sort_impl(ctx, args, 2);
}

size_t sort_values_scratch(KernelArgs& args) {
  Result<Tensor*> self = args.tensor(0);
  Result<int64_t> dim = args.int_value(1);
  return self.ok() && dim.ok() ? sort_rows_scratch(**self, *dim) : 0;
}

size_t sort_values_stable_scratch(KernelArgs& args) {
  Result<Tensor*> self = args.tensor(0);
  Result<int64_t> dim = args.int_value(2);
  return self.ok() && dim.ok() ? sort_rows_scratch(**self, *dim) : 0;
}

}  // namespace kernels
}  // namespace tri
