// Custom operators compiled into the build (see cpp/custom/README.md).
#pragma once

#include "cpp/runtime/core/error.h"

namespace tri {

// Registers every custom-op folder the build includes; Ok when there are none.
Error register_custom_kernels();

}  // namespace tri
