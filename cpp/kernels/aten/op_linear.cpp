// aten::linear.out: out = input @ weight^T (+ bias). input [*, in], weight
// [out_features, in] (or [in]: then the last dim is dropped), bias
// broadcastable to out. Leading dims of input are merged into the rows of one
// gemm when their strides allow, else the gemm runs per outer index.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/broadcast.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/elementwise.h"
#include "cpp/kernels/util/matmul.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

// True if dims [0, lead) of t merge into one dim; *stride is its stride
// (size-1 dims have arbitrary strides, so they are skipped).
bool merged_stride(const Tensor& t, int32_t lead, int64_t* stride) {
  int64_t inner_stride = 0;
  int64_t inner_size = 0;
  for (int32_t d = lead - 1; d >= 0; --d) {
    if (t.size(d) == 1) continue;
    if (inner_size != 0 && t.strides()[d] != inner_stride * inner_size) return false;
    if (inner_size == 0) *stride = t.strides()[d];
    inner_stride = t.strides()[d];
    inner_size = t.size(d);
  }
  if (inner_size == 0) *stride = 0;
  return true;
}

}  // namespace

Error linear_out(KernelContext& context, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* input, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* weight, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* bias, args.optional_tensor(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  const int32_t rank = input->dim();
  TRI_CHECK(rank >= 1, Error::InvalidArgument, "input must have at least 1 dim, got rank 0");
  TRI_CHECK(weight->dim() == 1 || weight->dim() == 2, Error::InvalidArgument,
            "weight must be 1D or 2D, got rank %d", weight->dim());
  const int64_t k = input->size(rank - 1);
  const bool vec = weight->dim() == 1;
  const int64_t n = vec ? 1 : weight->size(0);
  TRI_CHECK(weight->size(weight->dim() - 1) == k, Error::InvalidArgument,
            "input's last dim (%" PRId64 ") does not match weight's in_features (%" PRId32 ")", k,
            weight->size(weight->dim() - 1));
  TRI_TRY(check_dtype(input->scalar_type(), kRealHBTypes, "input"));
  TRI_TRY(check_same_dtype(*weight, input->scalar_type(), "weight"));
  TRI_TRY(check_same_dtype(*out, input->scalar_type(), "out"));
  SizesType shape[kTensorDimLimit];
  for (int32_t d = 0; d + 1 < rank; ++d) shape[d] = input->size(d);
  const int32_t out_rank = vec ? rank - 1 : rank;
  if (!vec) shape[rank - 1] = static_cast<SizesType>(n);
  if (bias != nullptr) {
    TRI_TRY(check_same_dtype(*bias, input->scalar_type(), "bias"));
    char text[64];
    TRI_CHECK(broadcastable_to(bias->sizes(), Span<const SizesType>(shape, out_rank)),
              Error::InvalidArgument, "bias of shape %s cannot be broadcast to the output",
              format_sizes(bias->sizes(), text, sizeof(text)));
  }
  TRI_TRY(resize_out(*out, Span<const SizesType>(shape, out_rank)));
  const int64_t es = static_cast<int64_t>(input->element_size());
  const AnyMat w{static_cast<char*>(weight->mutable_data()), weight->scalar_type(),
                 weight->strides()[weight->dim() - 1] * es,
                 vec ? es : weight->strides()[0] * es};
  // Rows: input dims [0, rank - 1) (out dims [0, out_rank - vec)).
  const int32_t lead = rank - 1;
  const int64_t in_cs = input->strides()[rank - 1] * es;
  const int64_t out_cs = vec ? es : out->strides()[out_rank - 1] * es;
  char* in_data = static_cast<char*>(input->mutable_data());
  char* out_data = static_cast<char*>(out->mutable_data());
  MemoryAllocator scratch = carve_rest(context.temp);
  KernelContext sub{&scratch, context.user_data};
  // A float bias row starts the gemm's sums (no pass over out after it).
  const float* row = bias != nullptr ? f32_bias_row(*bias, n) : nullptr;
  auto product = [&](int64_t m, const AnyMat& a, const AnyMat& c) {
    if (row != nullptr) {
      matmul_add_row_f32(sub, m, n, k, a, w, c, row);
    } else {
      matmul_any(sub, m, n, k, a, w, c);
    }
  };
  int64_t in_rs = 0;
  int64_t out_rs = 0;
  if (lead == 0) {
    product(1, AnyMat{in_data, input->scalar_type(), 0, in_cs},
            AnyMat{out_data, out->scalar_type(), 0, out_cs});
  } else if (merged_stride(*input, lead, &in_rs) && merged_stride(*out, lead, &out_rs)) {
    int64_t m = 1;
    for (int32_t d = 0; d < lead; ++d) m *= input->size(d);
    product(m, AnyMat{in_data, input->scalar_type(), in_rs * es, in_cs},
            AnyMat{out_data, out->scalar_type(), out_rs * es, out_cs});
  } else {
    // Odometer over dims [0, lead - 1); the gemm covers dim lead - 1.
    int64_t index[kTensorDimLimit] = {};
    int64_t outer = 1;
    for (int32_t d = 0; d + 1 < lead; ++d) outer *= input->size(d);
    for (int64_t it = 0; it < outer; ++it) {
      int64_t in_off = 0;
      int64_t out_off = 0;
      for (int32_t d = 0; d + 1 < lead; ++d) {
        in_off += index[d] * input->strides()[d] * es;
        out_off += index[d] * out->strides()[d] * es;
      }
      scratch.reset();
      product(input->size(lead - 1),
              AnyMat{in_data + in_off, input->scalar_type(), input->strides()[lead - 1] * es,
                     in_cs},
              AnyMat{out_data + out_off, out->scalar_type(), out->strides()[lead - 1] * es,
                     out_cs});
      for (int32_t d = lead - 2; d >= 0; --d) {
        if (++index[d] < input->size(d)) break;
        index[d] = 0;
      }
    }
  }
  if (bias == nullptr || row != nullptr) {
    return Error::Ok;
  }
  const TensorView out_v = TensorView::of(*out);
  return map2<kComputeAll>(out->scalar_type(), out_v, TensorView::of(*bias), out_v,
                           [](auto tag) {
                             using C = typename decltype(tag)::type;
                             return [](C x, C b) -> C { return arith_add(x, b); };
                           });
}

// The largest gemm linear_out runs: all leading dims merged into its rows.
size_t linear_scratch(KernelArgs& args) {
  Result<Tensor*> input = args.tensor(0);
  Result<Tensor*> weight = args.tensor(1);
  if (!input.ok() || !weight.ok() || (*input)->dim() < 1 || (*weight)->dim() < 1) return 0;
  const Tensor& in = **input;
  const int64_t k = in.size(in.dim() - 1);
  const int64_t rows = k == 0 ? 0 : static_cast<int64_t>(in.numel()) / k;
  const int64_t n = (*weight)->dim() == 1 ? 1 : (*weight)->size(0);
  return carved_matmul_scratch(in.scalar_type(), rows, n, k);
}

}  // namespace kernels
}  // namespace tri
