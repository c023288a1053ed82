// aten::fill.Scalar_out(self, value), aten::fill.Tensor_out(self, value):
// out takes self's shape, every element the value converted to self's dtype
// (checked for overflow, as ATen's fill_ does), then to out's dtype (as the
// out variant copies the functional result).
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/fill.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {
namespace {

// `value` as a value of dtype `t`, still a Scalar.
Scalar convert_to(const Scalar& value, ScalarType t) {
  alignas(8) unsigned char bytes[8] = {};
  scalar_to_bytes(value, t, bytes);
  Scalar s;
  if (is_floating_type(t)) {
    s.tag = Tag::Double;
    s.d = load_one<double>(t, bytes);
  } else {
    s.tag = Tag::Int;
    s.i = load_one<int64_t>(t, bytes);
  }
  return s;
}

Error fill_with(const Tensor& self, const Scalar& value, Tensor& out) {
  TRI_TRY(check_dtype(self.scalar_type(), kRealHBBoolTypes, "self"));
  TRI_TRY(check_dtype(out.scalar_type(), kRealHBBoolTypes, "out"));
  TRI_TRY(check_scalar_fits(value, self.scalar_type()));
  TRI_TRY(resize_out(out, self.sizes()));
  fill_scalar(out, convert_to(value, self.scalar_type()));
  return Error::Ok;
}

}  // namespace

Error fill_scalar_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Scalar value, args.scalar(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  return fill_with(*self, value, *out);
}

Error fill_tensor_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* value, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_CHECK(value->dim() == 0, Error::InvalidArgument,
            "value: fill only supports a 0-dimension value tensor, got %d dimensions",
            static_cast<int>(value->dim()));
  const ScalarType vt = value->scalar_type();
  TRI_TRY(check_dtype(vt, kRealHBBoolTypes, "value"));
  Scalar s;
  if (is_floating_type(vt)) {
    s.tag = Tag::Double;
    s.d = load_one<double>(vt, value->data());
  } else {
    s.tag = Tag::Int;
    s.i = load_one<int64_t>(vt, value->data());
  }
  return fill_with(*self, s, *out);
}

}  // namespace kernels
}  // namespace tri
