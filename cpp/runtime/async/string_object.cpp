#include "cpp/runtime/async/string_object.h"

#include <new>

namespace tri::async {

StringObject* StringObject::make(HostContext& host, const char* data, size_t size) {
  char* copy = host.copy_string(data, size);
  void* memory = copy == nullptr ? nullptr : host.allocate(sizeof(StringObject));
  if (memory == nullptr) {
    host.free(copy);
    return nullptr;
  }
  return new (memory) StringObject(host, copy, size);
}

StringObject::~StringObject() { host_.free(data_); }

}  // namespace tri::async
