// HostBuffer (`!ht.host_buffer`): bytes from the host heap, reference
// counted, like TFRT's HostBuffer. A slice views part of its parent's bytes
// and holds a reference to the parent, so the bytes live as long as any view.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/async/async_value.h"
#include "cpp/runtime/async/object_types.h"

namespace tri::tfrt_kernels {

class HostBuffer final : public async::Object {
 public:
  static constexpr uint16_t kTypeId = async::kHostBufferObject;
  // Files choose sizes; one buffer may not take more than this.
  static constexpr size_t kMaxBytes = size_t{1} << 30;
  static constexpr size_t kMaxAlignment = 4096;

  // `size` bytes aligned to `alignment` (a power of two, at most
  // kMaxAlignment; 16 at least). nullptr, with the reason in
  // last_error_message(), when refused or when the heap is full.
  static HostBuffer* allocate(async::HostContext& host, size_t size, size_t alignment);
  // Bytes [offset, offset + size) of `parent`, sharing them; the slice takes
  // its own reference to `parent`. nullptr (and a message) when out of range.
  static HostBuffer* slice(async::HostContext& host, HostBuffer* parent, size_t offset,
                           size_t size);
  ~HostBuffer() override;

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  HostBuffer(async::HostContext& host, uint8_t* data, size_t size, HostBuffer* parent)
      : Object(kTypeId), host_(host), data_(data), size_(size), parent_(parent) {}

  async::HostContext& host_;
  uint8_t* data_;
  size_t size_;
  HostBuffer* parent_;  // slices only
};

}  // namespace tri::tfrt_kernels
