// aten::repeat.out: self tiled repeats[i] times along each dim (self's
// shape is left-padded with 1s to len(repeats)). Done as one strided copy:
// each out dim of size r * s is seen as (r, s) and the input is broadcast
// along r, so any out layout works.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error repeat_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> repeats, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_copy_dtypes(*self, *out));
  const int32_t n = static_cast<int32_t>(repeats.size());
  const int32_t rank = self->dim();
  TRI_CHECK(n >= rank, Error::InvalidArgument,
            "Number of dimensions of repeat dims (%d) can not be smaller than number of "
            "dimensions of tensor (%d)", n, rank);
  TRI_CHECK(n <= static_cast<int32_t>(kTensorDimLimit), Error::NotSupported,
            "repeat: %d repeats exceed the rank limit", n);
  int64_t shape[kTensorDimLimit];
  const TensorView in = TensorView::of(*self);
  int64_t in_size[kTensorDimLimit];
  int64_t in_stride[kTensorDimLimit];
  for (int32_t i = 0; i < n; ++i) {
    const int32_t d = i - (n - rank);
    in_size[i] = d < 0 ? 1 : in.sizes[d];
    in_stride[i] = d < 0 ? 0 : in.strides[d];
    TRI_CHECK(repeats[i] >= 0, Error::InvalidArgument,
              "Trying to create tensor with negative dimension %" PRId64 " (repeats[%d])",
              repeats[i], i);
    TRI_CHECK(!__builtin_mul_overflow(repeats[i], in_size[i], &shape[i]) &&
                  shape[i] <= INT32_MAX, Error::InvalidArgument,
              "repeat: size %" PRId64 " x %" PRId64 " at dim %d is too large", in_size[i],
              repeats[i], i);
  }
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, static_cast<size_t>(n))));
  const TensorView o = TensorView::of(*out);
  if (o.numel() == 0) return Error::Ok;
  // Split dims where both the repeat and the size exceed 1.
  TensorView src;
  TensorView dst;
  src.data = in.data;
  src.type = in.type;
  dst.data = o.data;
  dst.type = o.type;
  for (int32_t i = 0; i < n; ++i) {
    const bool split = repeats[i] > 1 && in_size[i] > 1;
    TRI_CHECK(dst.dim + (split ? 2 : 1) <= static_cast<int32_t>(kTensorDimLimit),
              Error::NotSupported, "repeat: too many repeated dims for the rank limit");
    if (split) {
      src.sizes[src.dim] = repeats[i];
      src.strides[src.dim++] = 0;
      dst.sizes[dst.dim] = repeats[i];
      dst.strides[dst.dim++] = in_size[i] * o.strides[i];
    }
    src.sizes[src.dim] = split ? in_size[i] : shape[i];
    src.strides[src.dim++] = in_size[i] == 1 ? 0 : in_stride[i];
    dst.sizes[dst.dim] = split ? in_size[i] : shape[i];
    dst.strides[dst.dim++] = o.strides[i];
  }
  copy_view(src, dst);
  return Error::Ok;
}

// aten::repeat_interleave.Tensor_out: index i written repeats[i] times, in
// order (repeats: 1-D Int or Long, non-negative; out has its dtype). A given
// output_size must equal the sum.
Error repeat_interleave_tensor_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* repeats, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Optional<int64_t> output_size, args.optional_int(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  const ScalarType type = repeats->scalar_type();
  TRI_CHECK(type == ScalarType::Int || type == ScalarType::Long, Error::InvalidType,
            "repeats has to be Long or Int tensor, got %s", scalar_type_name(type));
  TRI_CHECK(repeats->dim() == 1, Error::InvalidArgument,
            "repeat_interleave only accept 1D vector as repeat (rank %d)", repeats->dim());
  TRI_TRY(check_same_dtype(*out, type, "out"));
  const TensorView r = TensorView::of(*repeats);
  const char* base = static_cast<const char*>(r.data);
  const int64_t es = static_cast<int64_t>(r.element_size());
  int64_t total = 0;
  for (int64_t i = 0; i < r.sizes[0]; ++i) {
    const int64_t k = load_one<int64_t>(type, base + i * r.strides[0] * es);
    TRI_CHECK(k >= 0, Error::InvalidArgument, "repeats can not be negative (repeats[%" PRId64
              "] = %" PRId64 ")", i, k);
    TRI_CHECK(!__builtin_add_overflow(total, k, &total) && total <= INT32_MAX,
              Error::InvalidArgument, "repeat_interleave: the repeats add up past the size limit");
  }
  TRI_CHECK(!output_size.has_value || output_size.value == total, Error::InvalidArgument,
            "allocated size %" PRId64 " does not match required size %" PRId64,
            output_size.has_value ? output_size.value : 0, total);
  const int64_t sizes[1] = {total};
  TRI_TRY(resize_out(*out, Span<const int64_t>(sizes, 1)));
  const TensorView o = TensorView::of(*out);
  char* dst = static_cast<char*>(o.data);
  int64_t at = 0;
  for (int64_t i = 0; i < r.sizes[0]; ++i) {
    const int64_t k = load_one<int64_t>(type, base + i * r.strides[0] * es);
    for (int64_t j = 0; j < k; ++j, ++at) store_one<int64_t>(type, i, dst + at * o.strides[0] * es);
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
