// Declarations of every kernel function, generated from kernel_table.inc so
// that the table and the definitions cannot drift apart.
#pragma once

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/kernel/kernel_args.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri {
namespace kernels {

#define TRI_KERNEL(name, function, num_args) \
  Error function(KernelContext& context, KernelArgs& args);
#include "cpp/kernels/kernel_table.inc"
#undef TRI_KERNEL

#define TRI_KERNEL_SCRATCH(name, function) size_t function(KernelArgs& args);
#include "cpp/kernels/tables/scratch.inc"
#undef TRI_KERNEL_SCRATCH

}  // namespace kernels
}  // namespace tri
