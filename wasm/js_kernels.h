// Kernels implemented in JavaScript; see js_kernels.cpp.
#pragma once

#include <string>

namespace tri::wasm {

// Registers JS registration `id` as kernel `name` with `outs` out tensors
// (checked against each call at load), replacing any kernel of that name
// for programs loaded from now on; programs already loaded keep theirs.
// Returns an Error code (0 = Ok).
int register_js_kernel(const std::string& name, double id, int outs);

// Removes the JS kernel `name`, putting back the built-in kernel it
// replaced, if any. NotFound when `name` is not a JS kernel.
int unregister_js_kernel(const std::string& name);

// Whether this build has a kernel `name` of its own (a JS one may replace it).
bool has_builtin_kernel(const std::string& name);

}  // namespace tri::wasm
