#include "cpp/kernels/cortex_m/elementwise.h"

#include "cpp/kernels/util/resize.h"

namespace tri {
namespace cortex_m {

Error resize_broadcast(const Tensor& a, const Tensor& b, Tensor& out) {
  const int32_t rank = a.dim() > b.dim() ? a.dim() : b.dim();
  int64_t sizes[kTensorDimLimit];
  for (int32_t i = 0; i < rank; ++i) {
    const int32_t ia = i - (rank - a.dim());
    const int32_t ib = i - (rank - b.dim());
    const int64_t sa = ia < 0 ? 1 : a.size(ia);
    const int64_t sb = ib < 0 ? 1 : b.size(ib);
    TRI_CHECK(sa == sb || sa == 1 || sb == 1, Error::InvalidArgument,
              "the operands' shapes do not broadcast (dimension %d: %lld vs %lld)", i,
              static_cast<long long>(sa), static_cast<long long>(sb));
    sizes[i] = sa == 1 ? sb : sa;
  }
  return resize_out(out, Span<const int64_t>(sizes, static_cast<size_t>(rank)));
}

}  // namespace cortex_m
}  // namespace tri
