#include "cpp/kernels/tfrt/tensor/dense_host_tensor.h"

#include <cstring>
#include <new>

#include "cpp/kernels/tfrt/tensor/dtype.h"
#include "cpp/kernels/tfrt/tensor/tensor_shape.h"

namespace tri::tfrt_kernels {
namespace {

// TFRT's DenseHostTensor aligns its buffers for Eigen.
constexpr size_t kTensorBufferAlignment = 16;
// TFRT prints this many values, then ", ... ".
constexpr size_t kPrintThreshold = 16;

const char* shape_text(Span<const int64_t> dims, char* buffer, size_t capacity) {
  BufferOut out(buffer, capacity);
  write_dims(out, dims.data(), dims.size());
  return out.c_str();
}

}  // namespace

Error tensor_sizes(ScalarType type, Span<const int64_t> dims, SizesType* sizes, size_t* bytes) {
  char text[256];
  const size_t element = element_size(type);
  TRI_CHECK(element != 0, Error::InvalidType, "Cannot allocate tensor: unsupported dtype");
  TRI_CHECK(dims.size() <= kTensorDimLimit, Error::NotSupported,
            "Cannot allocate tensor: rank %zu exceeds the limit of %zu", dims.size(),
            kTensorDimLimit);
  uint64_t total = element;
  for (size_t i = 0; i < dims.size(); ++i) {
    TRI_CHECK(dims[i] >= 0 && dims[i] <= INT32_MAX, Error::InvalidArgument,
              "Cannot allocate tensor: invalid shape %s", shape_text(dims, text, sizeof(text)));
    sizes[i] = static_cast<SizesType>(dims[i]);
    // Zeros count as ones, so that [0, huge, huge] is refused as well (its
    // strides would not fit). No overflow: total <= 2^30 and d < 2^31.
    const uint64_t d = dims[i] == 0 ? 1 : static_cast<uint64_t>(dims[i]);
    total *= d;
    TRI_CHECK(total <= DenseHostTensor::kMaxBytes, Error::LimitExceeded,
              "Cannot allocate tensor: shape %s of %s needs more than %zu bytes",
              shape_text(dims, text, sizeof(text)), dtype_name(type), DenseHostTensor::kMaxBytes);
  }
  size_t numel = 0;
  TRI_CHECK(checked_numel(Span<const SizesType>(sizes, dims.size()), &numel) &&
                strides_fit(Span<const SizesType>(sizes, dims.size())),
            Error::LimitExceeded, "Cannot allocate tensor: shape %s is too large",
            shape_text(dims, text, sizeof(text)));
  *bytes = numel * element;
  return Error::Ok;
}

DenseHostTensor* DenseHostTensor::wrap(async::HostContext& host, ScalarType type,
                                       Span<const int64_t> dims, HostBuffer* buffer) {
  SizesType sizes[kTensorDimLimit];
  size_t bytes = 0;
  if (tensor_sizes(type, dims, sizes, &bytes) != Error::Ok) return nullptr;
  if (bytes != buffer->size()) {
    fail(Error::InvalidArgument, "a %zu-byte buffer cannot hold a tensor of %zu bytes",
         buffer->size(), bytes);
    return nullptr;
  }
  // Natural alignment: a complex number aligns like one of its parts.
  const bool complex = type == ScalarType::ComplexFloat || type == ScalarType::ComplexDouble;
  const size_t alignment = element_size(type) / (complex ? 2 : 1);
  if (reinterpret_cast<uintptr_t>(buffer->data()) % alignment != 0) {
    fail(Error::InvalidArgument, "the buffer is not aligned for %s elements", dtype_name(type));
    return nullptr;
  }
  void* memory = host.allocate(sizeof(DenseHostTensor));
  if (memory == nullptr) {
    fail(Error::MemoryAllocationFailed, "Cannot allocate tensor: out of memory");
    return nullptr;
  }
  buffer->add_ref();
  DenseHostTensor* tensor = new (memory) DenseHostTensor(host, buffer);
  // Cannot fail: tensor_sizes checked what init checks.
  (void)tensor->tensor_.init(type, Span<const SizesType>(sizes, dims.size()), {}, buffer->data(),
                             buffer->size(), ShapeDynamism::Static);
  return tensor;
}

DenseHostTensor* DenseHostTensor::create(async::HostContext& host, ScalarType type,
                                         Span<const int64_t> dims) {
  SizesType sizes[kTensorDimLimit];
  size_t bytes = 0;
  if (tensor_sizes(type, dims, sizes, &bytes) != Error::Ok) return nullptr;
  HostBuffer* buffer = HostBuffer::allocate(host, bytes, kTensorBufferAlignment);
  if (buffer == nullptr) {
    fail(Error::MemoryAllocationFailed, "Cannot allocate tensor: out of memory (%zu bytes)", bytes);
    return nullptr;
  }
  // Zeroed so that an "uninitialized" tensor never shows what the heap held
  // before (TFRT leaves it uninitialized).
  if (bytes != 0) std::memset(buffer->data(), 0, bytes);
  DenseHostTensor* tensor = wrap(host, type, dims, buffer);
  buffer->drop_ref(host);
  return tensor;
}

DenseHostTensor::~DenseHostTensor() { buffer_->drop_ref(host_); }

void DenseHostTensor::print(TextOut& out) const {
  out.write("DenseHostTensor dtype = ");
  out.write(dtype_name(tensor_.scalar_type()));
  out.write(", shape = ");
  write_dims(out, tensor_.sizes().data(), tensor_.sizes().size());
  out.write(", values = [");
  const size_t numel = tensor_.numel();
  const size_t shown = numel < kPrintThreshold ? numel : kPrintThreshold;
  const uint8_t* data = static_cast<const uint8_t*>(tensor_.data());
  const size_t element = tensor_.element_size();
  for (size_t i = 0; i < shown; ++i) {
    if (i != 0) out.write(", ");
    write_element(out, tensor_.scalar_type(), data + i * element);
  }
  if (numel > kPrintThreshold) out.write(", ... ");
  out.write("]");
}

}  // namespace tri::tfrt_kernels
