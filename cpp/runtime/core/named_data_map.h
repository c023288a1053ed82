// Read-only data looked up by string key: tensors of an external `.ptd` file,
// or the named segments a program offers its delegates.
#pragma once

#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"

namespace tri {

class NamedDataMap {
 public:
  // The bytes stored under `key` (not NUL-terminated), or NotFound.
  virtual Result<ByteSpan> get(Span<const char> key) const = 0;
  virtual size_t size() const = 0;
  virtual Result<Span<const char>> key_at(size_t index) const = 0;

 protected:
  // Not virtual: nothing is deleted through this interface (no operator
  // delete may be referenced by the runtime).
  ~NamedDataMap() = default;
};

// Several maps searched in order, e.g. the program's own named data and then
// the external files the caller added.
class NamedDataMapChain final : public NamedDataMap {
 public:
  NamedDataMapChain() = default;
  NamedDataMapChain(const NamedDataMap* const* maps, size_t count)
      : maps_(maps), count_(count) {}
  Result<ByteSpan> get(Span<const char> key) const override;
  size_t size() const override;
  Result<Span<const char>> key_at(size_t index) const override;

 private:
  const NamedDataMap* const* maps_ = nullptr;
  size_t count_ = 0;
};

}  // namespace tri
