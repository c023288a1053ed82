// Wasm SIMD128 rows for the float32 binary ops models spend their time in
// (add, sub, rsub, mul, div, maximum, minimum). map2_simd is map2 with, for
// a Float compute type and SIMD on, the op's loop replaced by
// simd_binary_chunk: the elementwise driver still walks the shape, so every
// layout NdIter turns into rows gets the SIMD loop (same-shape contiguous:
// one long row; a Scalar or size-1 operand: a repeated value; [N,C] + [C]:
// N rows of C against one vector; [N,C,H,W] + [C,1,1]: N*C rows of H*W,
// each against one value). Half/BFloat16 operands are converted to float
// rows by the driver first. The scalar map2 path stays the reference.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/elementwise.h"
#include "cpp/kernels/util/simd.h"

namespace tri {

enum class SimdBinOp : uint8_t { Add, Sub, Mul, Div, Max, Min };

// Add/Sub compute x + alpha * y / x - alpha * y, as the scalar paths do
// (alpha is the op's alpha as a float; 1 for the other ops).
struct SimdBinary {
  SimdBinOp op;
  float alpha;
};

#if TRI_WASM_SIMD
// A ChunkFn<float, float>: `op` points to a SimdBinary.
void simd_binary_chunk(const void* op, float* out, const float* const* in, const bool* scalar,
                       int64_t n);
#endif

template <uint32_t kKinds, typename Make>
Error map2_simd(const SimdBinary& simd, ScalarType common, const TensorView& a, const TensorView& b,
                const TensorView& out, Make&& make) {
#if TRI_WASM_SIMD
  if (compute_kind(common) == ComputeKind::Float && simd_enabled()) {
    const TensorView* in[] = {&a, &b};
    map_chunks<float, float>(out, in, 2, common, &simd_binary_chunk, &simd);
    return Error::Ok;
  }
#else
  (void)simd;
#endif
  return map2<kKinds>(common, a, b, out, make);
}

}  // namespace tri
