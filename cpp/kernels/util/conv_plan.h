// The argument checks and geometry of aten::convolution, shared by the
// forward op and convolution_backward (whose parameters sit one slot later).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/kernels/util/conv_forward.h"
#include "cpp/runtime/kernel/kernel_args.h"

namespace tri {

// Reads stride, padding, dilation, transposed, output_padding and groups
// from args[first .. first + 5] and checks them against input [N, C, *sp]
// and weight. Fills p (geometry, channels, groups, input and weight sizes
// and strides; not out) and the forward output's shape (input's rank).
Error plan_convolution(KernelArgs& args, size_t first, const Tensor& input, const Tensor& weight,
                       ConvProblem& p, int64_t* out_shape);

// Element strides of a [N, C, *sp] tensor padded to (n, c, d, h, w).
void conv_strides5(const Tensor& t, int64_t* st);

}  // namespace tri
