#include "cpp/kernels/util/tensor_view.h"

namespace tri {

TensorView TensorView::of(const Tensor& t) {
  TensorView v;
  v.data = t.mutable_data();
  v.type = t.scalar_type();
  v.dim = t.dim();
  for (int32_t d = 0; d < t.dim(); ++d) {
    v.sizes[d] = t.size(d);
    v.strides[d] = t.strides()[d];
  }
  return v;
}

TensorView TensorView::scalar(const void* value, ScalarType type) {
  TensorView v;
  v.data = const_cast<void*>(value);
  v.type = type;
  v.dim = 0;
  return v;
}

int64_t TensorView::numel() const {
  int64_t n = 1;
  for (int32_t d = 0; d < dim; ++d) {
    n *= sizes[d];
  }
  return n;
}

bool TensorView::is_row_major() const {
  int64_t expected = 1;
  for (int32_t d = dim - 1; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != expected) {
      return false;
    }
    expected *= sizes[d];
  }
  return true;
}

void TensorView::remove_dim(int32_t d) {
  for (int32_t i = d; i + 1 < dim; ++i) {
    sizes[i] = sizes[i + 1];
    strides[i] = strides[i + 1];
  }
  --dim;
}

void TensorView::insert_dim(int32_t d, int64_t size, int64_t stride) {
  for (int32_t i = dim; i > d; --i) {
    sizes[i] = sizes[i - 1];
    strides[i] = strides[i - 1];
  }
  sizes[d] = size;
  strides[d] = stride;
  ++dim;
}

void row_major_strides(const int64_t* sizes, int32_t dim, int64_t* strides) {
  int64_t s = 1;
  for (int32_t d = dim - 1; d >= 0; --d) {
    strides[d] = s;
    s *= sizes[d] > 0 ? sizes[d] : 1;
  }
}

}  // namespace tri
