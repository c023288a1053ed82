// aten::gelu.out with approximate = "none" (0.5 x (1 + erf(x / sqrt 2))) or
// "tanh" (0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))); floating only,
// out must have self's dtype.
#include <cmath>
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {
namespace {

bool is(Span<const char> s, const char* word) {
  const size_t n = std::strlen(word);
  return s.size() == n && std::memcmp(s.data(), word, n) == 0;
}

}  // namespace

Error gelu_out(KernelContext&, KernelArgs& args) {
  Tensor* self = nullptr;
  Tensor* out = nullptr;
  TRI_TRY(read_unary(args, 2, &self, &out));
  TRI_ASSIGN_OR_RETURN(const Span<const char> approximate, args.string(1));
  const bool none = is(approximate, "none");
  TRI_CHECK(none || is(approximate, "tanh"), Error::InvalidArgument,
            "approximate: must be either 'none' or 'tanh'");
  TRI_TRY(check_unary_same(*self, *out, kFloatHBTypes, "gelu"));
  if (simd_unary(none ? SimdUnary::Gelu : SimdUnary::GeluTanh, *self, *out)) return Error::Ok;
  if (none) {
    return map_unary<kComputeFloating>(self->scalar_type(), *self, *out, [](auto x) {
      using C = decltype(x);
      return x * C(0.5) * (C(1) + std::erf(x * C(0.70710678118654752440)));
    });
  }
  return map_unary<kComputeFloating>(self->scalar_type(), *self, *out, [](auto x) {
    using C = decltype(x);
    const C inner = C(0.79788456080286535588) * (x + C(0.044715) * x * x * x);
    return C(0.5) * x * (C(1) + std::tanh(inner));
  });
}

}  // namespace kernels
}  // namespace tri
