// The values of a compiled XNNPACK graph. Each carries a tri::Tensor (its
// current shape and, during execute, its data), so the delegate's nodes can
// run the shared kernel library on it, plus what XNNPACK adds: the element
// type with its quantization, and where the bytes live.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/core/tensor.h"

namespace tri::xnnpack {

// XNNPACK's rank limit (XNN_MAX_TENSOR_DIMS).
constexpr int kMaxDims = 6;
constexpr uint32_t kInvalidId = 0xFFFFFFFFu;

// The element types a float32 or int8 graph uses (XNNDatatype numbers).
enum class DType : uint8_t {
  Invalid = 0,
  F32 = 1,
  F16 = 2,
  QInt8 = 3,    // int8, one (scale, zero point)
  QUInt8 = 4,   // uint8, one (scale, zero point)
  QInt32 = 5,   // int32, one (scale, zero point): biases
  QCInt8 = 6,   // int8, a scale per channel, zero point 0: weights
  QCInt32 = 7,  // int32, a scale per channel: biases
  QCInt4 = 8,   // 4-bit in nibbles (q + 8, low nibble first), a scale per channel
  QDInt8 = 9,   // int8 quantized per row at run time (scale, zero point per row)
  QBInt4 = 10,  // 4-bit, a bf16 scale per block of input channels
};

const char* dtype_name(DType dtype);
// The ExecuTorch dtype of a delegate argument holding this type.
ScalarType scalar_type_of(DType dtype);
bool is_quantized(DType dtype);

struct Quant {
  // Per tensor (QInt8, QUInt8, QInt32).
  float scale = 1.0f;
  int32_t zero_point = 0;
  // Per channel (QCInt8, QCInt32, QCInt4): `num_scales` scales along
  // `channel_dim`. Per block (QBInt4): bf16 scales, [channels][blocks].
  const float* scales = nullptr;
  const uint16_t* bf16_scales = nullptr;
  uint32_t num_scales = 0;
  int32_t channel_dim = 0;
  int32_t block_size = 0;
  // QDInt8: the trailing dims that form one row.
  int32_t num_nonbatch_dims = 0;
};

enum class ValueKind : uint8_t {
  Internal,        // lives in the activation arena
  Constant,        // points into the payload or the program's named data
  ExternalInput,   // a delegate argument
  ExternalOutput,  // a delegate argument, written here
};

struct Value {
  DType dtype = DType::Invalid;
  ValueKind kind = ValueKind::Internal;
  uint32_t id = 0;
  // Position in the delegate call's arguments (external values).
  uint32_t external_id = kInvalidId;
  // The dims the payload declares: exact for static graphs, the upper
  // bound where inputs are dynamic.
  uint8_t declared_rank = 0;
  int32_t declared_dims[kMaxDims] = {};
  Quant quant;
  // Constant bytes (Constant values).
  const uint8_t* constant = nullptr;
  size_t constant_bytes = 0;
  // True when `constant` is init's own copy (a constant read at run), false
  // while it points into the blob or named data (null once forgotten).
  bool constant_owned = false;
  // The named-data key it was read by ("" for data in the payload), for
  // inspection; init copies it into the runtime's memory.
  const char* constant_key = "";
  // Activation arena placement (Internal values) and the bytes reserved.
  uint64_t arena_offset = 0;
  size_t capacity = 0;
  // Node index that writes it (-1: none) and the last that reads it.
  int32_t producer = -1;
  int32_t last_use = -1;
  // Current shape and data. QDInt8 values keep their per-row parameters
  // (float scale, int32 zero point) right after the data.
  Tensor tensor;

  int32_t rank() const { return tensor.dim(); }
  int32_t dim(int32_t d) const { return tensor.size(d); }
  size_t numel() const { return tensor.numel(); }
  void* data() const { return tensor.mutable_data(); }
  template <typename T>
  T* data_as() const {
    return static_cast<T*>(tensor.mutable_data());
  }
};

// Bytes of `numel` elements stored as `dtype` with a last dim of
// `last_dim` (4-bit types pack each row of the last dim in whole bytes).
size_t storage_bytes(DType dtype, size_t numel, int32_t last_dim);

// Where a QDInt8 value's per-row parameters start, after `data_bytes`.
inline size_t qd8_params_offset(size_t data_bytes) { return (data_bytes + 15) / 16 * 16; }

// Rows and row length of a QDInt8 value of this shape.
void qd8_rows(const Value& v, size_t* rows, size_t* row_size);

}  // namespace tri::xnnpack
