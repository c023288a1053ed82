// The two loops every normalization shares, over strided views in any dim
// order (channels-last included):
//   moments():      mean and biased variance of all elements of a view;
//   affine_apply(): out = (x * a + b) * s + t, where s and t are optional
//                   views broadcast to x (per-channel or per-element
//                   weights) and a, b are numbers (the row's rstd and
//                   -mean * rstd, or 1 and 0).
// Both run in float (double for Double data) with a Float fast path and a
// wasm SIMD path for Float rows; other dtypes are converted a chunk at a time.
#pragma once

#include <cmath>
#include <cstdint>

#include "cpp/kernels/util/tensor_view.h"

namespace tri {

// Two passes (mean, then squared deviations), accumulated in double. An empty
// view gives mean 0 and variance NaN, as ATen's layer and group norm.
void moments(const TensorView& x, double* mean, double* var);

// 1 / sqrt(var + eps), a negative var (rounding) taken as 0: layer and
// group norm's rstd.
inline double rstd_of(double var, double eps) { return 1.0 / std::sqrt((var < 0 ? 0.0 : var) + eps); }

// moments() of n contiguous floats (one row of a row-major tensor), without
// the strided walk: the same values.
void moments_f32(const float* x, int64_t n, double* mean, double* var);

// affine_apply() over n contiguous floats with s and t contiguous rows of n,
// or both null: the same values.
void affine_f32_row(float* out, const float* x, int64_t n, float a, float b, const float* s,
                    const float* t);

// `s` and `t` are null or views of out's rank, broadcast to out's shape (size
// 1 or stride 0 where they do not vary), of any floating dtype. x and out have
// the same shape; C (float or double) is the compute type.
template <typename C>
void affine_apply(const TensorView& out, const TensorView& x, C a, C b, const TensorView* s,
                  const TensorView* t);

extern template void affine_apply<float>(const TensorView&, const TensorView&, float, float,
                                         const TensorView*, const TensorView*);
extern template void affine_apply<double>(const TensorView&, const TensorView&, double, double,
                                          const TensorView*, const TensorView*);

// A view of `n` values of compute type C at `data` that varies along dim `d`
// of a rank-`rank` shape only (stride 1 there, 0 elsewhere): per-channel
// scale and shift arrays seen as operands of affine_apply.
TensorView channel_view(const void* data, ScalarType type, int32_t rank, int32_t d, int64_t n);

// Dims [axis, rank) of v, starting `off` elements into it.
TensorView trailing_view(const TensorView& v, int32_t axis, int64_t off);

// Elements [start, start + len) of dim d of v (a narrow; no checks).
TensorView narrow_view(const TensorView& v, int32_t d, int64_t start, int64_t len);

}  // namespace tri
