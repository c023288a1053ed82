#include "cpp/kernels/util/dims.h"

#include <cinttypes>

namespace tri {

Error normalize_dim(int64_t dim, int32_t rank, int32_t* out) {
  const int64_t n = rank > 0 ? rank : 1;
  TRI_CHECK(dim >= -n && dim < n, Error::InvalidArgument,
            "Dimension out of range (expected to be in range of [%" PRId64
            ", %" PRId64 "], but got %" PRId64 ")",
            -n, n - 1, dim);
  *out = static_cast<int32_t>(dim < 0 ? dim + n : dim);
  return Error::Ok;
}

Error dim_list_mask(Span<const int64_t> dims, int32_t rank,
                    bool mask[kTensorDimLimit]) {
  for (size_t i = 0; i < kTensorDimLimit; ++i) {
    mask[i] = false;
  }
  for (int64_t dim : dims) {
    int32_t d = 0;
    TRI_TRY(normalize_dim(dim, rank, &d));
    TRI_CHECK(!mask[d], Error::InvalidArgument,
              "dim %" PRId32 " appears multiple times in the list of dims", d);
    mask[d] = true;
  }
  return Error::Ok;
}

}  // namespace tri
