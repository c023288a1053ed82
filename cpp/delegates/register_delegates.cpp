#include "cpp/delegates/register_delegates.h"

#include "cpp/delegates/xnnpack/xnnpack_backend.h"

namespace tri {

Error register_builtin_backends() {
  if (find_backend(xnnpack::kXnnpackBackendId) != nullptr) return Error::Ok;
  return register_backend(xnnpack::kXnnpackBackendId, &xnnpack::xnnpack_backend());
}

}  // namespace tri
