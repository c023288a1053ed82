#include "cpp/runtime/kernel/in_place_ops.h"

#include <cstring>

namespace tri {
namespace {

const char* const kInPlaceSafe[] = {
    "aten::add.out",     "aten::sub.out",        "aten::mul.out",        "aten::div.out",
    "aten::relu.out",    "aten::sigmoid.out",    "aten::tanh.out",       "aten::gelu.out",
    "aten::silu.out",    "aten::hardtanh.out",   "aten::leaky_relu.out", "aten::neg.out",
    "aten::exp.out",     "aten::clamp.out",      "aten::hardswish.out",  "aten::add.Scalar_out",
    "aten::mul.Scalar_out", "aten::sub.Scalar_out", "aten::div.Scalar_out", "aten::sqrt.out",
    "aten::rsqrt.out",   "aten::abs.out",        "aten::elu.out",        "aten::hardsigmoid.out",
};

}  // namespace

bool writes_in_place_safely(const char* full_name) {
  for (const char* n : kInPlaceSafe) {
    if (strcmp(full_name, n) == 0) return true;
  }
  return false;
}

}  // namespace tri
