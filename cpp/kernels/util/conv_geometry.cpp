#include "cpp/kernels/util/conv_geometry.h"

#include <cinttypes>

namespace tri {

Error read_window_param(KernelArgs& args, size_t i, const char* name, int32_t n,
                        const int64_t* fallback, int64_t min, int64_t* dst) {
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> v, args.int_list(i));
  int64_t* out = dst + (3 - n);
  if (v.empty() && fallback != nullptr) {
    for (int32_t j = 0; j < n; ++j) out[j] = fallback[3 - n + j];
    return Error::Ok;
  }
  TRI_CHECK(v.size() == 1 || v.size() == static_cast<size_t>(n), Error::InvalidArgument,
            "%s must have 1 or %d values, got %zu", name, n, v.size());
  for (int32_t j = 0; j < n; ++j) {
    const int64_t x = v.size() == 1 ? v[0] : v[j];
    TRI_CHECK(x >= min && x <= kMaxWindowParam, Error::InvalidArgument,
              "%s values must be in [%" PRId64 ", %" PRId64 "], got %" PRId64, name, min,
              kMaxWindowParam, x);
    out[j] = x;
  }
  return Error::Ok;
}

int64_t window_count(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  const int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  int64_t out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;
  // In ceil mode the last window must start inside the image or left padding.
  if (ceil && (out - 1) * stride >= in + pad) {
    --out;
  }
  return out;
}

}  // namespace tri
