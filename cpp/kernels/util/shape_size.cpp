#include "cpp/kernels/util/shape_size.h"

#include <cinttypes>
#include <cstdio>

#include "cpp/kernels/util/resize.h"

namespace tri {

Error resize_to_size_arg(Span<const int64_t> size, Tensor& out) {
  TRI_CHECK(size.size() <= kTensorDimLimit, Error::NotSupported,
            "size: rank %zu exceeds the limit of %zu", size.size(), kTensorDimLimit);
  for (size_t i = 0; i < size.size(); ++i) {
    if (size[i] < 0) {
      char text[256];
      size_t used = 0;
      for (size_t k = 0; k < size.size() && used + 24 < sizeof(text); ++k) {
        used += static_cast<size_t>(std::snprintf(text + used, sizeof(text) - used, "%s%" PRId64,
                                                  k ? ", " : "", size[k]));
      }
      return fail(Error::InvalidArgument,
                  "Trying to create tensor with negative dimension %" PRId64 ": [%s]", size[i],
                  text);
    }
  }
  return resize_out(out, size);
}

}  // namespace tri
