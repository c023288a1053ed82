// The largest or smallest element of each reduction and the index of its
// first occurrence (row-major over the reduced dims), behind amax/amin,
// max/min (unary and .dim) and argmax/argmin. NaN counts as the extreme and
// the first NaN wins, as in ATen.
#pragma once

#include "cpp/kernels/util/reduce.h"

namespace tri {

// `values` (self's dtype) and `indices` (Long) have the plan's shape; either
// may be null. The plan's reductions must be non-empty.
void reduce_extreme(const ReducePlan& plan, bool is_max, const TensorView* values,
                    const TensorView* indices);

}  // namespace tri
