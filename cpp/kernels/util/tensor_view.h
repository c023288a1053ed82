// TensorView: data, dtype, sizes and strides (in elements, 64-bit) of a
// tensor or of a view of one. View ops (permute, slice, select, expand) are
// a TensorView computed from the input, then copied into the out tensor.
#pragma once

#include <cstdint>

#include "cpp/runtime/core/scalar_type.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

struct TensorView {
  void* data = nullptr;
  ScalarType type = ScalarType::Float;
  int32_t dim = 0;
  int64_t sizes[kTensorDimLimit] = {};
  int64_t strides[kTensorDimLimit] = {};

  static TensorView of(const Tensor& t);
  // A rank-0 view of one value (a Scalar argument converted to `type`).
  static TensorView scalar(const void* value, ScalarType type);

  int64_t numel() const;
  size_t element_size() const { return tri::element_size(type); }
  // True when the strides are the row-major strides of the sizes.
  bool is_row_major() const;
  // Drops dim `d` (select) / inserts a size-1 dim at `d`.
  void remove_dim(int32_t d);
  void insert_dim(int32_t d, int64_t size, int64_t stride);
};

// Row-major strides of `sizes` into `strides`.
void row_major_strides(const int64_t* sizes, int32_t dim, int64_t* strides);

}  // namespace tri
