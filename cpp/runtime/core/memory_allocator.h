// Allocators over memory the caller hands in. The runtime never calls malloc
// or new on the load or run path; everything it needs comes from here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

// Alignment of every block handed out unless asked otherwise: enough for any
// scalar and for 128-bit SIMD loads.
constexpr size_t kDefaultAlignment = 16;

// A bump allocator over one caller-provided buffer. Blocks are released all at
// once by reset().
class MemoryAllocator {
 public:
  MemoryAllocator() = default;
  MemoryAllocator(void* base, size_t size)
      : base_(static_cast<uint8_t*>(base)), size_(size) {}

  // nullptr when the buffer is exhausted or `alignment` is not a power of 2.
  void* allocate(size_t size, size_t alignment = kDefaultAlignment);

  // Space for `count` objects of T, or nullptr; the multiplication is
  // overflow-checked. Types with a default constructor that does something
  // are constructed; trivial ones (pointers, numbers, scratch) are left as
  // they are, so scratch costs no fill.
  template <typename T>
  T* allocate_array(size_t count) {
    if (count != 0 && sizeof(T) > SIZE_MAX / count) {
      return nullptr;
    }
    const size_t align = alignof(T) > kDefaultAlignment ? alignof(T)
                                                        : kDefaultAlignment;
    void* p = allocate(sizeof(T) * (count == 0 ? 1 : count), align);
    if (p == nullptr) {
      return nullptr;
    }
    T* items = static_cast<T*>(p);
    if (!std::is_trivially_default_constructible<T>::value) {
      for (size_t i = 0; i < count; ++i) {
        new (&items[i]) T();
      }
    }
    return items;
  }

  size_t used() const { return used_; }
  size_t capacity() const { return size_; }
  // The most ever in use at once, resets included: what a trial run took.
  size_t peak() const { return peak_; }
  // Whether a request failed for lack of room since the last reset(), so a
  // caller sizing by trial (method_builder.h) can tell "too small" from
  // other failures.
  bool exhausted() const { return exhausted_; }
  void reset() {
    used_ = 0;
    exhausted_ = false;
  }

 private:
  uint8_t* base_ = nullptr;
  size_t size_ = 0;
  size_t used_ = 0;
  size_t peak_ = 0;
  bool exhausted_ = false;
};

// The buffers of a memory plan. Planned tensors name a buffer by memory_id
// and an offset into it; ExecuTorch reserves id 0, so buffer i here serves
// memory_id i + 1.
class PlannedMemory {
 public:
  PlannedMemory() = default;
  explicit PlannedMemory(Span<Span<uint8_t>> buffers) : buffers_(buffers) {}

  size_t num_buffers() const { return buffers_.size(); }

  // The address of [offset, offset + size) in buffer `memory_id`, checked to
  // lie inside it.
  Result<void*> address(uint32_t memory_id, uint64_t offset,
                        size_t size) const;

  // True when p lies inside one of the buffers.
  bool contains(const void* p) const;
  // True when [p, p + bytes) lies inside one buffer.
  bool contains(const void* p, size_t bytes) const;

 private:
  Span<Span<uint8_t>> buffers_;
};

// What a caller provides to load and run a method:
// - `method`: long-lived bookkeeping (value table, tensors, instruction args);
// - `planned`: the buffers of the memory plan (activations, planned inputs);
// - `temp`: scratch that kernels and delegates may use within one instruction.
struct MemoryManager {
  MemoryAllocator* method = nullptr;
  PlannedMemory* planned = nullptr;
  MemoryAllocator* temp = nullptr;
  // Per-shape planning (method.h, LazyTensor): places the tensors a front
  // end leaves to the run, at the sizes each run gives them. Null: every
  // planned tensor lives in `planned`.
  TensorBinder* binder = nullptr;
};

}  // namespace tri
