// Registers the custom-op folders this build was configured with
// (CMake's TRIDENT_CUSTOM_OPS, e.g. "etnp;myops"): each folder
// cpp/custom/<name>/ defines tri::custom::register_<name>_kernels().
#include "cpp/custom/register_custom_kernels.h"

#define TRI_CUSTOM_OPS(name) Error register_##name##_kernels();
namespace tri::custom {
#include "custom_ops.inc"
}  // namespace tri::custom
#undef TRI_CUSTOM_OPS

namespace tri {

Error register_custom_kernels() {
#define TRI_CUSTOM_OPS(name) TRI_TRY(custom::register_##name##_kernels());
#include "custom_ops.inc"
#undef TRI_CUSTOM_OPS
  return Error::Ok;
}

}  // namespace tri
