#include "cpp/kernels/util/broadcast.h"

#include <cinttypes>

namespace tri {

Error broadcast_shapes(Span<const SizesType> a, Span<const SizesType> b,
                       SizesType* out, int32_t* out_dim) {
  const size_t n = a.size() > b.size() ? a.size() : b.size();
  for (size_t i = 0; i < n; ++i) {
    // i counts from the last dim.
    const SizesType sa = i < a.size() ? a[a.size() - 1 - i] : 1;
    const SizesType sb = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (sa != sb && sa != 1 && sb != 1) {
      char ta[128];
      char tb[128];
      return fail(Error::InvalidArgument,
                  "shapes %s and %s cannot be broadcast together (dim %zu: %" PRId32
                  " vs %" PRId32 ")",
                  format_sizes(a, ta, sizeof(ta)), format_sizes(b, tb, sizeof(tb)),
                  n - 1 - i, sa, sb);
    }
    out[n - 1 - i] = sa == 1 ? sb : sa;
  }
  *out_dim = static_cast<int32_t>(n);
  return Error::Ok;
}

Error broadcast_all(const Tensor* const* tensors, size_t count, SizesType* out,
                    int32_t* out_dim) {
  SizesType acc[kTensorDimLimit];
  int32_t acc_dim = 0;
  for (size_t i = 0; i < count; ++i) {
    if (tensors[i] == nullptr) {
      continue;
    }
    SizesType next[kTensorDimLimit];
    int32_t next_dim = 0;
    TRI_TRY(broadcast_shapes(Span<const SizesType>(acc, acc_dim),
                             tensors[i]->sizes(), next, &next_dim));
    for (int32_t d = 0; d < next_dim; ++d) {
      acc[d] = next[d];
    }
    acc_dim = next_dim;
  }
  for (int32_t d = 0; d < acc_dim; ++d) {
    out[d] = acc[d];
  }
  *out_dim = acc_dim;
  return Error::Ok;
}

bool broadcastable_to(Span<const SizesType> from, Span<const SizesType> to) {
  if (from.size() > to.size()) {
    return false;
  }
  for (size_t i = 0; i < from.size(); ++i) {
    const SizesType f = from[from.size() - 1 - i];
    const SizesType t = to[to.size() - 1 - i];
    if (f != t && f != 1) {
      return false;
    }
  }
  return true;
}

}  // namespace tri
