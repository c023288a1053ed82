// aten::index.Tensor_out: advanced indexing, self[indices] (the rules are
// in util/index_plan.h). out has self's dtype.
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/index_plan.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error index_tensor_out(KernelContext& ctx, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<Tensor* const> indices, args.tensor_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_dtype(self->scalar_type(), kAllTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  const TensorView sv = TensorView::of(*self);
  IndexPlan plan;
  TRI_TRY(make_index_plan(ctx, sv, indices, &plan));
  TRI_TRY(resize_out(*out, Span<const int64_t>(plan.shape, static_cast<size_t>(plan.dim))));
  const TensorView ov = TensorView::of(*out);
  const size_t es = self->element_size();
  char* dst = static_cast<char*>(ov.data);
  const char* src = static_cast<const char*>(sv.data);
  for_each_indexed(plan, sv, ov, [&](int64_t s, int64_t o) {
    std::memmove(dst + o * static_cast<int64_t>(es), src + s * static_cast<int64_t>(es), es);
  });
  return Error::Ok;
}

size_t index_tensor_scratch(KernelArgs& args) {
  Result<Span<Tensor* const>> indices = args.tensor_list(1);
  return indices.ok() ? index_plan_scratch(*indices) : 0;
}

}  // namespace kernels
}  // namespace tri
