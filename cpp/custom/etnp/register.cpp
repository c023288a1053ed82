// Registers the etnp:: kernels; called by register_custom_kernels() when the
// build includes this folder (TRIDENT_CUSTOM_OPS contains "etnp").
#include "cpp/custom/etnp/etnp_kernels.h"

namespace tri::custom {

Error register_etnp_kernels() {
  static const KernelEntry kEntries[] = {
      // 7 inputs, 3 outs, 1 returned tuple.
      KernelEntry{"etnp::lstm.out", &etnp::lstm_out, 11, nullptr},
  };
  return register_kernels(Span<const KernelEntry>(kEntries, sizeof(kEntries) / sizeof(kEntries[0])));
}

}  // namespace tri::custom
