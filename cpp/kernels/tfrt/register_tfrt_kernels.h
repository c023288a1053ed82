// Registers every TFRT-style async kernel the BEF executor can run.
#pragma once

namespace tri {

void register_tfrt_kernels();

}  // namespace tri
