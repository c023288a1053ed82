// Result<T>: a value or an Error, for functions that produce something and can
// fail. Like ExecuTorch's, it never throws and never allocates.
#pragma once

#include <new>
#include <type_traits>
#include <utility>

#include "cpp/runtime/core/error.h"

namespace tri {

template <typename T>
class TRI_NODISCARD Result {
 public:
  // NOLINTNEXTLINE(google-explicit-constructor): lets `return value;` work.
  Result(const T& value) : error_(Error::Ok) { new (&storage_) T(value); }
  // NOLINTNEXTLINE(google-explicit-constructor)
  Result(T&& value) : error_(Error::Ok) { new (&storage_) T(std::move(value)); }
  // NOLINTNEXTLINE(google-explicit-constructor): lets `return Error::X;` work.
  Result(Error error) : error_(error == Error::Ok ? Error::Internal : error) {}

  Result(Result&& other) noexcept : error_(other.error_) {
    if (ok()) {
      new (&storage_) T(std::move(other.value()));
    }
  }
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  Result& operator=(Result&& other) noexcept {
    if (this != &other) {
      this->~Result();
      new (this) Result(std::move(other));
    }
    return *this;
  }

  ~Result() {
    if (ok()) {
      value().~T();
    }
  }

  bool ok() const { return error_ == Error::Ok; }
  Error error() const { return error_; }

  // Only valid when ok().
  T& get() { return value(); }
  const T& get() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  T take() { return std::move(value()); }

 private:
  T& value() { return *std::launder(reinterpret_cast<T*>(&storage_)); }
  const T& value() const {
    return *std::launder(reinterpret_cast<const T*>(&storage_));
  }

  typename std::aligned_storage<sizeof(T), alignof(T)>::type storage_;
  Error error_;
};

}  // namespace tri
