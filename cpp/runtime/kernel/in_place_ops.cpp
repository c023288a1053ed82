#include "cpp/runtime/kernel/in_place_ops.h"

#include <cstddef>
#include <cstring>

namespace tri {
namespace {

const char* const kElementwise[] = {
    "aten::add.out",     "aten::sub.out",        "aten::mul.out",        "aten::div.out",
    "aten::relu.out",    "aten::sigmoid.out",    "aten::tanh.out",       "aten::gelu.out",
    "aten::silu.out",    "aten::hardtanh.out",   "aten::leaky_relu.out", "aten::neg.out",
    "aten::exp.out",     "aten::clamp.out",      "aten::hardswish.out",  "aten::add.Scalar_out",
    "aten::mul.Scalar_out", "aten::sub.Scalar_out", "aten::div.Scalar_out", "aten::sqrt.out",
    "aten::rsqrt.out",   "aten::abs.out",        "aten::elu.out",        "aten::hardsigmoid.out",
};

// Each of these kernels ends in copy_view, which returns at once when out is
// self's memory seen the same way.
const char* const kSameBytes[] = {
    "aten::view_copy.out",
    "aten::squeeze_copy.out",
    "aten::squeeze_copy.dim_out",
    "aten::squeeze_copy.dims_out",
    "aten::unsqueeze_copy.out",
    "aten::alias_copy.out",
    "aten::detach_copy.out",
    "aten::lift_fresh_copy.out",
    "aten::clone.out",
    "aten::_to_copy.out",
    "dim_order_ops::_clone_dim_order.out",
    "dim_order_ops::_to_dim_order_copy.out",
};

template <size_t N>
bool listed(const char* const (&names)[N], const char* full_name) {
  for (const char* n : names) {
    if (strcmp(full_name, n) == 0) return true;
  }
  return false;
}

}  // namespace

InPlaceKind in_place_kind(const char* full_name) {
  if (listed(kElementwise, full_name)) return InPlaceKind::kElementwise;
  if (listed(kSameBytes, full_name)) return InPlaceKind::kSameBytes;
  return InPlaceKind::kNone;
}

}  // namespace tri
