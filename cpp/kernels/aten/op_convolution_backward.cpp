// aten::convolution_backward.out: the three gradients of aten::convolution.
// - grad_input is itself a convolution of grad_output with the same weight
//   in the other direction (plain <-> transposed), so it runs through
//   util/conv_forward with the roles of image and grid swapped;
// - grad_weight is util/conv_weight_grad;
// - grad_bias sums grad_output over every dim but the channels.
// Outs whose output_mask entry is false are left alone.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/conv_plan.h"
#include "cpp/kernels/util/conv_weight_grad.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/fill.h"
#include "cpp/kernels/util/reduce_sum.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

// The forward problem p seen backwards: grad_output in, grad_input out.
ConvProblem backwards(const ConvProblem& p, Tensor& go, Tensor& dx) {
  ConvProblem b = p;
  b.transposed = !p.transposed;
  b.in_ch = p.out_ch;
  b.out_ch = p.in_ch;
  b.input = &go;
  b.bias = nullptr;
  b.out = &dx;
  conv_strides5(go, b.in_st);
  conv_strides5(dx, b.out_st);
  return b;
}

Error input_grad(KernelContext& ctx, const ConvProblem& p, Tensor& go, Tensor& dx) {
  if (dx.numel() == 0) return Error::Ok;
  if (go.numel() == 0) {
    fill_scalar(dx, Scalar{});  // Scalar{} is 0
    return Error::Ok;
  }
  return run_convolution(ctx, backwards(p, go, dx));
}

void bias_grad(const Tensor& go, Tensor& db) {
  bool mask[kTensorDimLimit] = {};
  for (int32_t d = 0; d < go.dim(); ++d) mask[d] = d != 1;
  ReducePlan plan;
  make_reduce_plan(go, mask, false, &plan);
  reduce_sum(plan, TensorView::of(db), 1.0);
}

}  // namespace

Error convolution_backward_out(KernelContext& context, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* go, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* input, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* weight, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(const Optional<Span<const int64_t>> bias_sizes, args.optional_int_list(3));
  TRI_ASSIGN_OR_RETURN(const Span<const bool> mask, args.bool_list(10));
  TRI_ASSIGN_OR_RETURN(Tensor* dx, args.tensor(11));
  TRI_ASSIGN_OR_RETURN(Tensor* dw, args.tensor(12));
  TRI_ASSIGN_OR_RETURN(Tensor* db, args.tensor(13));
  TRI_CHECK(mask.size() == 3, Error::InvalidArgument, "output_mask must have 3 entries, got %zu",
            mask.size());
  ConvProblem p;
  int64_t shape[5];
  TRI_TRY(plan_convolution(args, 4, *input, *weight, p, shape));
  TRI_TRY(check_dtype(input->scalar_type(), kFloatHBTypes, "input"));
  TRI_TRY(check_same_dtype(*weight, input->scalar_type(), "weight"));
  TRI_TRY(check_same_dtype(*go, input->scalar_type(), "grad_output"));
  bool same = go->dim() == input->dim();
  for (int32_t d = 0; same && d < go->dim(); ++d) same = go->size(d) == shape[d];
  TRI_CHECK(same, Error::InvalidArgument,
            "grad_output must have the convolution's output shape [%" PRId64 ", %" PRId64 ", ...]",
            shape[0], shape[1]);
  if (mask[2] && bias_sizes.has_value) {
    const Span<const int64_t> bs = bias_sizes.value;
    TRI_CHECK(bs.size() == 1 && bs[0] == p.out_ch, Error::InvalidArgument,
              "bias_sizes must be [%" PRId64 "]", p.out_ch);
  }
  if (mask[0]) {
    TRI_TRY(check_same_dtype(*dx, input->scalar_type(), "out0"));
    TRI_TRY(resize_out(*dx, input->sizes(), "out0"));
  }
  if (mask[1]) {
    TRI_TRY(check_same_dtype(*dw, input->scalar_type(), "out1"));
    TRI_TRY(resize_out(*dw, weight->sizes(), "out1"));
  }
  if (mask[2]) {
    TRI_TRY(check_same_dtype(*db, input->scalar_type(), "out2"));
    const int64_t bshape[] = {p.out_ch};
    TRI_TRY(resize_out(*db, Span<const int64_t>(bshape, 1), "out2"));
  }
  if (mask[1]) {
    if (go->numel() == 0) {
      fill_scalar(*dw, Scalar{});
    } else {
      TRI_TRY(conv_weight_grad(context, p, *go, *dw));
    }
  }
  // The weight gradient's scratch is done with: the input gradient reuses it.
  if (context.temp != nullptr) context.temp->reset();
  if (mask[0]) TRI_TRY(input_grad(context, p, *go, *dx));
  if (mask[2]) bias_grad(*go, *db);
  return Error::Ok;
}

// The larger of the two gradients' scratch: they run one after the other.
size_t convolution_backward_out_scratch(KernelArgs& args) {
  Result<Tensor*> go = args.tensor(0);
  Result<Tensor*> input = args.tensor(1);
  Result<Tensor*> weight = args.tensor(2);
  Result<Span<const bool>> mask = args.bool_list(10);
  Result<Tensor*> dx = args.tensor(11);
  Result<Tensor*> dw = args.tensor(12);
  if (!go.ok() || !input.ok() || !weight.ok() || !mask.ok() || !dx.ok() || !dw.ok() ||
      mask->size() != 3 || (*go)->dim() != (*input)->dim()) {
    return 0;
  }
  ConvProblem p;
  int64_t shape[5];
  if (plan_convolution(args, 4, **input, **weight, p, shape) != Error::Ok) return 0;
  // grad_output must have the forward output's shape (the kernel checks):
  // that also bounds the geometry's products by real tensor sizes.
  for (int32_t d = 0; d < (*go)->dim(); ++d) {
    if (shape[d] != (*go)->size(d)) return 0;
  }
  size_t most = 0;
  if ((*mask)[1]) most = conv_weight_grad_scratch(p, **go, **dw);
  if ((*mask)[0] && (*dx)->dim() == (*input)->dim()) {
    const size_t input = convolution_scratch(backwards(p, **go, **dx));
    if (input > most) most = input;
  }
  return most;
}

}  // namespace kernels
}  // namespace tri
