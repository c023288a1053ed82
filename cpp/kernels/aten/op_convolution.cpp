// aten::convolution.out: plain or transposed convolution over 1-3 spatial
// dims with groups, for [N, C, *spatial] input in any dim order. Checks in
// util/conv_plan; the work is in util/conv_forward.
#include <cinttypes>

#include "cpp/kernels/aten/op_convolution.h"
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/conv_plan.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error convolution_out(KernelContext& context, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(9));
  return convolution_into(context, args, *out, ChannelAffine());
}

Error convolution_into(KernelContext& context, KernelArgs& args, Tensor& out_tensor,
                       const ChannelAffine& affine, bool out_over_input) {
  TRI_ASSIGN_OR_RETURN(Tensor* input, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* weight, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* bias, args.optional_tensor(2));
  Tensor* out = &out_tensor;
  ConvProblem p;
  int64_t shape[5];
  TRI_TRY(plan_convolution(args, 3, *input, *weight, p, shape));
  TRI_TRY(check_dtype(input->scalar_type(), kRealHBTypes, "input"));
  TRI_TRY(check_same_dtype(*weight, input->scalar_type(), "weight"));
  TRI_TRY(check_same_dtype(*out, input->scalar_type(), "out"));
  if (bias != nullptr) {
    TRI_TRY(check_same_dtype(*bias, input->scalar_type(), "bias"));
    TRI_CHECK(bias->dim() == 1 && bias->size(0) == p.out_ch, Error::InvalidArgument,
              "bias must have shape [%" PRId64 "]", p.out_ch);
  }
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, input->dim())));
  conv_strides5(*out, p.out_st);
  p.bias = bias;
  p.out = out;
  p.affine = affine;
  p.out_over_input = out_over_input;
  if (out->numel() == 0) return Error::Ok;
  return run_convolution(context, p);
}

// Arguments the kernel would refuse take nothing: it reports them itself.
size_t convolution_out_scratch(KernelArgs& args) {
  Result<Tensor*> input = args.tensor(0);
  Result<Tensor*> weight = args.tensor(1);
  Result<Tensor*> bias = args.optional_tensor(2);
  Result<Tensor*> out = args.tensor(9);
  if (!input.ok() || !weight.ok() || !bias.ok() || !out.ok() || (*out)->dim() != (*input)->dim()) {
    return 0;
  }
  ConvProblem p;
  int64_t shape[5];
  if (plan_convolution(args, 3, **input, **weight, p, shape) != Error::Ok) return 0;
  // An out that cannot take the shape fails the kernel; checking it here
  // also bounds the geometry's products by real tensor sizes.
  for (int32_t d = 0; d < (*out)->dim(); ++d) {
    if (shape[d] > (*out)->size(d)) return 0;
  }
  conv_strides5(**out, p.out_st);
  p.bias = *bias;
  p.out = *out;
  return convolution_scratch(p);
}

}  // namespace kernels
}  // namespace tri
