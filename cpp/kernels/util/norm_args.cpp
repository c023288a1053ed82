#include "cpp/kernels/util/norm_args.h"

#include <cinttypes>
#include <cmath>

#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"

namespace tri {

Error check_param(const Tensor* p, int64_t n, const char* what) {
  if (p == nullptr) return Error::Ok;
  TRI_TRY(check_dtype(p->scalar_type(), kFloatHBTypes, what));
  TRI_CHECK(static_cast<int64_t>(p->numel()) == n, Error::InvalidArgument,
            "%s should contain %" PRId64 " elements not %zu", what, n, p->numel());
  // Element i is read at i * (innermost stride): right for 1-D and row-major.
  TRI_CHECK(p->dim() <= 1 || TensorView::of(*p).is_row_major(), Error::NotSupported,
            "%s: a multi-dimensional parameter must be contiguous", what);
  return Error::Ok;
}

Error resize_stat(Tensor& t, Span<const int64_t> sizes, const char* what) {
  TRI_TRY(check_dtype(t.scalar_type(), kFloatHBTypes, what));
  return resize_out(t, sizes, what);
}

double param_at(const Tensor* p, int64_t i, double fallback) {
  if (p == nullptr) return fallback;
  const TensorView v = TensorView::of(*p);
  const int64_t step = v.dim == 0 || v.is_row_major() ? 1 : v.strides[v.dim - 1];
  const char* base = static_cast<const char*>(v.data);
  return load_one<double>(v.type, base + i * step * static_cast<int64_t>(v.element_size()));
}

double inv_std(double var, double eps) {
  if (var == 0.0 && eps == 0.0) return 0.0;
  return 1.0 / std::sqrt(var + eps);
}

}  // namespace tri
