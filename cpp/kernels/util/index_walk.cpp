#include "cpp/kernels/util/index_walk.h"

#include <cinttypes>

#include "cpp/kernels/util/nd_iter.h"

namespace tri {

TensorView at_least_1d(TensorView v) {
  if (v.dim == 0) {
    v.dim = 1;
    v.sizes[0] = 1;
    v.strides[0] = 1;
  }
  return v;
}

int64_t read_index(const TensorView& index, int64_t offset) {
  if (index.type == ScalarType::Int) {
    return static_cast<const int32_t*>(index.data)[offset];
  }
  return static_cast<const int64_t*>(index.data)[offset];
}

Error check_index_values(const TensorView& index, int64_t size, int32_t dim,
                         bool allow_negative) {
  const TensorView* ops[] = {&index};
  const NdIter it(index.sizes, index.dim, ops, 1);
  int64_t bad = 0;
  bool ok = true;
  const int64_t lo = allow_negative ? -size : 0;
  const bool is_int = index.type == ScalarType::Int;
  it.for_each_row([&](char* const* p, const int64_t* s, int64_t n) {
    for (int64_t i = 0; i < n && ok; ++i) {
      const char* e = p[0] + i * s[0];
      const int64_t v = is_int ? *reinterpret_cast<const int32_t*>(e)
                               : *reinterpret_cast<const int64_t*>(e);
      if (v < lo || v >= size) {
        ok = false;
        bad = v;
      }
    }
  });
  TRI_CHECK(ok, Error::InvalidArgument,
            "index %" PRId64 " is out of bounds for dimension %d with size %" PRId64, bad, dim,
            size);
  return Error::Ok;
}

}  // namespace tri
