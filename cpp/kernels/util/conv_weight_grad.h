// The weight gradient of a convolution. In both directions the forward op
// pairs a "grid" tensor G (positions o) with an "image" tensor I (positions
// o * s - p + k * d) through weight[gc, ic % (Ich / groups), k]: plain
// convolution has G = grad_output, I = input; transposed has G = input,
// I = grad_output. So dweight[gc, icg, k] = sum over n and o of
// G[n, gc, o] * I[n, ic, o * s - p + k * d], one formula for both.
#pragma once

#include "cpp/kernels/util/conv_forward.h"

namespace tri {

// p is the forward problem (p.input = the forward input, p.weight its
// weight; out unused); dw has the weight's shape. Fails only with
// MemoryAllocationFailed (temp too small), before writing dw.
// The temp conv_weight_grad takes: a converted copy of each operand that
// needs one, the weight-shaped sum unless dw takes it in place, and a tile.
size_t conv_weight_grad_scratch(const ConvProblem& p, const Tensor& grad_output,
                                const Tensor& dw);

Error conv_weight_grad(KernelContext& context, const ConvProblem& p, const Tensor& grad_output,
                       Tensor& dw);

}  // namespace tri
