#include "cpp/runtime/core/named_data_map.h"

namespace tri {

Result<ByteSpan> NamedDataMapChain::get(Span<const char> key) const {
  for (size_t i = 0; i < count_; ++i) {
    if (maps_[i] == nullptr) {
      continue;
    }
    Result<ByteSpan> found = maps_[i]->get(key);
    if (found.ok()) {
      return found.take();
    }
    if (found.error() != Error::NotFound) {
      return found.error();
    }
  }
  return fail(Error::NotFound, "no data stored under key '%.*s'",
              static_cast<int>(key.size()), key.data());
}

size_t NamedDataMapChain::size() const {
  size_t total = 0;
  for (size_t i = 0; i < count_; ++i) {
    total += maps_[i] ? maps_[i]->size() : 0;
  }
  return total;
}

Result<Span<const char>> NamedDataMapChain::key_at(size_t index) const {
  for (size_t i = 0; i < count_; ++i) {
    const size_t n = maps_[i] ? maps_[i]->size() : 0;
    if (index < n) {
      return maps_[i]->key_at(index);
    }
    index -= n;
  }
  return fail(Error::InvalidArgument, "key index out of range");
}

}  // namespace tri
