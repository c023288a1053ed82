// aten::expand_copy.out: self broadcast to `size` (-1 keeps a dim; new
// leading dims may be added).
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"

namespace tri {
namespace kernels {

Error expand_copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> size, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(const bool implicit, args.bool_value(2));
  (void)implicit;
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_TRY(check_copy_dtypes(*self, *out));
  const int32_t rank = self->dim();
  const int32_t n = static_cast<int32_t>(size.size());
  TRI_CHECK(n >= rank && n <= static_cast<int32_t>(kTensorDimLimit), Error::InvalidArgument,
            "the number of sizes (%d) must be at least the tensor's rank (%d)", n, rank);
  const TensorView in = TensorView::of(*self);
  TensorView v;
  v.data = in.data;
  v.type = in.type;
  v.dim = n;
  for (int32_t i = n - 1; i >= 0; --i) {
    const int32_t d = i - (n - rank);  // self's dim, or < 0 for a new one
    int64_t target = size[i];
    if (d < 0) {
      TRI_CHECK(target >= 0, Error::InvalidArgument,
                "the expanded size %" PRId64 " isn't allowed in a leading, "
                "non-existing dimension %d", target, i);
      v.sizes[i] = target;
      v.strides[i] = 0;
      continue;
    }
    if (target == -1) {
      target = in.sizes[d];
    }
    TRI_CHECK(target >= 0, Error::InvalidArgument, "invalid expanded size %" PRId64, target);
    TRI_CHECK(in.sizes[d] == target || in.sizes[d] == 1, Error::InvalidArgument,
              "the expanded size (%" PRId64 ") must match the existing size (%" PRId64
              ") at non-singleton dimension %d",
              target, in.sizes[d], i);
    v.sizes[i] = target;
    v.strides[i] = in.sizes[d] == target ? in.strides[d] : 0;
  }
  return copy_into(v, *out);
}

}  // namespace kernels
}  // namespace tri
