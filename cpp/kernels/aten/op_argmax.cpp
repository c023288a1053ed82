// aten::argmax.out: index of the largest value along `dim` (None: over the
// flattened tensor). Ties give the first; NaN counts as the largest.
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/reduce.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

template <typename C>
bool is_nan(C v) {
  return v != v;
}

// Argmax of each reduction in the compute type C of self's dtype (order and
// NaN are preserved by the conversion); elements are converted a chunk at a
// time.
template <typename C>
void argmax_in(const ReducePlan& plan, const TensorView& out) {
  constexpr int64_t kChunk = 256;
  const ScalarType type = plan.in.type;
  for_each_reduction(plan, out, [&](char* o, const char* in) {
    int64_t index = 0;
    int64_t best_index = 0;
    C best = C(0);
    walk_reduced(plan, in, [&](const char* p, int64_t n, int64_t stride) {
      C buf[kChunk];
      for (int64_t i0 = 0; i0 < n; i0 += kChunk) {
        const int64_t m = n - i0 < kChunk ? n - i0 : kChunk;
        load_row<C>(type, p + i0 * stride, stride, m, buf);
        for (int64_t i = 0; i < m; ++i, ++index) {
          const C v = buf[i];
          if (index == 0 || (!is_nan(best) && (is_nan(v) || v > best))) {
            best = v;
            best_index = index;
          }
        }
      }
    });
    *reinterpret_cast<int64_t*>(o) = best_index;
  });
}

}  // namespace

Error argmax_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Optional<int64_t> dim, args.optional_int(1));
  TRI_ASSIGN_OR_RETURN(const bool keepdim, args.bool_value(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBTypes, "self"));
  TRI_TRY(check_same_dtype(*out, ScalarType::Long, "out"));
  bool mask[kTensorDimLimit];
  for (bool& m : mask) m = !dim.has_value;
  if (dim.has_value) {
    int32_t d = 0;
    TRI_TRY(normalize_dim(dim.value, self->dim(), &d));
    if (self->dim() > 0) {
      TRI_CHECK(self->size(d) > 0, Error::InvalidArgument,
                "argmax(): expected reduction dim %d to have non-zero size", d);
    }
    mask[d] = true;
  } else {
    TRI_CHECK(self->numel() > 0, Error::InvalidArgument,
              "argmax(): expected reduction dim to be specified for input.numel() == 0");
  }
  ReducePlan plan;
  make_reduce_plan(*self, mask, keepdim, &plan);
  TRI_TRY(resize_out(*out, Span<const int64_t>(plan.out_sizes, plan.out_dim)));
  const TensorView out_v = TensorView::of(*out);
  switch (compute_kind(self->scalar_type())) {
    case ComputeKind::Int: argmax_in<int64_t>(plan, out_v); break;
    case ComputeKind::Float: argmax_in<float>(plan, out_v); break;
    case ComputeKind::Double: argmax_in<double>(plan, out_v); break;
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
