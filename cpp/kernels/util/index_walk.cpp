#include "cpp/kernels/util/index_walk.h"

#include <cinttypes>

#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/nd_iter.h"
#include "cpp/kernels/util/resize.h"

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

Error check_gather_scatter(const Tensor& self, int64_t dim, const Tensor& index,
                           const Tensor* src, GatherScatterViews* v) {
  TRI_TRY(check_dtype(self.scalar_type(), kAllTypes, "self"));
  TRI_TRY(check_same_dtype(index, ScalarType::Long, "index"));
  if (src != nullptr) {
    TRI_TRY(check_same_dtype(*src, self.scalar_type(), "src (must match self)"));
  }
  TRI_TRY(normalize_dim(dim, self.dim(), &v->dim));
  v->self = at_least_1d(TensorView::of(self));
  v->index = at_least_1d(TensorView::of(index));
  const int32_t rank = v->self.dim;
  TRI_CHECK(v->index.dim == rank, Error::InvalidArgument,
            "index must have the same number of dimensions as self (%d vs %d)", v->index.dim,
            rank);
  if (src != nullptr) {
    v->src = at_least_1d(TensorView::of(*src));
    TRI_CHECK(v->src.dim == rank, Error::InvalidArgument,
              "src must have the same number of dimensions as self (%d vs %d)", v->src.dim,
              rank);
  }
  for (int32_t k = 0; k < rank; ++k) {
    const int64_t n = v->index.sizes[k];
    TRI_CHECK(k == v->dim || n <= v->self.sizes[k], Error::InvalidArgument,
              "index size %" PRId64 " exceeds self's size %" PRId64 " at dimension %d", n,
              v->self.sizes[k], k);
    TRI_CHECK(src == nullptr || n <= v->src.sizes[k], Error::InvalidArgument,
              "index size %" PRId64 " exceeds src's size %" PRId64 " at dimension %d", n,
              v->src.sizes[k], k);
  }
  return check_index_values(v->index, v->self.sizes[v->dim], v->dim, /*allow_negative=*/false);
}

}  // namespace tri
