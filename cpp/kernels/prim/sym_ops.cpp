// Symbolic-size helpers in the prim-op calling convention ([inputs..., result]):
// aten::sym_size.int, aten::sym_numel, aten::_local_scalar_dense.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/dtype_dispatch.h"

namespace tri {
namespace kernels {

Error sym_size_int(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_CHECK(self->dim() > 0, Error::InvalidArgument, "sym_size of a 0-dim tensor");
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, self->dim(), &d));
  TRI_ASSIGN_OR_RETURN(EValue* const result, args.slot(2));
  *result = EValue::from_int(self->size(d));
  return Error::Ok;
}

Error sym_numel(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(EValue* const result, args.slot(1));
  *result = EValue::from_int(static_cast<int64_t>(self->numel()));
  return Error::Ok;
}

Error local_scalar_dense(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_CHECK(self->numel() >= 1, Error::InvalidArgument,
            "a tensor with no elements has no scalar value");
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBBoolTypes, "self"));
  TRI_ASSIGN_OR_RETURN(EValue* const result, args.slot(1));
  const ScalarType type = self->scalar_type();
  const void* data = self->mutable_data();
  if (type == ScalarType::Bool) {
    *result = EValue::from_bool(load_one<int64_t>(type, data) != 0);
  } else if (is_integral_type(type, false)) {
    *result = EValue::from_int(load_one<int64_t>(type, data));
  } else {
    *result = EValue::from_double(load_one<double>(type, data));
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
