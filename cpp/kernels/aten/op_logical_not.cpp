// aten::logical_not.out (x == 0, into an out of any dtype) and
// aten::bitwise_not.out (integers and Bool only; out must have self's dtype).
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error logical_not_out(KernelContext&, KernelArgs& args) {
  return unary_predicate(args, [](auto x) { return x == decltype(x)(0); });
}

Error bitwise_not_out(KernelContext&, KernelArgs& args) {
  Tensor* self = nullptr;
  Tensor* out = nullptr;
  TRI_TRY(read_unary(args, 1, &self, &out));
  TRI_TRY(check_unary_same(*self, *out, kIntTypes | dtype_bit(ScalarType::Bool), "bitwise_not"));
  // Bool values compute as 0/1 in int64, where ~ would give -1/-2.
  const bool is_bool = self->scalar_type() == ScalarType::Bool;
  return map_unary<kComputeInt>(self->scalar_type(), *self, *out, [is_bool](int64_t x) {
    return is_bool ? static_cast<int64_t>(x == 0) : ~x;
  });
}

}  // namespace kernels
}  // namespace tri
