// Wasm SIMD128 support for kernels. Every SIMD path has a scalar reference
// path beside it; simd_enabled() picks between them at run time so that
// tests (and users, through the JS `env.simd`) can run both on one build.
// Native builds have no SIMD paths: TRI_WASM_SIMD is 0 there.
#pragma once

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define TRI_WASM_SIMD 1
#else
#define TRI_WASM_SIMD 0
#endif

namespace tri {

// True unless turned off; always false where TRI_WASM_SIMD is 0.
bool simd_enabled();
void set_simd_enabled(bool enabled);

}  // namespace tri
