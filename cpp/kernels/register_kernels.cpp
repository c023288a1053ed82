#include "cpp/kernels/register_kernels.h"

#include "cpp/kernels/fusion/conv_batch_norm.h"
#include "cpp/kernels/kernels.h"
#include "cpp/runtime/executor/method_pass.h"

namespace tri {
namespace {

const KernelEntry kPortableKernels[] = {
#define TRI_KERNEL(name, function, num_args) \
  KernelEntry{name, &kernels::function, num_args, nullptr},
#include "cpp/kernels/kernel_table.inc"
#undef TRI_KERNEL
};

}  // namespace

Error register_portable_kernels() {
  TRI_TRY(register_kernels(Span<const KernelEntry>(
      kPortableKernels, sizeof(kPortableKernels) / sizeof(kPortableKernels[0]))));
  // Fusions of these kernels, run when methods load (method_pass.h).
  return register_method_pass(&kernels::fuse_conv_batch_norm);
}

}  // namespace tri
