// Batch normalization over dim 1 of [N, C, *] input, any dim order:
// native_batch_norm.out (torch 1.13's name), _native_batch_norm_legit.out and
// .no_stats_out, _native_batch_norm_legit_no_training.out. Training uses the
// batch statistics (biased variance) and updates the running ones with the
// unbiased variance; evaluation uses the running statistics and gives empty
// [0] save_mean / save_invstd, as ATen's CPU kernel.
#include <cinttypes>
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/norm_affine.h"
#include "cpp/kernels/util/norm_args.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/scratch_size.h"

namespace tri {
namespace kernels {
namespace {

struct BatchNorm {
  Tensor* input;
  const Tensor* weight;
  const Tensor* bias;
  Tensor* running_mean;  // null with running_var for "no stats"
  Tensor* running_var;
  bool training;
  double momentum;
  double eps;
  Tensor* out;
  Tensor* save_mean;
  Tensor* save_invstd;
};

// Channel c of a view (size 1 at dim 1).
TensorView channel_of(const TensorView& v, int64_t c) { return narrow_view(v, 1, c, 1); }

template <typename C>
void apply(KernelContext& ctx, const BatchNorm& bn, int64_t channels) {
  const TensorView x = TensorView::of(*bn.input);
  const TensorView out = TensorView::of(*bn.out);
  // Per-channel scale and shift for one pass over the whole tensor (in its
  // memory order: channels-last stays sequential); without temp, one pass
  // per channel.
  C* coef = ctx.temp != nullptr ? ctx.temp->allocate_array<C>(2 * static_cast<size_t>(channels))
                                : nullptr;
  const double n = static_cast<double>(bn.input->numel()) / static_cast<double>(channels);
  for (int64_t c = 0; c < channels; ++c) {
    double mean = 0;
    double invstd = 0;
    if (bn.training) {
      double var = 0;
      moments(channel_of(x, c), &mean, &var);
      invstd = inv_std(var, bn.eps);
      char* sm = static_cast<char*>(bn.save_mean->mutable_data());
      char* si = static_cast<char*>(bn.save_invstd->mutable_data());
      store_one<double>(bn.save_mean->scalar_type(), mean,
                        sm + c * bn.save_mean->strides()[0] * bn.save_mean->element_size());
      store_one<double>(bn.save_invstd->scalar_type(), invstd,
                        si + c * bn.save_invstd->strides()[0] * bn.save_invstd->element_size());
      if (bn.running_mean != nullptr) {
        const double m = bn.momentum;
        const double rm = param_at(bn.running_mean, c, 0);
        const double rv = param_at(bn.running_var, c, 0);
        const double unbiased = var * n / (n - 1);
        store_one<double>(bn.running_mean->scalar_type(), m * mean + (1 - m) * rm,
                          static_cast<char*>(bn.running_mean->mutable_data()) +
                              c * bn.running_mean->strides()[0] * bn.running_mean->element_size());
        store_one<double>(bn.running_var->scalar_type(), m * unbiased + (1 - m) * rv,
                          static_cast<char*>(bn.running_var->mutable_data()) +
                              c * bn.running_var->strides()[0] * bn.running_var->element_size());
      }
    } else {
      mean = param_at(bn.running_mean, c, 0);
      invstd = 1.0 / std::sqrt(param_at(bn.running_var, c, 1) + bn.eps);
    }
    const C alpha = static_cast<C>(invstd * param_at(bn.weight, c, 1));
    const C beta = static_cast<C>(param_at(bn.bias, c, 0) - mean * static_cast<double>(alpha));
    if (coef != nullptr) {
      coef[c] = alpha;
      coef[channels + c] = beta;
    } else {
      const TensorView s = TensorView::scalar(&alpha, dtype_of<C>());
      const TensorView t = TensorView::scalar(&beta, dtype_of<C>());
      affine_apply<C>(channel_of(out, c), channel_of(x, c), C(1), C(0), &s, &t);
    }
  }
  if (coef != nullptr) {
    const int32_t rank = bn.input->dim();
    const TensorView s = channel_view(coef, dtype_of<C>(), rank, 1, channels);
    const TensorView t = channel_view(coef + channels, dtype_of<C>(), rank, 1, channels);
    affine_apply<C>(out, x, C(1), C(0), &s, &t);
  }
}

Error batch_norm(KernelContext& ctx, const BatchNorm& bn) {
  const Tensor& x = *bn.input;
  TRI_CHECK(x.dim() >= 2, Error::InvalidArgument,
            "batch_norm: expected input with at least 2 dims, got rank %d", x.dim());
  TRI_TRY(check_dtype(x.scalar_type(), kFloatHBTypes, "input"));
  TRI_TRY(check_same_dtype(*bn.out, x.scalar_type(), "out"));
  const int64_t channels = x.size(1);
  TRI_TRY(check_param(bn.weight, channels, "weight"));
  TRI_TRY(check_param(bn.bias, channels, "bias"));
  TRI_TRY(check_param(bn.running_mean, channels, "running_mean"));
  TRI_TRY(check_param(bn.running_var, channels, "running_var"));
  TRI_CHECK(bn.training || (bn.running_mean != nullptr && bn.running_var != nullptr),
            Error::InvalidArgument,
            "running_mean and running_var must be defined in evaluation mode");
  TRI_CHECK((bn.running_mean == nullptr) == (bn.running_var == nullptr), Error::InvalidArgument,
            "running_mean and running_var must be both given or both None");
  const int64_t stat_size[] = {bn.training ? channels : 0};
  TRI_TRY(resize_stat(*bn.save_mean, Span<const int64_t>(stat_size, 1), "save_mean"));
  TRI_TRY(resize_stat(*bn.save_invstd, Span<const int64_t>(stat_size, 1), "save_invstd"));
  TRI_TRY(resize_out(*bn.out, x.sizes()));
  if (x.scalar_type() == ScalarType::Double) {
    apply<double>(ctx, bn, channels);
  } else {
    apply<float>(ctx, bn, channels);
  }
  return Error::Ok;
}

// [input, weight?, bias?] at 0..2.
Error read_common(KernelArgs& args, BatchNorm* bn) {
  TRI_ASSIGN_OR_RETURN(bn->input, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* w, args.optional_tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* b, args.optional_tensor(2));
  bn->weight = w;
  bn->bias = b;
  return Error::Ok;
}

// [momentum, eps, out, save_mean, save_invstd] from `i`.
Error read_tail(KernelArgs& args, size_t i, BatchNorm* bn) {
  TRI_ASSIGN_OR_RETURN(bn->momentum, args.double_value(i));
  TRI_ASSIGN_OR_RETURN(bn->eps, args.double_value(i + 1));
  TRI_ASSIGN_OR_RETURN(bn->out, args.tensor(i + 2));
  TRI_ASSIGN_OR_RETURN(bn->save_mean, args.tensor(i + 3));
  TRI_ASSIGN_OR_RETURN(bn->save_invstd, args.tensor(i + 4));
  return Error::Ok;
}

// [input, weight?, bias?, running_mean, running_var, training?, momentum,
// eps, outs...]: native_batch_norm.out (its running stats may be None),
// _native_batch_norm_legit.out and, without `training`, its no_training
// overload.
Error read_with_stats(KernelArgs& args, bool stats_optional, bool has_training, BatchNorm* bn) {
  TRI_TRY(read_common(args, bn));
  TRI_ASSIGN_OR_RETURN(bn->running_mean, stats_optional ? args.optional_tensor(3) : args.tensor(3));
  TRI_ASSIGN_OR_RETURN(bn->running_var, stats_optional ? args.optional_tensor(4) : args.tensor(4));
  bn->training = false;
  if (has_training) {
    TRI_ASSIGN_OR_RETURN(bn->training, args.bool_value(5));
  }
  return read_tail(args, has_training ? 6 : 5, bn);
}

}  // namespace

Error native_batch_norm_out(KernelContext& ctx, KernelArgs& args) {
  BatchNorm bn{};
  TRI_TRY(read_with_stats(args, true, true, &bn));
  return batch_norm(ctx, bn);
}

Error native_batch_norm_legit_out(KernelContext& ctx, KernelArgs& args) {
  BatchNorm bn{};
  TRI_TRY(read_with_stats(args, false, true, &bn));
  return batch_norm(ctx, bn);
}

Error native_batch_norm_legit_no_stats_out(KernelContext& ctx, KernelArgs& args) {
  BatchNorm bn{};
  TRI_TRY(read_common(args, &bn));
  TRI_ASSIGN_OR_RETURN(bn.training, args.bool_value(3));
  TRI_TRY(read_tail(args, 4, &bn));
  return batch_norm(ctx, bn);
}

Error native_batch_norm_legit_no_training_out(KernelContext& ctx, KernelArgs& args) {
  BatchNorm bn{};
  TRI_TRY(read_with_stats(args, false, false, &bn));
  return batch_norm(ctx, bn);
}

// The per-channel coefficients of apply(), in the widest compute type.
size_t batch_norm_scratch(KernelArgs& args) {
  Result<Tensor*> input = args.tensor(0);
  if (!input.ok() || (*input)->dim() < 2) return 0;
  return ScratchSize().add<double>(2 * static_cast<int64_t>((*input)->size(1))).bytes();
}

}  // namespace kernels
}  // namespace tri
