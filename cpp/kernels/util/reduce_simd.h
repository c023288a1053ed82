// Float32 row primitives of the reductions and softmax, each with a wasm
// SIMD128 path (taken when simd_enabled()) beside its scalar reference. They
// are called once per row or block, so V8 tiers them up (ENVIRONMENT.md).
#pragma once

#include <cstdint>

namespace tri {

// Sum of x[0..n) accumulated in double.
double sum_f32(const float* x, int64_t n);
// acc[i] += x[i] (double accumulators), i < m.
void add_f32_rows(double* acc, const float* x, int64_t m);
// Largest (is_max) or smallest of `init` and x[0..n); NaN wins.
float extreme_f32(const float* x, int64_t n, float init, bool is_max);
// acc[i] = extreme(acc[i], x[i]); NaN wins.
void extreme_f32_rows(float* acc, const float* x, int64_t m, bool is_max);

// y[i] = exp(x[i] - shift); returns the float sum of the y[i]. y may be null.
// shift is at least every x[i] (softmax's max): the SIMD path's exp takes
// only arguments <= 0 (simd_math::exp_nonpositive).
float exp_sum_f32(const float* x, float shift, float* y, int64_t n);
// y[i] = x[i] * s.
void scale_f32(const float* x, float s, float* y, int64_t n);
// y[i] = x[i] - s.
void sub_f32(const float* x, float s, float* y, int64_t n);
// Per-lane versions for softmax over a non-last dim (m lanes):
// y[i] = exp(x[i] - shift[i]), sum[i] += y[i]; shift[i] >= x[i], as above.
void exp_sum_f32_rows(const float* x, const float* shift, float* y, float* sum, int64_t m);
// y[i] = x[i] * s[i].
void mul_f32_rows(const float* x, const float* s, float* y, int64_t m);
// y[i] = x[i] - s[i].
void sub_f32_rows(const float* x, const float* s, float* y, int64_t m);

}  // namespace tri
