#include "cpp/kernels/tfrt/tensor/host_buffer.h"

#include <new>

namespace tri::tfrt_kernels {
namespace {

constexpr size_t kHeapAlignment = 16;  // what FreeListAllocator hands out

constexpr size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

}  // namespace

HostBuffer* HostBuffer::allocate(async::HostContext& host, size_t size, size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment > kMaxAlignment) {
    fail(Error::InvalidArgument,
         "Cannot allocate host buffer: alignment %zu is not a power of two up to %zu", alignment,
         kMaxAlignment);
    return nullptr;
  }
  if (size > kMaxBytes) {
    fail(Error::InvalidArgument,
         "Cannot allocate host buffer: %zu bytes is more than the limit of %zu", size, kMaxBytes);
    return nullptr;
  }
  if (alignment < kHeapAlignment) alignment = kHeapAlignment;
  // The object and its bytes are one heap block, so Object::drop_ref frees
  // both; larger alignments take slack to align the bytes within it.
  const size_t header = round_up(sizeof(HostBuffer), kHeapAlignment);
  const size_t slack = alignment - kHeapAlignment;
  void* block = host.allocate(header + slack + size);
  if (block == nullptr) {
    fail(Error::MemoryAllocationFailed, "Cannot allocate host buffer: out of memory (%zu bytes)",
         size);
    return nullptr;
  }
  const uintptr_t start = reinterpret_cast<uintptr_t>(block) + header;
  uint8_t* data = reinterpret_cast<uint8_t*>(round_up(start, alignment));
  return new (block) HostBuffer(host, data, size, nullptr);
}

HostBuffer* HostBuffer::slice(async::HostContext& host, HostBuffer* parent, size_t offset,
                              size_t size) {
  if (offset > parent->size_ || size > parent->size_ - offset) {
    fail(Error::InvalidArgument,
         "Invalid offset (%zu) and size (%zu) for a host buffer of %zu bytes", offset, size,
         parent->size_);
    return nullptr;
  }
  void* memory = host.allocate(sizeof(HostBuffer));
  if (memory == nullptr) {
    fail(Error::MemoryAllocationFailed, "Cannot allocate host buffer: out of memory");
    return nullptr;
  }
  parent->add_ref();
  return new (memory) HostBuffer(host, parent->data_ + offset, size, parent);
}

HostBuffer::~HostBuffer() {
  if (parent_ != nullptr) parent_->drop_ref(host_);
}

}  // namespace tri::tfrt_kernels
