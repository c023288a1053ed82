#include "cpp/kernels/tfrt/register_tfrt_kernels.h"

#include "cpp/kernels/tfrt/kernel_util.h"

namespace tri {

void register_tfrt_kernels() {
  tfrt_kernels::register_basic_kernels();
  tfrt_kernels::register_control_flow_kernels();
  tfrt_kernels::register_test_kernels();
  tfrt_kernels::register_tensor_kernels();
}

}  // namespace tri
