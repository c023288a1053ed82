#include "cpp/kernels/util/group_norm_shape.h"

#include <cinttypes>

namespace tri {
namespace {

bool is_nc_star(const Tensor& t, int64_t n, int64_t c) {
  return t.dim() >= 2 && t.size(0) == n && t.size(1) == c;
}

}  // namespace

Error check_group_norm_shape(const Tensor& input, int64_t n, int64_t c, int64_t hxw,
                             int64_t group) {
  TRI_CHECK(n >= 0 && c >= 0 && hxw >= 0, Error::InvalidArgument,
            "N, C and HxW must not be negative, got %" PRId64 ", %" PRId64 ", %" PRId64, n, c, hxw);
  TRI_CHECK(group > 0, Error::InvalidArgument, "expected num groups to be greater than 0, got %" PRId64,
            group);
  TRI_CHECK(c % group == 0, Error::InvalidArgument,
            "expected number of channels %" PRId64 " to be divisible by num_groups %" PRId64, c, group);
  // Sizes are at most 2^31 each (SizesType), so the product is checked in
  // steps that cannot overflow.
  const uint64_t numel = input.numel();
  const bool count_ok = (n == 0 || c == 0 || hxw == 0)
                            ? numel == 0
                            : (static_cast<uint64_t>(n) <= numel / static_cast<uint64_t>(c) &&
                               static_cast<uint64_t>(n) * static_cast<uint64_t>(c) <=
                                   numel / static_cast<uint64_t>(hxw) &&
                               static_cast<uint64_t>(n) * static_cast<uint64_t>(c) *
                                       static_cast<uint64_t>(hxw) == numel);
  TRI_CHECK(count_ok, Error::InvalidArgument,
            "input of %zu elements is not N * C * HxW = %" PRId64 " * %" PRId64 " * %" PRId64,
            input.numel(), n, c, hxw);
  TRI_CHECK(is_nc_star(input, n, c) || TensorView::of(input).is_row_major(), Error::NotSupported,
            "input not of shape [N, C, *] must be contiguous");
  return Error::Ok;
}

TensorView group_norm_view(const Tensor& t, int64_t n, int64_t c, int64_t hxw) {
  TensorView v = TensorView::of(t);
  if (!is_nc_star(t, n, c)) {
    v.dim = 3;
    v.sizes[0] = n;
    v.sizes[1] = c;
    v.sizes[2] = hxw;
    row_major_strides(v.sizes, 3, v.strides);
  } else if (v.dim == 2) {
    v.dim = 3;
    v.sizes[2] = 1;
    v.strides[2] = 1;
  }
  return v;
}

}  // namespace tri
