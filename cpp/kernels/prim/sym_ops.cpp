// Symbolic-size helpers in the prim-op calling convention ([inputs..., result]):
// aten::sym_size.int, sym_stride.int, sym_numel, sym_storage_offset,
// sym_is_contiguous, _local_scalar_dense: the symbolic-shape queries.
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

Error sym_stride_int(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_CHECK(self->dim() > 0, Error::InvalidArgument, "sym_stride of a 0-dim tensor");
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, self->dim(), &d));
  TRI_ASSIGN_OR_RETURN(EValue* const result, args.slot(2));
  *result = EValue::from_int(self->strides()[d]);
  return Error::Ok;
}

// Tensors here always start at their data pointer.
Error sym_storage_offset(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  (void)self;
  TRI_ASSIGN_OR_RETURN(EValue* const result, args.slot(1));
  *result = EValue::from_int(0);
  return Error::Ok;
}

namespace {

// Whether t's strides are those of a dense tensor stored in `order` (size-1
// dims may have any stride, as in c10's is_contiguous).
bool dense_in_order(const Tensor& t, const int32_t* order) {
  if (t.numel() == 0) return true;
  int64_t expected = 1;
  for (int32_t k = t.dim() - 1; k >= 0; --k) {
    const int32_t d = order[k];
    if (t.size(d) != 1 && t.strides()[d] != expected) return false;
    expected *= t.size(d);
  }
  return true;
}

}  // namespace

Error sym_is_contiguous(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Optional<int64_t> format, args.optional_int(1));
  TRI_ASSIGN_OR_RETURN(EValue* const result, args.slot(2));
  const int64_t f = format.has_value ? format.value : 0;
  static const int32_t kChannelsLast[] = {0, 2, 3, 1};
  static const int32_t kChannelsLast3d[] = {0, 2, 3, 4, 1};
  int32_t identity[kTensorDimLimit];
  for (int32_t d = 0; d < self->dim(); ++d) identity[d] = d;
  bool answer = false;
  if (f == 0) {
    answer = dense_in_order(*self, identity);
  } else if (f == 2) {
    answer = self->dim() == 4 && dense_in_order(*self, kChannelsLast);
  } else if (f == 3) {
    answer = self->dim() == 5 && dense_in_order(*self, kChannelsLast3d);
  } else {
    return fail(Error::InvalidArgument,
                "memory_format %lld: sym_is_contiguous takes contiguous (0), channels_last (2) "
                "or channels_last_3d (3)",
                static_cast<long long>(f));
  }
  *result = EValue::from_bool(answer);
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
