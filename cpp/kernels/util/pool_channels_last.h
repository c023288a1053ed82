// The f32x4 path of pooling for float32 channels-last tensors: lanes are 4
// channels, taps are visited in the scalar loop's order, so results (and
// max indices) are identical to it.
#pragma once

#include "cpp/kernels/util/pool_window.h"

namespace tri {

// True when p (float32, channel stride 1 everywhere, >= 4 channels, volume
// indices fitting int32) can take the vector path.
bool pool_channels_last_applies(const PoolProblem& p, int32_t nsp);

void pool_channels_last(const PoolProblem& p, int32_t nsp);

}  // namespace tri
