// Direct depthwise 3x3 convolution (float32, groups == channels, dilation 1),
// where im2col + gemm would run a 1-row gemm per channel. Two vector paths:
// planar rows (NCHW, stride 1: lanes are 4 output columns) and channels-last
// (lanes are 4 channels); the scalar loop is the reference and the rest.
#pragma once

#include "cpp/kernels/util/conv_forward.h"

namespace tri {

// True when p is a float32 depthwise 3x3 convolution this file handles.
bool depthwise3x3_applies(const ConvProblem& p);

// Widest row a convolution in place saves on the stack (two rows).
constexpr int64_t kInPlaceMaxWidth = 512;

// True when p's out is its input, element for element, and depthwise3x3
// can run in place (p.out_over_input): stride 1, padding 1, planar rows at
// most kInPlaceMaxWidth wide.
bool depthwise3x3_in_place_applies(const ConvProblem& p);

// Runs it; `vector` picks the f32x4 paths where the layout allows (callers
// pass simd_enabled(); tests pass both). Uses temp for the channels-last
// weights and falls back to the scalar loop without it. With
// p.out_over_input, depthwise3x3_in_place_applies(p) must hold.
void depthwise3x3(KernelContext& context, const ConvProblem& p, bool vector);

}  // namespace tri
