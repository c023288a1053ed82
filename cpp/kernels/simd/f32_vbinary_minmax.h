// float32 elementwise binary microkernels with a fused output clamp, for the
// XNNPACK delegate's Add, Subtract, Multiply, Div, Minimum, Maximum and
// PReLU nodes. One row at a time: each operand either advances with the row
// (stride 1) or repeats one value (stride 0), which is what broadcasting
// leaves in the innermost dimension.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tri {

enum class F32BinaryOp : uint8_t { Add, Sub, Mul, Div, Min, Max, PRelu };

// out[i] = clamp(op(a[i * sa], b[i * sb]), min, max) for i < n; sa and sb
// are 0 or 1. PRelu: a > 0 ? a : a * b. Four lanes at a time.
void f32_vbinary_minmax_4x(F32BinaryOp op, size_t n, const float* a, size_t sa, const float* b,
                           size_t sb, float* out, float min, float max);

// What kernels call: the f32x4 rows when SIMD is on, the reference otherwise.
void f32_vbinary_minmax(F32BinaryOp op, size_t n, const float* a, size_t sa, const float* b,
                        size_t sb, float* out, float min, float max);

void f32_vbinary_minmax_reference(F32BinaryOp op, size_t n, const float* a, size_t sa,
                                  const float* b, size_t sb, float* out, float min, float max);

}  // namespace tri
