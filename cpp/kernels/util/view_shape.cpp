#include "cpp/kernels/util/view_shape.h"

#include <cinttypes>
#include <cstdio>

namespace tri {
namespace {

const char* format_list(Span<const int64_t> v, char* buf, size_t cap) {
  size_t used = 0;
  used += static_cast<size_t>(snprintf(buf, cap, "["));
  for (size_t i = 0; i < v.size() && used < cap; ++i) {
    used += static_cast<size_t>(
        snprintf(buf + used, cap - used, "%s%" PRId64, i ? ", " : "", v[i]));
  }
  if (used < cap) snprintf(buf + used, cap - used, "]");
  return buf;
}

}  // namespace

Error infer_view_shape(Span<const int64_t> size, int64_t numel, int64_t* shape) {
  char text[160];
  TRI_CHECK(size.size() <= kTensorDimLimit, Error::NotSupported,
            "shape has %zu dims, the limit is %zu", size.size(), kTensorDimLimit);
  int64_t known = 1;
  int32_t infer = -1;
  for (size_t i = 0; i < size.size(); ++i) {
    if (size[i] == -1) {
      TRI_CHECK(infer < 0, Error::InvalidArgument, "only one dimension can be inferred");
      infer = static_cast<int32_t>(i);
      continue;
    }
    TRI_CHECK(size[i] >= 0, Error::InvalidArgument, "invalid shape dimension %" PRId64,
              size[i]);
    // Sizes come from the program: a product past int64 is refused, not
    // wrapped.
    TRI_CHECK(size[i] == 0 || known <= INT64_MAX / size[i], Error::InvalidArgument,
              "shape %s has more elements than fit in 64 bits",
              format_list(size, text, sizeof(text)));
    known *= size[i];
    shape[i] = size[i];
  }
  if (infer >= 0) {
    TRI_CHECK(known != 0 && numel % known == 0, Error::InvalidArgument,
              "shape %s is invalid for input of size %" PRId64,
              format_list(size, text, sizeof(text)), numel);
    shape[infer] = numel / known;
    known *= shape[infer];
  }
  TRI_CHECK(known == numel, Error::InvalidArgument,
            "shape %s is invalid for input of size %" PRId64,
            format_list(size, text, sizeof(text)), numel);
  return Error::Ok;
}

}  // namespace tri
