// The passes of a normalization's backward over one normalized block (a
// layer-norm row, a group-norm channel plane), in double. With
// xhat = (x - mean) * rstd and g = dy * w:
//   dx = rstd * (g - a - xhat * b), a = mean(g), b = mean(g * xhat)
// over the whole normalized group. Every operand is a view broadcast to
// `shape` (w is often a scalar or a per-element weight).
#pragma once

#include "cpp/kernels/util/tensor_view.h"

namespace tri {

struct NormStats {
  double mean;
  double rstd;
};

// Adds sum(g) to *sum_g and sum(g * xhat) to *sum_g_xhat.
void norm_grad_sums(const TensorView& shape, const TensorView& x, const TensorView& dy,
                    const TensorView& w, NormStats s, double* sum_g, double* sum_g_xhat);

// dx = rstd * (dy * w - a - xhat * b).
void norm_grad_dx(const TensorView& shape, const TensorView& dx, const TensorView& x,
                  const TensorView& dy, const TensorView& w, NormStats s, double a, double b);

// Elementwise dw += dy * xhat and db += dy (per-element weights), and the
// zeroing before the first block.
void norm_grad_params(const TensorView& shape, const TensorView& dw, const TensorView& db,
                      const TensorView& x, const TensorView& dy, NormStats s);
void norm_grad_zero(const TensorView& shape, const TensorView& dw, const TensorView& db);

}  // namespace tri
