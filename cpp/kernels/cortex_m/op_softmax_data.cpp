// cortex_m::softmax.out (arm_softmax_s8, TFLite's bit-exact fixed point),
// cortex_m::transpose.out (arm_transpose_s8) and cortex_m::pad.out /
// pad_contiguous.out (arm_pad_s8).
#include <cinttypes>

#include "cpp/kernels/cortex_m/cmsis_nn.h"
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/tensor_view.h"

namespace tri {
namespace kernels {

// Over the last dimension, which is the only one the backend supports.
// The output zero point must be -128 (scale 1/256), as in CMSIS-NN.
Error cortex_m_softmax_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* in, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(const int64_t in_zp, args.int_value(2));
  (void)in_zp;  // the fixed point works on differences from the row max
  TRI_ASSIGN_OR_RETURN(const int64_t out_zp, args.int_value(3));
  TRI_ASSIGN_OR_RETURN(const int64_t mult, args.int_value(4));
  TRI_ASSIGN_OR_RETURN(const int64_t shift, args.int_value(5));
  TRI_ASSIGN_OR_RETURN(const int64_t diff_min, args.int_value(6));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(7));
  TRI_TRY(check_same_dtype(*in, ScalarType::Char, "input"));
  TRI_TRY(check_same_dtype(*out, ScalarType::Char, "out"));
  TRI_CHECK(in->dim() >= 1 && (dim == -1 || dim == in->dim() - 1), Error::NotSupported,
            "softmax runs over the last dimension only (dim %" PRId64 ")", dim);
  TRI_CHECK(out_zp == -128, Error::InvalidArgument,
            "output_zero_point must be -128, got %" PRId64, out_zp);
  TRI_CHECK(shift >= 0 && shift <= 30 && mult >= 0 && mult <= INT32_MAX, Error::InvalidArgument,
            "input_multiplier %" PRId64 " or input_shift %" PRId64 " is out of range", mult, shift);
  TRI_CHECK(diff_min <= 0 && diff_min >= INT32_MIN, Error::InvalidArgument,
            "diff_min %" PRId64 " must be a non-positive int32", diff_min);
  TRI_CHECK(in->is_contiguous(), Error::NotSupported, "input must be contiguous");
  TRI_TRY(resize_out(*out, in->sizes()));
  TRI_CHECK(out->is_contiguous(), Error::NotSupported, "out must be contiguous");
  const int64_t n = in->size(in->dim() - 1);
  const int64_t rows = n > 0 ? in->numel() / n : 0;
  const int8_t* x = static_cast<const int8_t*>(in->data());
  int8_t* o = static_cast<int8_t*>(out->mutable_data());
  for (int64_t r = 0; r < rows; ++r) {
    cmsis::softmax_row_s8(x + r * n, n, static_cast<int32_t>(mult), static_cast<int32_t>(shift),
                          static_cast<int32_t>(diff_min), o + r * n, 1, 1);
  }
  return Error::Ok;
}

// out = input.permute(perm).
Error cortex_m_transpose_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* in, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> perm, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_same_dtype(*in, ScalarType::Char, "input"));
  TRI_TRY(check_same_dtype(*out, ScalarType::Char, "out"));
  const int32_t rank = in->dim();
  TRI_CHECK(rank >= 1 && rank <= 4 && perm.size() == static_cast<size_t>(rank),
            Error::InvalidArgument, "perm must list the %d dims of a rank 1-4 input", rank);
  TensorView v = TensorView::of(*in);
  TensorView p = v;
  bool seen[4] = {};
  for (int32_t i = 0; i < rank; ++i) {
    const int64_t d = perm[static_cast<size_t>(i)];
    TRI_CHECK(d >= 0 && d < rank && !seen[d], Error::InvalidArgument,
              "perm is not a permutation of 0..%d", rank - 1);
    seen[d] = true;
    p.sizes[i] = v.sizes[d];
    p.strides[i] = v.strides[d];
  }
  return copy_into(p, *out);
}

namespace {

// arm_pad_s8 over the input's storage order (rank <= 4, right-aligned to
// {n, h, w, c}); pre/post pads are given in that physical order, and out
// keeps the input's dim order.
Error pad_impl(KernelArgs& args, bool require_contiguous) {
  TRI_ASSIGN_OR_RETURN(Tensor* in, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> pre, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> post, args.int_list(2));
  TRI_ASSIGN_OR_RETURN(const int64_t value, args.int_value(3));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(4));
  TRI_TRY(check_same_dtype(*in, ScalarType::Char, "input"));
  TRI_TRY(check_same_dtype(*out, ScalarType::Char, "out"));
  const int32_t rank = in->dim();
  TRI_CHECK(rank >= 1 && rank <= 4 && pre.size() == 4 && post.size() == 4, Error::InvalidArgument,
            "pad takes a rank 1-4 input and 4 pre and post pads");
  TRI_CHECK(value >= -128 && value <= 127, Error::InvalidArgument,
            "pad_value %" PRId64 " is not an int8", value);
  if (require_contiguous) {
    TRI_CHECK(in->is_contiguous(), Error::InvalidArgument, "input must be contiguous");
  }
  // Physical dims (outermost first) and the logical dim each one is.
  int32_t phys[4];
  for (int32_t i = 0; i < rank; ++i) phys[i] = in->dim_order()[i];
  int64_t out_sizes[kTensorDimLimit];
  for (int32_t i = 0; i < rank; ++i) out_sizes[i] = in->size(i);
  for (int32_t i = 0; i < rank; ++i) {
    const size_t slot = static_cast<size_t>(4 - rank + i);
    TRI_CHECK(pre[slot] >= 0 && post[slot] >= 0, Error::InvalidArgument, "pads must be non-negative");
    out_sizes[phys[i]] += pre[slot] + post[slot];
  }
  TRI_TRY(resize_out(*out, Span<const int64_t>(out_sizes, static_cast<size_t>(rank))));
  for (int32_t i = 0; i < rank; ++i) {
    TRI_CHECK(out->dim_order()[i] == phys[i], Error::InvalidArgument,
              "out must keep the input's dim order");
  }
  const TensorView iv = TensorView::of(*in);
  const TensorView ov = TensorView::of(*out);
  int8_t* o = static_cast<int8_t*>(ov.data);
  for (int64_t i = 0; i < ov.numel(); ++i) o[i] = static_cast<int8_t>(value);
  // The input, placed at the pre offsets of out.
  TensorView inner = ov;
  char* base = static_cast<char*>(ov.data);
  for (int32_t i = 0; i < rank; ++i) {
    const int32_t d = phys[i];
    base += pre[static_cast<size_t>(4 - rank + i)] * ov.strides[d];
    inner.sizes[d] = iv.sizes[d];
  }
  inner.data = base;
  copy_view(iv, inner);
  return Error::Ok;
}

}  // namespace

Error cortex_m_pad_out(KernelContext&, KernelArgs& args) { return pad_impl(args, false); }
Error cortex_m_pad_contiguous_out(KernelContext&, KernelArgs& args) { return pad_impl(args, true); }

}  // namespace kernels
}  // namespace tri
