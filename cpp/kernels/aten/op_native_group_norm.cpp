// aten::native_group_norm.out: input seen as [N, C, HxW]; each of the
// `group` groups of C / group channels is normalized per sample (biased
// variance), then scaled per channel. out1 / out2 (mean, rstd) are [N, group].
#include <cmath>
#include <cstdint>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/group_norm_shape.h"
#include "cpp/kernels/util/norm_affine.h"
#include "cpp/kernels/util/norm_args.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/scratch_size.h"

namespace tri {
namespace kernels {
namespace {

struct GroupNorm {
  TensorView x, out;  // [N, C, ...]
  const Tensor* weight;
  const Tensor* bias;
  Tensor* mean;
  Tensor* rstd;
  int64_t n, c, group;
  double eps;
};

void store_at(Tensor* t, int64_t i, double v) {
  store_one<double>(t->scalar_type(), v,
                    static_cast<char*>(t->mutable_data()) + i * static_cast<int64_t>(t->element_size()));
}

template <typename C>
void group_norm(KernelContext& ctx, const GroupNorm& g) {
  const int64_t cg = g.c / g.group;
  C* coef = ctx.temp != nullptr ? ctx.temp->allocate_array<C>(2 * static_cast<size_t>(cg)) : nullptr;
  for (int64_t n = 0; n < g.n; ++n) {
    const TensorView xs = narrow_view(g.x, 0, n, 1);
    const TensorView os = narrow_view(g.out, 0, n, 1);
    for (int64_t k = 0; k < g.group; ++k) {
      const TensorView xg = narrow_view(xs, 1, k * cg, cg);
      const TensorView og = narrow_view(os, 1, k * cg, cg);
      double mean = 0;
      double var = 0;
      moments(xg, &mean, &var);
      const double rstd = rstd_of(var, g.eps);
      store_at(g.mean, n * g.group + k, mean);
      store_at(g.rstd, n * g.group + k, rstd);
      for (int64_t j = 0; j < cg; ++j) {
        const int64_t c = k * cg + j;
        const C alpha = static_cast<C>(rstd * param_at(g.weight, c, 1));
        const C beta = static_cast<C>(param_at(g.bias, c, 0) - mean * static_cast<double>(alpha));
        if (coef != nullptr) {
          coef[j] = alpha;
          coef[cg + j] = beta;
        } else {
          const TensorView s = TensorView::scalar(&alpha, dtype_of<C>());
          const TensorView t = TensorView::scalar(&beta, dtype_of<C>());
          affine_apply<C>(narrow_view(og, 1, j, 1), narrow_view(xg, 1, j, 1), C(1), C(0), &s, &t);
        }
      }
      if (coef != nullptr) {
        const TensorView s = channel_view(coef, dtype_of<C>(), xg.dim, 1, cg);
        const TensorView t = channel_view(coef + cg, dtype_of<C>(), xg.dim, 1, cg);
        affine_apply<C>(og, xg, C(1), C(0), &s, &t);
      }
    }
  }
}

}  // namespace

Error native_group_norm_out(KernelContext& ctx, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* input, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* weight, args.optional_tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* bias, args.optional_tensor(2));
  TRI_ASSIGN_OR_RETURN(const int64_t n, args.int_value(3));
  TRI_ASSIGN_OR_RETURN(const int64_t c, args.int_value(4));
  TRI_ASSIGN_OR_RETURN(const int64_t hxw, args.int_value(5));
  TRI_ASSIGN_OR_RETURN(const int64_t group, args.int_value(6));
  TRI_ASSIGN_OR_RETURN(const double eps, args.double_value(7));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(8));
  TRI_ASSIGN_OR_RETURN(Tensor* mean, args.tensor(9));
  TRI_ASSIGN_OR_RETURN(Tensor* rstd, args.tensor(10));
  TRI_TRY(check_dtype(input->scalar_type(), kFloatHBTypes, "input"));
  TRI_TRY(check_same_dtype(*out, input->scalar_type(), "out0"));
  TRI_TRY(check_group_norm_shape(*input, n, c, hxw, group));
  TRI_TRY(check_param(weight, c, "weight"));
  TRI_TRY(check_param(bias, c, "bias"));
  const bool strided = input->dim() >= 2 && input->size(0) == n && input->size(1) == c;
  const int64_t stat_shape[] = {n, group};
  TRI_TRY(resize_stat(*mean, Span<const int64_t>(stat_shape, 2), "out1"));
  TRI_TRY(resize_stat(*rstd, Span<const int64_t>(stat_shape, 2), "out2"));
  TRI_TRY(resize_out(*out, input->sizes(), "out0"));
  TRI_CHECK(strided || TensorView::of(*out).is_row_major(), Error::NotSupported,
            "out0 not of shape [N, C, *] must be contiguous");
  TRI_CHECK(TensorView::of(*mean).is_row_major() && TensorView::of(*rstd).is_row_major(),
            Error::NotSupported, "out1 and out2 must be contiguous");
  GroupNorm g{group_norm_view(*input, n, c, hxw), group_norm_view(*out, n, c, hxw), weight, bias, mean, rstd,
              n, c, group, eps};
  if (input->scalar_type() == ScalarType::Double) {
    group_norm<double>(ctx, g);
  } else {
    group_norm<float>(ctx, g);
  }
  return Error::Ok;
}

// The per-group-channel coefficients of group_norm(), in the widest compute type.
size_t group_norm_scratch(KernelArgs& args) {
  Result<int64_t> c = args.int_value(4);
  Result<int64_t> group = args.int_value(6);
  if (!c.ok() || !group.ok() || *group <= 0 || *c < 0 || *c > INT32_MAX) return 0;
  return ScratchSize().add<double>(2 * (*c / *group)).bytes();
}

}  // namespace kernels
}  // namespace tri
