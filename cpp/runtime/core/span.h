// A non-owning view of a contiguous array (std::span is C++20; the runtime is
// C++17 so that Debian's clang-14 and Emscripten 3.1.6 agree on it).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tri {

template <typename T>
class Span {
 public:
  constexpr Span() = default;
  constexpr Span(T* data, size_t size) : data_(data), size_(size) {}
  template <size_t N>
  // NOLINTNEXTLINE(google-explicit-constructor)
  constexpr Span(T (&array)[N]) : data_(array), size_(N) {}
  // A Span<T> converts to a Span<const T>.
  template <typename U>
  // NOLINTNEXTLINE(google-explicit-constructor)
  constexpr Span(const Span<U>& other) : data_(other.data()), size_(other.size()) {}

  constexpr T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr T& operator[](size_t i) const { return data_[i]; }
  constexpr T* begin() const { return data_; }
  constexpr T* end() const { return data_ + size_; }
  constexpr Span subspan(size_t offset, size_t count) const {
    return Span(data_ + offset, count);
  }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

using ByteSpan = Span<const uint8_t>;

}  // namespace tri
