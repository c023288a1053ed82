// 3x3 stride-1 float32 convolutions as Winograd F(2x2, 3x3): each 4x4
// input tile and each filter go to a 16-point transform domain, where the
// convolution becomes 16 independent gemms (out channels x in channels
// times in channels x tiles), and each 2x2 output tile comes back by the
// inverse transform. 16 multiplies per 2x2 outputs instead of 36: the one
// way past the mul+add ceiling that im2col + gemm runs into. The transforms
// are additions only (the filter's halves are exact in float), so the
// result differs from the direct sum by rounding alone.
#pragma once

#include <cstddef>

#include "cpp/kernels/util/conv_forward.h"

namespace tri {

// True for the problems this file takes and gains on: a 2-D float32
// convolution, 3x3, stride and dilation 1, one group, not transposed, rows
// of out contiguous (out may lie over the input: all of it is read
// first), at least 64 channels in and out but at most 128 x 128 pairs of
// them (past that the filter transform, made on every run, eats the
// gain), at least 64 2x2 output tiles, and at most 16 MiB of scratch.
bool winograd3x3_applies(const ConvProblem& p);

// The temp winograd3x3 needs for p, kTempSlack included (as the im2col
// path's conv scratch).
size_t winograd3x3_scratch(const ConvProblem& p);

// Runs p; false, with nothing written or taken from temp, when temp has
// less than winograd3x3_scratch(p) (the caller then takes the im2col path,
// which tiles to what is left). winograd3x3_applies(p) must hold.
bool winograd3x3(KernelContext& ctx, const ConvProblem& p);

}  // namespace tri
