// aten::constant_pad_nd.out: pad[2i], pad[2i+1] add (or, when negative,
// remove) elements before/after dim rank-1-i; new elements are `value`.
// out is filled with value, then the kept part of self is copied in.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/fill.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/shape_view.h"

namespace tri {
namespace kernels {

Error constant_pad_nd_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> pad, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(const Scalar value, args.scalar(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_TRY(check_dtype(self->scalar_type(), kAllTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  const int32_t rank = self->dim();
  TRI_CHECK(pad.size() % 2 == 0, Error::InvalidArgument,
            "Length of pad must be even but instead it equals %zu", pad.size());
  TRI_CHECK(pad.size() / 2 <= static_cast<size_t>(rank), Error::InvalidArgument,
            "Length of pad should be no more than twice the number of dimensions of the "
            "input. Pad length is %zu while the input has %d dimensions.", pad.size(), rank);
  TRI_TRY_CONTEXT(check_scalar_fits(value, out->scalar_type()), "value");
  TensorView src = TensorView::of(*self);
  int64_t shape[kTensorDimLimit];
  int64_t lo[kTensorDimLimit] = {};
  for (int32_t d = 0; d < rank; ++d) shape[d] = src.sizes[d];
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    const int32_t d = rank - 1 - static_cast<int32_t>(i);
    const int64_t size = src.sizes[d];
    const int64_t a = pad[2 * i];
    const int64_t b = pad[2 * i + 1];
    int64_t n = 0;
    TRI_CHECK(!__builtin_add_overflow(size, a, &n) && !__builtin_add_overflow(n, b, &n) &&
                  n >= 0, Error::InvalidArgument,
              "The input size %" PRId64 ", plus negative padding %" PRId64 " and %" PRId64
              " resulted in a negative output size, which is invalid. Check dimension %d of "
              "your input.", size, a, b, d);
    shape[d] = n;
    // The kept input range [a_cut, size - b_cut); clamped so nothing overflows.
    const int64_t a_cut = a < 0 ? (a < -size ? size : -a) : 0;
    const int64_t b_cut = b < 0 ? (b < -size ? size : -b) : 0;
    const int64_t kept = size - a_cut - b_cut;
    src = narrow_view(src, d, a_cut, kept > 0 ? kept : 0);
    lo[d] = a > 0 ? a : 0;
  }
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, static_cast<size_t>(rank))));
  fill_scalar(*out, value);
  if (src.numel() == 0) return Error::Ok;
  TensorView dst = TensorView::of(*out);
  for (int32_t d = 0; d < rank; ++d) dst = narrow_view(dst, d, lo[d], src.sizes[d]);
  copy_view(src, dst);
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
