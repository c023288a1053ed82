// Wasm SIMD paths of unary float32 ops. A kernel offers its op here after
// all checks and the resize; simd_unary runs it when SIMD is on and self and
// out are Float tensors of one memory layout (contiguous, channels-last or
// any dim order: then both are the same dense array), and returns false
// (nothing written) otherwise, leaving the scalar path (the reference) to
// the kernel. Native builds have no SIMD paths: it always returns false.
#pragma once

#include "cpp/runtime/core/tensor.h"

namespace tri {

enum class SimdUnary : uint8_t {
  None,
  Neg,
  Abs,
  Sqrt,
  Relu,
  Clamp,      // a = lower bound (or -inf), b = upper bound (or +inf)
  LeakyRelu,  // a = negative slope
  Hardswish,
  Exp,
  Tanh,
  Sigmoid,
  Silu,
  Gelu,
  GeluTanh,
};

bool simd_unary(SimdUnary op, const Tensor& self, const Tensor& out, float a = 0, float b = 0);

}  // namespace tri
