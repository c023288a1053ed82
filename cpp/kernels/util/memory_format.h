// `MemoryFormat? memory_format` arguments (an Int, c10::MemoryFormat): the
// out tensor's dim order must agree with what was asked.
#pragma once

#include "cpp/runtime/core/tensor.h"
#include "cpp/runtime/kernel/kernel_args.h"

namespace tri {

// None or 1 (preserve): anything; 0 (contiguous): out contiguous;
// 2 (channels_last): out rank 4 with dim order 0,2,3,1; 3
// (channels_last_3d): rank 5, 0,2,3,4,1.
Error check_memory_format(KernelArgs& args, size_t index, const Tensor& out);

}  // namespace tri
