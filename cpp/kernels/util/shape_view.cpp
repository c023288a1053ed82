#include "cpp/kernels/util/shape_view.h"

#include "cpp/kernels/util/resize.h"

namespace tri {

TensorView narrow_view(TensorView v, int32_t d, int64_t start, int64_t length) {
  v.data = static_cast<char*>(v.data) +
           start * v.strides[d] * static_cast<int64_t>(v.element_size());
  v.sizes[d] = length;
  return v;
}

Error resize_like_view(const TensorView& view, Tensor& out, const char* what) {
  return resize_out(out, Span<const int64_t>(view.sizes, static_cast<size_t>(view.dim)), what);
}

int64_t clamp_slice(int64_t size, bool has_start, int64_t start, bool has_end, int64_t end,
                    int64_t step, int64_t* start_out) {
  int64_t s = has_start ? start : 0;
  int64_t e = has_end ? end : size;
  if (s < 0) s += size;
  if (e < 0) e += size;
  s = s < 0 ? 0 : (s > size ? size : s);
  e = e < s ? s : (e > size ? size : e);
  *start_out = s;
  return e == s ? 0 : (e - s - 1) / step + 1;  // no overflow for a huge step
}

}  // namespace tri
