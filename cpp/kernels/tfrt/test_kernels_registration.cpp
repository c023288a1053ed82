#include "cpp/kernels/tfrt/kernel_util.h"

namespace tri::tfrt_kernels {

void register_simple_test_kernels();
void register_async_test_kernels();

void register_test_kernels() {
  register_simple_test_kernels();
  register_async_test_kernels();
}

}  // namespace tri::tfrt_kernels
