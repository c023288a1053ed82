#include "cpp/kernels/util/resize.h"

#include <cinttypes>

namespace tri {

Error resize_out(Tensor& out, Span<const SizesType> sizes, const char* what) {
  TRI_TRY_CONTEXT(out.resize(sizes), "%s", what);
  return Error::Ok;
}

Error resize_out(Tensor& out, Span<const int64_t> sizes, const char* what) {
  SizesType narrow[kTensorDimLimit];
  TRI_CHECK(sizes.size() <= kTensorDimLimit, Error::NotSupported,
            "%s: rank %zu exceeds the limit of %zu", what, sizes.size(),
            kTensorDimLimit);
  for (size_t i = 0; i < sizes.size(); ++i) {
    TRI_CHECK(sizes[i] >= 0 && sizes[i] <= INT32_MAX, Error::InvalidArgument,
              "%s: size %" PRId64 " at dim %zu is out of range", what, sizes[i], i);
    narrow[i] = static_cast<SizesType>(sizes[i]);
  }
  return resize_out(out, Span<const SizesType>(narrow, sizes.size()), what);
}

Error check_same_dtype(const Tensor& t, ScalarType expected, const char* what) {
  TRI_CHECK(t.scalar_type() == expected, Error::InvalidType,
            "%s: dtype %s, expected %s", what, scalar_type_name(t.scalar_type()),
            scalar_type_name(expected));
  return Error::Ok;
}

bool same_sizes(Span<const SizesType> a, Span<const SizesType> b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace tri
