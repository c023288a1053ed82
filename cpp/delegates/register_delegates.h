// Registers the backends built into the runtime (for now: XnnpackBackend).
#pragma once

#include "cpp/runtime/core/error.h"

namespace tri {

// Safe to call more than once.
Error register_builtin_backends();

}  // namespace tri
