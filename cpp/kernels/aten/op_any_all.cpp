// aten::any / aten::all: .out (one dim), .dims_out (int[]? dim; None or [] =
// all dims) and .all_out. A value counts as true when it is non-zero (NaN is
// true). out is Bool or Byte (ATen's any/all of uint8 give uint8); the empty
// any is false and the empty all is true.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/reduce.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

enum class DimArg { One, List, None };

// any: is some element non-zero; all: is no element zero. C is the compute
// type of self's dtype (a conversion keeps zero-ness).
template <typename C>
void any_all_in(const ReducePlan& plan, bool is_all, const TensorView& out) {
  constexpr int64_t kChunk = 256;
  const ScalarType type = plan.in.type;
  for_each_reduction(plan, out, [&](char* o, const char* in) {
    bool found = false;  // a non-zero (any) or a zero (all)
    walk_reduced(plan, in, [&](const char* p, int64_t n, int64_t stride) {
      C buf[kChunk];
      for (int64_t i0 = 0; i0 < n && !found; i0 += kChunk) {
        const int64_t m = n - i0 < kChunk ? n - i0 : kChunk;
        load_row<C>(type, p + i0 * stride, stride, m, buf);
        for (int64_t i = 0; i < m; ++i) {
          if ((buf[i] == C(0)) == is_all) {
            found = true;
            break;
          }
        }
      }
    });
    const bool result = is_all ? !found : found;
    store_one<bool>(out.type, result, o);
  });
}

Error any_all_impl(KernelArgs& args, DimArg dim_arg, bool is_all) {
  const char* op = is_all ? "all" : "any";
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  bool keepdim = false;
  if (dim_arg != DimArg::None) {
    TRI_ASSIGN_OR_RETURN(keepdim, args.bool_value(2));
  }
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(dim_arg == DimArg::None ? 1 : 3));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBBoolTypes, "self"));
  TRI_CHECK(out->scalar_type() == ScalarType::Bool || out->scalar_type() == ScalarType::Byte,
            Error::InvalidType, "%s only supports bool tensor for result, got: %s", op,
            scalar_type_name(out->scalar_type()));
  ReducePlan plan;
  if (dim_arg == DimArg::One) {
    TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
    TRI_TRY(plan_over_dim(*self, Optional<int64_t>{true, dim}, keepdim, &plan));
  } else if (dim_arg == DimArg::List) {
    TRI_ASSIGN_OR_RETURN(const EValue* const dims, args.slot(1));
    TRI_TRY(plan_over_dims(*self, *dims, keepdim, &plan));
  } else {
    TRI_TRY(plan_over_dim(*self, Optional<int64_t>{}, false, &plan));
  }
  TRI_TRY(resize_out(*out, Span<const int64_t>(plan.out_sizes, plan.out_dim)));
  const TensorView out_v = TensorView::of(*out);
  switch (compute_kind(self->scalar_type())) {
    case ComputeKind::Int: any_all_in<int64_t>(plan, is_all, out_v); break;
    case ComputeKind::Float: any_all_in<float>(plan, is_all, out_v); break;
    case ComputeKind::Double: any_all_in<double>(plan, is_all, out_v); break;
  }
  return Error::Ok;
}

}  // namespace

Error any_out(KernelContext&, KernelArgs& args) { return any_all_impl(args, DimArg::One, false); }
Error any_dims_out(KernelContext&, KernelArgs& args) {
  return any_all_impl(args, DimArg::List, false);
}
Error any_all_out(KernelContext&, KernelArgs& args) {
  return any_all_impl(args, DimArg::None, false);
}
Error all_out(KernelContext&, KernelArgs& args) { return any_all_impl(args, DimArg::One, true); }
Error all_dims_out(KernelContext&, KernelArgs& args) {
  return any_all_impl(args, DimArg::List, true);
}
Error all_all_out(KernelContext&, KernelArgs& args) {
  return any_all_impl(args, DimArg::None, true);
}

}  // namespace kernels
}  // namespace tri
