// Summation behind sum and mean: floating results accumulate in double,
// integral ones in int64 (wrapping), whatever self's dtype.
#pragma once

#include "cpp/kernels/util/reduce.h"

namespace tri {

// out[...] = sum(self over the plan's reduced dims) / divisor, stored in out's
// dtype. divisor is 1 for sum and n for mean (floating outs only; 0/0 = NaN).
void reduce_sum(const ReducePlan& plan, const TensorView& out, double divisor);

}  // namespace tri
