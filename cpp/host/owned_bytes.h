// Host-side ownership of file bytes and planned buffers. The host layer (the
// bindings, native tools, tests) may use the standard library; the runtime
// below it only ever sees spans.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace tri::host {

// Bytes whose release is up to whoever allocated them: the wasm bindings get
// blocks that JS obtained with _malloc, native code passes a std::free'able
// copy.
class OwnedBytes {
 public:
  using Release = void (*)(uint8_t*);
  // Frees the block's bytes past `size` without moving the block; false when
  // it cannot.
  using ShrinkInPlace = bool (*)(uint8_t* data, size_t size);
  OwnedBytes() = default;
  OwnedBytes(uint8_t* data, size_t size, Release release, ShrinkInPlace shrink = nullptr)
      : data_(data, release ? release : &noop), size_(size), shrink_(shrink) {}
  // A malloc'd copy. It cannot shrink: glibc's realloc may move a block.
  static OwnedBytes copy_of(const uint8_t* data, size_t size);

  const uint8_t* data() const { return data_.get(); }
  size_t size() const { return size_; }
  // Keeps the first `size` bytes and frees the rest, where the owner can;
  // pointers into the kept part stay valid.
  bool shrink(size_t size);

 private:
  static void noop(uint8_t*) {}
  std::unique_ptr<uint8_t, Release> data_{nullptr, &noop};
  size_t size_ = 0;
  ShrinkInPlace shrink_ = nullptr;
};

// A zero-filled buffer aligned for any tensor element and SIMD access (malloc
// on wasm32 only guarantees 8 bytes).
class AlignedBuffer {
 public:
  static constexpr size_t kAlignment = 64;
  AlignedBuffer() = default;
  // False when the memory cannot be had (the host reports it; it must never
  // abort the wasm instance).
  bool allocate(size_t size);
  uint8_t* data() const { return aligned_; }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t, Free> storage_;
  uint8_t* aligned_ = nullptr;
  size_t size_ = 0;
};

}  // namespace tri::host
