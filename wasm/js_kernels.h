// Kernels implemented in JavaScript; see js_kernels.cpp.
#pragma once

#include <string>

namespace tri::wasm {

// Registers (or replaces any kernel of) `name` with the JS trampoline.
// Returns an Error code (0 = Ok). Programs resolve operators at load, so
// register before loading the programs that use it.
int register_js_kernel(const std::string& name);

}  // namespace tri::wasm
