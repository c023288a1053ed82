#include "cpp/kernels/util/unary_op.h"

namespace tri {

Error read_unary(KernelArgs& args, size_t out_index, Tensor** self, Tensor** out) {
  TRI_ASSIGN_OR_RETURN(*self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(*out, args.tensor(out_index));
  return Error::Ok;
}

Error prepare_unary(KernelArgs& args, size_t out_index, Tensor** self, Tensor** out) {
  TRI_TRY(read_unary(args, out_index, self, out));
  return resize_out(**out, (*self)->sizes());
}

Error check_unary_same(const Tensor& self, Tensor& out, uint32_t self_set, const char* op) {
  const ScalarType t = self.scalar_type();
  TRI_CHECK(t != ScalarType::Bool || dtype_in(t, self_set), Error::InvalidType,
            "self: %s does not support bool tensors", op);
  TRI_TRY(check_dtype(t, self_set, "self"));
  TRI_TRY(check_same_dtype(out, t, "out"));
  return resize_out(out, self.sizes());
}

Error check_unary_float(const Tensor& self, Tensor& out, ScalarType* compute) {
  const ScalarType t = self.scalar_type();
  TRI_TRY(check_dtype(t, kRealHBBoolTypes, "self"));
  TRI_TRY(check_dtype(out.scalar_type(), kFloatHBTypes, "out"));
  *compute = is_floating_type(t) ? t : ScalarType::Float;
  TRI_TRY(check_can_cast(*compute, out.scalar_type()));
  return resize_out(out, self.sizes());
}

}  // namespace tri
