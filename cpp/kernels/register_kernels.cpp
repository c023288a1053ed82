#include "cpp/kernels/register_kernels.h"

#include "cpp/kernels/kernels.h"

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
  return register_kernels(Span<const KernelEntry>(
      kPortableKernels, sizeof(kPortableKernels) / sizeof(kPortableKernels[0])));
}

}  // namespace tri
