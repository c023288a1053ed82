// aten::as_strided_copy.out: a view of self's storage with the given sizes,
// strides and storage offset (default 0: self owns its storage here).
// Every element the view reaches must lie inside self's numel elements.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"

namespace tri {
namespace kernels {

Error as_strided_copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> size, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> stride, args.int_list(2));
  TRI_ASSIGN_OR_RETURN(const Optional<int64_t> offset_arg, args.optional_int(3));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(4));
  TRI_TRY(check_copy_dtypes(*self, *out));
  TRI_CHECK(size.size() == stride.size(), Error::InvalidArgument,
            "mismatch in length of strides and shape (%zu vs %zu)", stride.size(), size.size());
  TRI_CHECK(size.size() <= kTensorDimLimit, Error::NotSupported,
            "as_strided: rank %zu exceeds the limit of %zu", size.size(), kTensorDimLimit);
  const int64_t offset = offset_arg.has_value ? offset_arg.value : 0;
  TRI_CHECK(offset >= 0, Error::InvalidArgument,
            "Tensor: invalid storage offset %" PRId64, offset);
  TensorView v;
  v.type = self->scalar_type();
  v.dim = static_cast<int32_t>(size.size());
  bool empty = false;
  int64_t last = offset;  // the highest element index the view reaches
  for (size_t i = 0; i < size.size(); ++i) {
    TRI_CHECK(size[i] >= 0 && size[i] <= INT32_MAX, Error::InvalidArgument,
              "as_strided: size[%zu] = %" PRId64 " is invalid", i, size[i]);
    TRI_CHECK(stride[i] >= 0, Error::InvalidArgument,
              "as_strided: Negative strides are not supported at the moment, got strides[%zu] = "
              "%" PRId64, i, stride[i]);
    v.sizes[i] = size[i];
    v.strides[i] = stride[i];
    empty = empty || size[i] == 0;
    int64_t reach = 0;
    if (size[i] > 0 && (__builtin_mul_overflow(size[i] - 1, stride[i], &reach) ||
                        __builtin_add_overflow(last, reach, &last))) {
      last = INT64_MAX;
    }
  }
  const int64_t numel = static_cast<int64_t>(self->numel());
  TRI_CHECK(empty || last < numel, Error::InvalidArgument,
            "as_strided: the view reaches element %" PRId64 " of a storage of %" PRId64
            " elements", last, numel);
  v.data = empty ? self->mutable_data()
                 : static_cast<char*>(self->mutable_data()) +
                       offset * static_cast<int64_t>(self->element_size());
  return copy_into(v, *out);
}

}  // namespace kernels
}  // namespace tri
