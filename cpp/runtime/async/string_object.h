// A string value (TFRT's std::string payload, `!tfrt.string`), its bytes in
// the host's heap.
#pragma once

#include <cstddef>

#include "cpp/runtime/async/async_value.h"
#include "cpp/runtime/async/object_types.h"

namespace tri::async {

class StringObject final : public Object {
 public:
  static constexpr uint16_t kTypeId = kStringObject;

  // nullptr when the heap is full.
  static StringObject* make(HostContext& host, const char* data, size_t size);
  ~StringObject() override;

  const char* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  StringObject(HostContext& host, char* data, size_t size)
      : Object(kTypeId), host_(host), data_(data), size_(size) {}

  HostContext& host_;
  char* data_;
  size_t size_;
};

}  // namespace tri::async
