// quantized_decomposed::embedding_byte / embedding_4bit / embedding_2bit
// (.out and .dtype_out): rows of a quantized table, dequantized as
// (q - zero_point) * scale in float32 (ExecuTorch's kernels' arithmetic).
// Scales are one per row ([V]) or per group of D / G columns ([V, G]).
// 4-bit rows hold two values per byte, the high nibble first, offset by 8;
// 2-bit rows four, the lowest two bits first, offset by 2.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/tensor_view.h"

namespace tri {
namespace kernels {
namespace {

constexpr uint32_t kHalfOrFloat = dtype_bit(ScalarType::Float) | dtype_bit(ScalarType::Half);

int32_t unpack(const uint8_t* row, int64_t j, int32_t nbit) {
  if (nbit == 8) return 0;  // read by the caller with the weight's signedness
  if (nbit == 4) {
    const uint8_t b = row[j / 2];
    return ((j % 2 == 0) ? (b >> 4) : b) & 15;
  }
  const uint8_t b = row[j / 4];
  return ((b >> (2 * (j % 4))) & 3);
}

Error embedding_impl(KernelArgs& args, int32_t nbit, bool dtype_overload) {
  TRI_ASSIGN_OR_RETURN(Tensor* weight, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* scales, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* zero_points, args.optional_tensor(2));
  TRI_ASSIGN_OR_RETURN(const int64_t qmin, args.int_value(3));
  TRI_ASSIGN_OR_RETURN(const int64_t qmax, args.int_value(4));
  TRI_ASSIGN_OR_RETURN(Tensor* indices, args.tensor(5));
  Optional<ScalarType> dtype;
  size_t out_index = 6;
  if (dtype_overload) {
    TRI_ASSIGN_OR_RETURN(dtype, args.optional_scalar_type(6));
    out_index = 7;
  }
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(out_index));
  TRI_CHECK(qmin <= qmax, Error::InvalidArgument,
            "weight_quant_min %" PRId64 " is greater than weight_quant_max %" PRId64, qmin, qmax);
  const ScalarType wt = weight->scalar_type();
  TRI_CHECK(wt == ScalarType::Byte || wt == ScalarType::Char, Error::InvalidType,
            "weight must be uint8 or int8, got %s", scalar_type_name(wt));
  TRI_CHECK(weight->dim() == 2, Error::InvalidArgument, "weight must be 2-D, got rank %d",
            weight->dim());
  TRI_CHECK(weight->is_contiguous() && scales->is_contiguous() && indices->is_contiguous(),
            Error::NotSupported, "weight, weight_scales and indices must be contiguous");
  const int64_t rows = weight->size(0);
  const int64_t dim = static_cast<int64_t>(weight->size(1)) * (8 / nbit);
  TRI_TRY(check_dtype(scales->scalar_type(), kHalfOrFloat, "weight_scales"));
  TRI_TRY(check_dtype(out->scalar_type(), kHalfOrFloat, "out"));
  if (dtype_overload) {
    if (dtype.has_value) TRI_TRY(check_same_dtype(*out, dtype.value, "out"));
  } else {
    TRI_TRY(check_same_dtype(*out, scales->scalar_type(), "out"));
  }
  TRI_CHECK(scales->dim() == 1 || scales->dim() == 2, Error::InvalidArgument,
            "weight_scales must be 1-D or 2-D, got rank %d", scales->dim());
  TRI_CHECK(scales->size(0) == rows, Error::InvalidArgument,
            "weight_scales has %d rows, weight has %" PRId64, scales->size(0), rows);
  const int64_t groups = scales->dim() == 2 ? scales->size(1) : 1;
  TRI_CHECK(groups > 0 && dim % groups == 0, Error::InvalidArgument,
            "%" PRId64 " groups do not divide the embedding size %" PRId64, groups, dim);
  const int64_t group_size = dim / groups;
  if (zero_points != nullptr) {
    TRI_CHECK(zero_points->dim() == scales->dim() && zero_points->numel() == scales->numel() &&
                  zero_points->is_contiguous(),
              Error::InvalidArgument, "weight_zero_points must have weight_scales' shape");
    TRI_TRY(check_dtype(zero_points->scalar_type(), kHalfOrFloat, "weight_zero_points"));
  }
  const ScalarType it = indices->scalar_type();
  TRI_CHECK(it == ScalarType::Long || it == ScalarType::Int, Error::InvalidType,
            "indices must be int64 or int32, got %s", scalar_type_name(it));
  TRI_CHECK(indices->dim() < static_cast<int32_t>(kTensorDimLimit), Error::NotSupported,
            "indices of rank %d leave no room for the embedding dimension", indices->dim());
  int64_t out_sizes[kTensorDimLimit];
  for (int32_t d = 0; d < indices->dim(); ++d) out_sizes[d] = indices->size(d);
  out_sizes[indices->dim()] = dim;
  TRI_TRY(resize_out(*out, Span<const int64_t>(out_sizes, static_cast<size_t>(indices->dim()) + 1)));
  TRI_CHECK(out->is_contiguous(), Error::NotSupported, "out must be contiguous");
  const uint8_t* w = static_cast<const uint8_t*>(weight->data());
  const int64_t row_bytes = weight->size(1);
  const char* sp = static_cast<const char*>(scales->data());
  const char* zp = zero_points != nullptr ? static_cast<const char*>(zero_points->data()) : nullptr;
  const ScalarType st = scales->scalar_type();
  const size_t ses = element_size(st);
  const ScalarType zt = zero_points != nullptr ? zero_points->scalar_type() : st;
  const size_t zes = element_size(zt);
  const ScalarType ot = out->scalar_type();
  const size_t oes = element_size(ot);
  char* o = static_cast<char*>(out->mutable_data());
  const int64_t offset = nbit == 4 ? 8 : (nbit == 2 ? 2 : 0);
  const int64_t n = indices->numel();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = load_one<int64_t>(it, static_cast<const char*>(indices->data()) +
                                                i * static_cast<int64_t>(element_size(it)));
    TRI_CHECK(r >= 0 && r < rows, Error::InvalidArgument,
              "indices[%" PRId64 "] = %" PRId64 " is out of range for %" PRId64 " rows", i, r, rows);
    const uint8_t* row = w + r * row_bytes;
    for (int64_t j = 0; j < dim; ++j) {
      int32_t q;
      if (nbit == 8) {
        q = wt == ScalarType::Char ? static_cast<int8_t>(row[j]) : row[j];
      } else {
        q = unpack(row, j, nbit) - static_cast<int32_t>(offset);
      }
      const int64_t s_at = r * groups + j / group_size;
      const float scale = load_one<float>(st, sp + s_at * static_cast<int64_t>(ses));
      const float z = zp != nullptr ? load_one<float>(zt, zp + s_at * static_cast<int64_t>(zes)) : 0.0f;
      const float v = (static_cast<float>(q) - z) * scale;
      store_one<float>(ot, v, o + (i * dim + j) * static_cast<int64_t>(oes));
    }
  }
  return Error::Ok;
}

}  // namespace

Error embedding_byte_out(KernelContext&, KernelArgs& a) { return embedding_impl(a, 8, false); }
Error embedding_byte_dtype_out(KernelContext&, KernelArgs& a) { return embedding_impl(a, 8, true); }
Error embedding_4bit_out(KernelContext&, KernelArgs& a) { return embedding_impl(a, 4, false); }
Error embedding_4bit_dtype_out(KernelContext&, KernelArgs& a) { return embedding_impl(a, 4, true); }
Error embedding_2bit_out(KernelContext&, KernelArgs& a) { return embedding_impl(a, 2, false); }
Error embedding_2bit_dtype_out(KernelContext&, KernelArgs& a) { return embedding_impl(a, 2, true); }

}  // namespace kernels
}  // namespace tri
