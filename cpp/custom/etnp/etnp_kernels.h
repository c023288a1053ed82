// Custom ops of executorch-numpy-runtime's programs (namespace etnp::).
#pragma once

#include "cpp/runtime/kernel/operator_registry.h"

namespace tri::custom::etnp {

Error lstm_out(KernelContext& context, KernelArgs& args);

}  // namespace tri::custom::etnp
