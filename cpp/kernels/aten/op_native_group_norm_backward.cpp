// aten::native_group_norm_backward.out. Input seen as [N, C, HxW], one
// plane per (n, c). Per (n, group), with xhat = (x - mean) * rstd and
// g = dy * weight[c] over the group's planes:
//   dx = rstd * (g - mean(g) - xhat * mean(g * xhat)),
// and dweight[c] = sum(dy * xhat), dbias[c] = sum(dy) over n and HxW.
// Outs whose output_mask entry is false are left alone. Computed in double.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/group_norm_shape.h"
#include "cpp/kernels/util/norm_affine.h"
#include "cpp/kernels/util/norm_args.h"
#include "cpp/kernels/util/norm_backward.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

struct GroupNormGrad {
  TensorView x, dy;  // [N, C, *]
  const Tensor* mean;
  const Tensor* rstd;
  const Tensor* weight;
  int64_t n, c, hxw, group;
};

TensorView plane(const TensorView& v, int64_t n, int64_t c) {
  return trailing_view(v, 2, n * v.strides[0] + c * v.strides[1]);
}

NormStats stats(const GroupNormGrad& g, int64_t n, int64_t c) {
  const int64_t i = n * g.group + c / (g.c / g.group);
  return NormStats{param_at(g.mean, i, 0), param_at(g.rstd, i, 0)};
}

void store_at(Tensor& t, int64_t i, double v) {
  store_one<double>(t.scalar_type(), v,
                    static_cast<char*>(t.mutable_data()) + i * t.strides()[0] *
                                                               static_cast<int64_t>(t.element_size()));
}

void param_grads(const GroupNormGrad& g, Tensor* dw, Tensor* db) {
  const double one = 1.0;
  const TensorView ones = TensorView::scalar(&one, ScalarType::Double);
  for (int64_t c = 0; c < g.c; ++c) {
    double sum_dy = 0.0, sum_dy_xhat = 0.0;
    for (int64_t n = 0; n < g.n; ++n) {
      const TensorView xp = plane(g.x, n, c);
      norm_grad_sums(xp, xp, plane(g.dy, n, c), ones, stats(g, n, c), &sum_dy, &sum_dy_xhat);
    }
    if (dw != nullptr) store_at(*dw, c, sum_dy_xhat);
    if (db != nullptr) store_at(*db, c, sum_dy);
  }
}

void input_grad(const GroupNormGrad& g, const TensorView& dx) {
  const int64_t cg = g.c / g.group;
  const int64_t count = cg * g.hxw;
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t k = 0; k < g.group; ++k) {
      double sum_g = 0.0, sum_g_xhat = 0.0;
      for (int64_t c = k * cg; c < (k + 1) * cg; ++c) {
        const double w = param_at(g.weight, c, 1.0);
        const TensorView wv = TensorView::scalar(&w, ScalarType::Double);
        const TensorView xp = plane(g.x, n, c);
        norm_grad_sums(xp, xp, plane(g.dy, n, c), wv, stats(g, n, c), &sum_g, &sum_g_xhat);
      }
      const double a = count == 0 ? 0.0 : sum_g / static_cast<double>(count);
      const double b = count == 0 ? 0.0 : sum_g_xhat / static_cast<double>(count);
      for (int64_t c = k * cg; c < (k + 1) * cg; ++c) {
        const double w = param_at(g.weight, c, 1.0);
        const TensorView wv = TensorView::scalar(&w, ScalarType::Double);
        const TensorView xp = plane(g.x, n, c);
        norm_grad_dx(xp, plane(dx, n, c), xp, plane(g.dy, n, c), wv, stats(g, n, c), a, b);
      }
    }
  }
}

}  // namespace

Error native_group_norm_backward_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* dy, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* input, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* mean, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(Tensor* rstd, args.tensor(3));
  TRI_ASSIGN_OR_RETURN(Tensor* weight, args.optional_tensor(4));
  TRI_ASSIGN_OR_RETURN(const int64_t n, args.int_value(5));
  TRI_ASSIGN_OR_RETURN(const int64_t c, args.int_value(6));
  TRI_ASSIGN_OR_RETURN(const int64_t hxw, args.int_value(7));
  TRI_ASSIGN_OR_RETURN(const int64_t group, args.int_value(8));
  TRI_ASSIGN_OR_RETURN(const Span<const bool> mask, args.bool_list(9));
  TRI_ASSIGN_OR_RETURN(Tensor* dx, args.tensor(10));
  TRI_ASSIGN_OR_RETURN(Tensor* dw, args.tensor(11));
  TRI_ASSIGN_OR_RETURN(Tensor* db, args.tensor(12));
  TRI_CHECK(mask.size() == 3, Error::InvalidArgument, "output_mask must have 3 entries, got %zu",
            mask.size());
  TRI_TRY(check_dtype(input->scalar_type(), kFloatHBTypes, "input"));
  TRI_TRY(check_same_dtype(*dy, input->scalar_type(), "grad_out"));
  TRI_TRY(check_group_norm_shape(*input, n, c, hxw, group));
  TRI_CHECK(same_sizes(dy->sizes(), input->sizes()), Error::InvalidArgument,
            "grad_out must have input's shape");
  TRI_CHECK(TensorView::of(*dy).is_row_major() || (dy->dim() >= 2 && dy->size(0) == n &&
                                                   dy->size(1) == c),
            Error::NotSupported, "grad_out not of shape [N, C, *] must be contiguous");
  TRI_TRY(check_param(weight, c, "weight"));
  TRI_TRY(check_param(mean, n * group, "mean"));
  TRI_TRY(check_param(rstd, n * group, "rstd"));
  if (mask[0]) {
    TRI_TRY(check_same_dtype(*dx, input->scalar_type(), "out0"));
    TRI_TRY(resize_out(*dx, input->sizes(), "out0"));
    TRI_CHECK(TensorView::of(*dx).is_row_major() || (dx->dim() >= 2 && dx->size(0) == n &&
                                                     dx->size(1) == c),
              Error::NotSupported, "out0 not of shape [N, C, *] must be contiguous");
  }
  const int64_t cshape[] = {c};
  for (int k = 1; k < 3; ++k) {
    if (!mask[k]) continue;
    Tensor* t = k == 1 ? dw : db;
    const char* what = k == 1 ? "out1" : "out2";
    TRI_TRY(check_same_dtype(*t, input->scalar_type(), what));
    TRI_TRY(resize_out(*t, Span<const int64_t>(cshape, 1), what));
  }
  const GroupNormGrad g{group_norm_view(*input, n, c, hxw), group_norm_view(*dy, n, c, hxw),
                        mean, rstd, weight, n, c, hxw, group};
  if (mask[1] || mask[2]) param_grads(g, mask[1] ? dw : nullptr, mask[2] ? db : nullptr);
  if (mask[0]) input_grad(g, group_norm_view(*dx, n, c, hxw));
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
