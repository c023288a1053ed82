// quantized_decomposed::mixed_mm.out and mixed_linear.out: a float input
// times an int8 weight scaled per weight row (mixed_mm: weight [n, p], one
// scale per k) or per output channel and group of columns (mixed_linear:
// weight [p, n], scales [p] or [p, G] with groups of ceil(n / G) columns).
// Zero points are not supported, as in ExecuTorch. Sums run in float32;
// Half outputs are rounded once at the end.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

constexpr uint32_t kHalfOrFloat = dtype_bit(ScalarType::Float) | dtype_bit(ScalarType::Half);

Error check_operands(const Tensor& input, const Tensor& weight, const Tensor& scales,
                     const Tensor* zero_points) {
  TRI_CHECK(zero_points == nullptr, Error::NotSupported,
            "weight_zero_points are not supported (ExecuTorch's kernel refuses them too)");
  TRI_TRY(check_dtype(input.scalar_type(), kHalfOrFloat, "input"));
  TRI_CHECK(weight.scalar_type() == ScalarType::Char, Error::InvalidType,
            "weight must be int8, got %s", scalar_type_name(weight.scalar_type()));
  TRI_TRY(check_dtype(scales.scalar_type(), kHalfOrFloat, "weight_scales"));
  TRI_CHECK(input.dim() == 2 && weight.dim() == 2, Error::InvalidArgument,
            "input and weight must be 2-D (ranks %d and %d)", input.dim(), weight.dim());
  TRI_CHECK(input.is_contiguous() && weight.is_contiguous() && scales.is_contiguous(),
            Error::NotSupported, "input, weight and weight_scales must be contiguous");
  return Error::Ok;
}

}  // namespace

Error mixed_mm_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* input, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* weight, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* scales, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(Tensor* zero_points, args.optional_tensor(3));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(4));
  TRI_TRY(check_operands(*input, *weight, *scales, zero_points));
  TRI_TRY(check_same_dtype(*scales, input->scalar_type(), "weight_scales"));
  TRI_TRY(check_same_dtype(*out, input->scalar_type(), "out"));
  const int64_t m = input->size(0), n = input->size(1), p = weight->size(1);
  TRI_CHECK(weight->size(0) == n, Error::InvalidArgument,
            "weight has %d rows, input has %" PRId64 " columns", weight->size(0), n);
  TRI_CHECK(scales->dim() == 1 && scales->size(0) == n, Error::InvalidArgument,
            "weight_scales must be [%" PRId64 "]", n);
  const int64_t sizes[2] = {m, p};
  TRI_TRY(resize_out(*out, Span<const int64_t>(sizes, 2)));
  const ScalarType t = input->scalar_type();
  const size_t es = element_size(t);
  const char* x = static_cast<const char*>(input->data());
  const int8_t* w = static_cast<const int8_t*>(weight->data());
  const char* s = static_cast<const char*>(scales->data());
  char* o = static_cast<char*>(out->mutable_data());
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < p; ++j) {
      float acc = 0;
      for (int64_t k = 0; k < n; ++k) {
        acc += load_one<float>(t, x + (i * n + k) * static_cast<int64_t>(es)) *
               static_cast<float>(w[k * p + j]) * load_one<float>(t, s + k * static_cast<int64_t>(es));
      }
      store_one<float>(t, acc, o + (i * p + j) * static_cast<int64_t>(es));
    }
  }
  return Error::Ok;
}

Error mixed_linear_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* input, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* weight, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* scales, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(Tensor* zero_points, args.optional_tensor(3));
  TRI_ASSIGN_OR_RETURN(const Optional<ScalarType> dtype, args.optional_scalar_type(4));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(5));
  TRI_TRY(check_operands(*input, *weight, *scales, zero_points));
  TRI_TRY(check_same_dtype(*scales, input->scalar_type(), "weight_scales"));
  TRI_TRY(check_dtype(out->scalar_type(), kHalfOrFloat, "out"));
  if (dtype.has_value) TRI_TRY(check_same_dtype(*out, dtype.value, "out"));
  const int64_t m = input->size(0), n = input->size(1), p = weight->size(0);
  TRI_CHECK(weight->size(1) == n, Error::InvalidArgument,
            "weight has %d columns, input has %" PRId64, weight->size(1), n);
  TRI_CHECK((scales->dim() == 1 || scales->dim() == 2) && scales->size(0) == p,
            Error::InvalidArgument, "weight_scales must be [%" PRId64 "] or [%" PRId64 ", G]", p, p);
  const int64_t groups = scales->dim() == 2 ? scales->size(1) : 1;
  TRI_CHECK(groups > 0, Error::InvalidArgument, "weight_scales has no groups");
  const int64_t group_size = n > 0 ? (n + groups - 1) / groups : 1;
  // ExecuTorch indexes the scales with a row stride of ceil(n / g), which
  // is G unless G does not divide n evenly enough; it must stay in bounds.
  const int64_t stride = n > 0 ? (n + group_size - 1) / group_size : 0;
  TRI_CHECK(stride <= groups, Error::InvalidArgument,
            "weight_scales has %" PRId64 " groups per row, the input needs %" PRId64, groups, stride);
  const int64_t sizes[2] = {m, p};
  TRI_TRY(resize_out(*out, Span<const int64_t>(sizes, 2)));
  const ScalarType t = input->scalar_type();
  const ScalarType ot = out->scalar_type();
  const int64_t es = static_cast<int64_t>(element_size(t));
  const int64_t oes = static_cast<int64_t>(element_size(ot));
  const char* x = static_cast<const char*>(input->data());
  const int8_t* w = static_cast<const int8_t*>(weight->data());
  const char* s = static_cast<const char*>(scales->data());
  char* o = static_cast<char*>(out->mutable_data());
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < p; ++j) {
      float sum = 0;
      for (int64_t k0 = 0; k0 < n; k0 += group_size) {
        const int64_t k1 = k0 + group_size < n ? k0 + group_size : n;
        float psum = 0;
        for (int64_t k = k0; k < k1; ++k) {
          psum += load_one<float>(t, x + (i * n + k) * es) * static_cast<float>(w[j * n + k]);
        }
        sum += psum * load_one<float>(t, s + (j * stride + k0 / group_size) * es);
      }
      store_one<float>(ot, sum, o + (i * p + j) * oes);
    }
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
