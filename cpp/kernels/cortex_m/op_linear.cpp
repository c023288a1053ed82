// cortex_m::quantized_linear.out (arm_fully_connected_s8, per-tensor
// requantization) and quantized_batch_matmul.out (arm_batch_matmul_s8).
// CMSIS-NN adds offsets: the exporter passes input_offset = -input zero
// point, output_offset = +output zero point.
#include <cinttypes>

#include "cpp/kernels/cortex_m/cmsis_nn.h"
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

int32_t clamp(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

Error check_int32_vector(const Tensor* t, int64_t n, const char* what) {
  if (t == nullptr) return Error::Ok;
  TRI_CHECK(t->scalar_type() == ScalarType::Int && static_cast<int64_t>(t->numel()) == n && t->is_contiguous(),
            Error::InvalidArgument, "%s must be %" PRId64 " contiguous int32 values", what, n);
  return Error::Ok;
}

}  // namespace

// Without kernel_sum: acc = bias + sum((x + input_offset) * (w + filter_offset)).
// With kernel_sum (exported for MVE cores, which fold the bias and
// input_offset * sum(w) into it; bias is then None):
// acc = kernel_sum + sum(x * w) + filter_offset * sum(x).
// Only the first multiplier and shift are used, as in the backend.
Error cortex_m_quantized_linear_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* in, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* w, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* bias, args.optional_tensor(2));
  TRI_ASSIGN_OR_RETURN(Tensor* kernel_sum, args.optional_tensor(3));
  TRI_ASSIGN_OR_RETURN(const int64_t in_off, args.int_value(4));
  TRI_ASSIGN_OR_RETURN(const int64_t f_off, args.int_value(5));
  TRI_ASSIGN_OR_RETURN(const int64_t out_off, args.int_value(6));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> mults, args.int_list(7));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> shifts, args.int_list(8));
  TRI_ASSIGN_OR_RETURN(const int64_t act_max, args.int_value(9));
  TRI_ASSIGN_OR_RETURN(const int64_t act_min, args.int_value(10));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(11));
  TRI_TRY(check_same_dtype(*in, ScalarType::Char, "input"));
  TRI_TRY(check_same_dtype(*w, ScalarType::Char, "weights"));
  TRI_TRY(check_same_dtype(*out, ScalarType::Char, "out"));
  TRI_CHECK(in->dim() >= 1 && w->dim() == 2 && in->size(in->dim() - 1) == w->size(1),
            Error::InvalidArgument, "input [..., K] and weights [N, K] do not match");
  TRI_CHECK(in->is_contiguous() && w->is_contiguous(), Error::NotSupported,
            "input and weights must be contiguous");
  TRI_CHECK(!mults.empty() && !shifts.empty(), Error::InvalidArgument,
            "requantize_multipliers and requantize_shifts must not be empty");
  TRI_CHECK(shifts[0] >= -31 && shifts[0] <= 30, Error::InvalidArgument,
            "requantize shift %" PRId64 " is outside [-31, 30]", shifts[0]);
  const int64_t k = w->size(1), n = w->size(0);
  TRI_TRY(check_int32_vector(bias, n, "bias"));
  TRI_TRY(check_int32_vector(kernel_sum, n, "kernel_sum"));
  int64_t sizes[kTensorDimLimit];
  for (int32_t d = 0; d + 1 < in->dim(); ++d) sizes[d] = in->size(d);
  sizes[in->dim() - 1] = n;
  TRI_TRY(resize_out(*out, Span<const int64_t>(sizes, static_cast<size_t>(in->dim()))));
  TRI_CHECK(out->is_contiguous(), Error::NotSupported, "out must be contiguous");
  const int64_t rows = k > 0 ? in->numel() / k : 0;
  const int8_t* x = static_cast<const int8_t*>(in->data());
  const int8_t* wt = static_cast<const int8_t*>(w->data());
  const int32_t* b = bias != nullptr ? static_cast<const int32_t*>(bias->data()) : nullptr;
  const int32_t* ks = kernel_sum != nullptr ? static_cast<const int32_t*>(kernel_sum->data()) : nullptr;
  int8_t* o = static_cast<int8_t*>(out->mutable_data());
  const int32_t m0 = static_cast<int32_t>(mults[0]), s0 = static_cast<int32_t>(shifts[0]);
  for (int64_t r = 0; r < rows; ++r) {
    const int8_t* xr = x + r * k;
    int32_t xsum = 0;
    if (ks != nullptr) {
      for (int64_t i = 0; i < k; ++i) xsum += xr[i];
    }
    for (int64_t j = 0; j < n; ++j) {
      const int8_t* wr = wt + j * k;
      int64_t acc = 0;
      if (ks != nullptr) {
        for (int64_t i = 0; i < k; ++i) acc += static_cast<int32_t>(xr[i]) * wr[i];
        acc += static_cast<int64_t>(ks[j]) + f_off * xsum;
      } else {
        for (int64_t i = 0; i < k; ++i) acc += (xr[i] + in_off) * (wr[i] + f_off);
        if (b != nullptr) acc += b[j];
      }
      const int32_t v = cmsis::requantize(cmsis::wrap32(acc), m0, s0) + static_cast<int32_t>(out_off);
      o[r * n + j] = static_cast<int8_t>(clamp(v, static_cast<int32_t>(act_min), static_cast<int32_t>(act_max)));
    }
  }
  return Error::Ok;
}

// lhs [B, M, K] times rhs_transposed [B, N, K]: out [B, M, N]. The three
// "zero point" arguments are CMSIS offsets, added as given.
Error cortex_m_quantized_batch_matmul_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* lhs, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t lhs_off, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(Tensor* rhs, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(const int64_t rhs_off, args.int_value(3));
  TRI_ASSIGN_OR_RETURN(const int64_t out_off, args.int_value(4));
  TRI_ASSIGN_OR_RETURN(const int64_t mult, args.int_value(5));
  TRI_ASSIGN_OR_RETURN(const int64_t shift, args.int_value(6));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(8));
  TRI_TRY(check_same_dtype(*lhs, ScalarType::Char, "lhs"));
  TRI_TRY(check_same_dtype(*rhs, ScalarType::Char, "rhs_transposed"));
  TRI_TRY(check_same_dtype(*out, ScalarType::Char, "out"));
  TRI_CHECK(lhs->dim() == 3 && rhs->dim() == 3 && lhs->size(0) == rhs->size(0) &&
                lhs->size(2) == rhs->size(2),
            Error::InvalidArgument, "lhs [B, M, K] and rhs_transposed [B, N, K] do not match");
  TRI_CHECK(lhs->is_contiguous() && rhs->is_contiguous(), Error::NotSupported,
            "lhs and rhs_transposed must be contiguous");
  TRI_CHECK(shift >= -31 && shift <= 30, Error::InvalidArgument,
            "output_shift %" PRId64 " is outside [-31, 30]", shift);
  const int64_t bs = lhs->size(0), m = lhs->size(1), k = lhs->size(2), n = rhs->size(1);
  const int64_t sizes[3] = {bs, m, n};
  TRI_TRY(resize_out(*out, Span<const int64_t>(sizes, 3)));
  TRI_CHECK(out->is_contiguous(), Error::NotSupported, "out must be contiguous");
  const int8_t* a = static_cast<const int8_t*>(lhs->data());
  const int8_t* b = static_cast<const int8_t*>(rhs->data());
  int8_t* o = static_cast<int8_t*>(out->mutable_data());
  for (int64_t bi = 0; bi < bs; ++bi) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        int64_t acc = 0;
        const int8_t* ar = a + (bi * m + i) * k;
        const int8_t* br = b + (bi * n + j) * k;
        for (int64_t t = 0; t < k; ++t) acc += (ar[t] + lhs_off) * (br[t] + rhs_off);
        const int32_t v = cmsis::requantize(cmsis::wrap32(acc), static_cast<int32_t>(mult),
                                            static_cast<int32_t>(shift)) + static_cast<int32_t>(out_off);
        o[(bi * m + i) * n + j] = static_cast<int8_t>(clamp(v, -128, 127));
      }
    }
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
