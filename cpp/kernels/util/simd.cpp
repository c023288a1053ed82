#include "cpp/kernels/util/simd.h"

namespace tri {
namespace {
// A process-wide switch, set between runs, never during one.
bool g_simd_enabled = true;
}  // namespace

bool simd_enabled() { return TRI_WASM_SIMD != 0 && g_simd_enabled; }

void set_simd_enabled(bool enabled) { g_simd_enabled = enabled; }

}  // namespace tri
