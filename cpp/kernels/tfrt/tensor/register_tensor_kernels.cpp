// Registers the kernels of this folder: TFRT's dense host tensor
// (tfrt_dht.*) and tensor shape (ts.*) kernels, and the tfrt_test tensor
// kernels its tests use.
#include "cpp/kernels/tfrt/kernel_util.h"

namespace tri::tfrt_kernels {

void register_dht_kernels();
void register_shape_kernels();
void register_test_tensor_kernels();

void register_tensor_kernels() {
  register_dht_kernels();
  register_shape_kernels();
  register_test_tensor_kernels();
}

}  // namespace tri::tfrt_kernels
