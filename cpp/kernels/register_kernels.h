// Registers every kernel the library provides (ATen portable ops, ExecuTorch
// prim and dim-order ops). Explicit, not static initializers: a static library
// would drop unreferenced registration objects, and hosts may want a subset.
#pragma once

#include "cpp/runtime/core/error.h"

namespace tri {

Error register_portable_kernels();

}  // namespace tri
