#include "cpp/host/row_major.h"

#include <cstring>
#include <vector>

namespace tri::host {
namespace {

// Calls fn(storage_offset_in_elements) for each element in row-major order.
template <typename Fn>
void for_each_row_major(const Tensor& t, const Fn& fn) {
  const int32_t dims = t.dim();
  std::vector<int32_t> index(static_cast<size_t>(dims), 0);
  for (size_t i = 0; i < t.numel(); ++i) {
    size_t offset = 0;
    for (int32_t d = 0; d < dims; ++d) {
      offset += static_cast<size_t>(index[d]) * static_cast<size_t>(t.strides()[d]);
    }
    fn(i, offset);
    for (int32_t d = dims - 1; d >= 0; --d) {
      if (++index[d] < t.size(d)) break;
      index[d] = 0;
    }
  }
}

}  // namespace

void copy_to_row_major(const Tensor& t, uint8_t* dst) {
  const size_t elem = t.element_size();
  if (t.is_contiguous()) {
    std::memcpy(dst, t.data(), t.nbytes());
    return;
  }
  const uint8_t* src = static_cast<const uint8_t*>(t.data());
  for_each_row_major(t, [&](size_t i, size_t offset) {
    std::memcpy(dst + i * elem, src + offset * elem, elem);
  });
}

void copy_from_row_major(const uint8_t* src, Tensor& t) {
  const size_t elem = t.element_size();
  uint8_t* dst = static_cast<uint8_t*>(t.mutable_data());
  if (t.is_contiguous()) {
    std::memcpy(dst, src, t.nbytes());
    return;
  }
  for_each_row_major(t, [&](size_t i, size_t offset) {
    std::memcpy(dst + offset * elem, src + i * elem, elem);
  });
}

}  // namespace tri::host
