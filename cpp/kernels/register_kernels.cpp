#include "cpp/kernels/register_kernels.h"

#include <cstring>

#include "cpp/kernels/fusion/conv_batch_norm.h"
#include "cpp/kernels/fusion/fold_constants.h"
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

struct ScratchRow {
  const char* name;
  KernelScratchFn scratch;
};

const ScratchRow kScratch[] = {
#define TRI_KERNEL_SCRATCH(name, function) ScratchRow{name, &kernels::function},
#include "cpp/kernels/tables/scratch.inc"
#undef TRI_KERNEL_SCRATCH
};

constexpr size_t kNumPortable = sizeof(kPortableKernels) / sizeof(kPortableKernels[0]);

}  // namespace

Error register_portable_kernels() {
  // The table's entries with their scratch functions filled in.
  static KernelEntry entries[kNumPortable];
  for (size_t i = 0; i < kNumPortable; ++i) {
    entries[i] = kPortableKernels[i];
    for (const ScratchRow& row : kScratch) {
      if (std::strcmp(row.name, entries[i].name) == 0) entries[i].scratch = row.scratch;
    }
    entries[i].returns_view = std::strcmp(entries[i].name, "executorch_prim::et_view.default") == 0;
  }
  TRI_TRY(register_kernels(Span<const KernelEntry>(entries, kNumPortable)));
  // Rewrites with these kernels, run when methods load (method_pass.h):
  // constant copies first, so that the fusion sees the method as it runs.
  TRI_TRY(register_method_pass(&kernels::fold_constant_copies));
  return register_method_pass(&kernels::fuse_conv_batch_norm);
}

}  // namespace tri
