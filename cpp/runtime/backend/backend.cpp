#include "cpp/runtime/backend/backend.h"

#include <cstring>

namespace tri {
namespace {

struct Registration {
  const char* id;
  const Backend* backend;
};

Registration g_backends[kMaxRegisteredBackends];
size_t g_num_backends = 0;

}  // namespace

Error register_backend(const char* id, const Backend* backend) {
  TRI_CHECK(id != nullptr && backend != nullptr, Error::InvalidArgument,
            "a backend needs an id and an implementation");
  TRI_CHECK(find_backend(id) == nullptr, Error::InvalidState,
            "backend '%s' is already registered", id);
  TRI_CHECK(g_num_backends < kMaxRegisteredBackends, Error::LimitExceeded,
            "backend registry is full");
  g_backends[g_num_backends++] = {id, backend};
  return Error::Ok;
}

const Backend* find_backend(const char* id) {
  for (size_t i = 0; i < g_num_backends; ++i) {
    if (strcmp(g_backends[i].id, id) == 0) {
      return g_backends[i].backend;
    }
  }
  return nullptr;
}

void clear_backend_registry() { g_num_backends = 0; }

}  // namespace tri
