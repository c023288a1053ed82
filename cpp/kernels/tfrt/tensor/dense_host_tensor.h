// DenseHostTensor (`!t.tensor`): a tri::Tensor for dtype and shape over the
// bytes of a HostBuffer it holds a reference to, like TFRT's DenseHostTensor
// (TensorMetadata + RCReference<HostBuffer>). Kernels compute on tensor()
// with the project's kernel library; the buffer only owns the bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/kernels/tfrt/tensor/host_buffer.h"
#include "cpp/kernels/tfrt/tensor/text_out.h"
#include "cpp/runtime/async/async_value.h"
#include "cpp/runtime/async/object_types.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/core/tensor.h"

namespace tri::tfrt_kernels {

class DenseHostTensor final : public async::Object {
 public:
  static constexpr uint16_t kTypeId = async::kDenseHostTensorObject;
  // A file can ask for any shape; a tensor may not take more bytes than this.
  static constexpr size_t kMaxBytes = size_t{1} << 30;

  // A zero-filled tensor in a new buffer. nullptr, with the reason in
  // last_error_message() ("Cannot allocate tensor: ..."), when the dims are
  // invalid, too large, or the heap is full.
  static DenseHostTensor* create(async::HostContext& host, ScalarType type,
                                 Span<const int64_t> dims);
  // A tensor over `buffer`, which must hold exactly the tensor's bytes at an
  // address aligned for its dtype; takes its own reference to `buffer`.
  // nullptr and a message otherwise.
  static DenseHostTensor* wrap(async::HostContext& host, ScalarType type, Span<const int64_t> dims,
                               HostBuffer* buffer);
  ~DenseHostTensor() override;

  Tensor& tensor() { return tensor_; }
  const Tensor& tensor() const { return tensor_; }
  ScalarType scalar_type() const { return tensor_.scalar_type(); }
  HostBuffer* buffer() const { return buffer_; }
  template <typename T>
  T* data() const {
    return static_cast<T*>(tensor_.mutable_data());
  }

  // TFRT's DenseHostTensor::Print: "DenseHostTensor dtype = i32, shape =
  // [3, 2], values = [1, -1, ...]" with at most 16 values.
  void print(TextOut& out) const;

 private:
  DenseHostTensor(async::HostContext& host, HostBuffer* buffer)
      : Object(kTypeId), host_(host), buffer_(buffer) {}

  async::HostContext& host_;
  HostBuffer* buffer_;
  Tensor tensor_;
};

// Checks dims for a tensor of `type` and converts them: rank within
// kTensorDimLimit, each dim in [0, INT32_MAX], at most kMaxBytes in all.
// Returns the byte size, or fails with a message naming the shape.
Error tensor_sizes(ScalarType type, Span<const int64_t> dims, SizesType* sizes, size_t* bytes);

}  // namespace tri::tfrt_kernels
