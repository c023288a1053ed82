// NumPy broadcasting of two operands, reduced to rows: the output's dims
// with runs of dims merged where both operands allow it, so that the
// innermost row is as long as possible and each operand either advances
// along it or repeats one value.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/delegates/xnnpack/xnn_value.h"
#include "cpp/runtime/core/result.h"

namespace tri::xnnpack {

// The output shape of broadcasting a and b; fails naming the clashing dim.
Error broadcast_shape(const Value& a, const Value& b, int32_t* dims, int* rank);

class BroadcastRows {
 public:
  BroadcastRows(const Value& a, const Value& b, const Value& out);
  size_t rows() const { return rows_; }
  size_t row_length() const { return row_; }
  // Element strides along the row (0 or 1).
  size_t a_step() const { return sa_; }
  size_t b_step() const { return sb_; }
  // Element offsets of row r's start in a and b (the output's is r * row).
  void offsets(size_t r, size_t* a, size_t* b) const;

 private:
  int rank_ = 0;
  int64_t size_[kMaxDims] = {};
  int64_t a_stride_[kMaxDims] = {};
  int64_t b_stride_[kMaxDims] = {};
  size_t rows_ = 1;
  size_t row_ = 1;
  size_t sa_ = 1;
  size_t sb_ = 1;
};

}  // namespace tri::xnnpack
