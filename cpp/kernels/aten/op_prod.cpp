// aten::prod.out (all dims) and aten::prod.int_out (one dim). Like sum, the
// product is computed in out's dtype (dtype, when given, must equal it):
// floating outs multiply in double, integral ones in wrapping int64, a Bool
// out is the logical and. The empty product is 1.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/reduce.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

template <typename Acc>
void prod_in(const ReducePlan& plan, const TensorView& out) {
  constexpr int64_t kChunk = 256;
  const ScalarType type = plan.in.type;
  const bool logical = out.type == ScalarType::Bool;
  for_each_reduction(plan, out, [&](char* o, const char* in) {
    Acc acc = Acc(1);
    walk_reduced(plan, in, [&](const char* p, int64_t n, int64_t stride) {
      Acc buf[kChunk];
      for (int64_t i0 = 0; i0 < n; i0 += kChunk) {
        const int64_t m = n - i0 < kChunk ? n - i0 : kChunk;
        load_row<Acc>(type, p + i0 * stride, stride, m, buf);
        for (int64_t i = 0; i < m; ++i) {
          acc = arith_mul(acc, logical ? Acc(buf[i] != Acc(0)) : buf[i]);
        }
      }
    });
    store_one<Acc>(out.type, acc, o);
  });
}

Error prod_impl(KernelArgs& args, bool has_dim) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  Optional<int64_t> dim;
  bool keepdim = false;
  if (has_dim) {
    TRI_ASSIGN_OR_RETURN(dim.value, args.int_value(1));
    dim.has_value = true;
    TRI_ASSIGN_OR_RETURN(keepdim, args.bool_value(2));
  }
  TRI_ASSIGN_OR_RETURN(const Optional<ScalarType> dtype,
                       args.optional_scalar_type(has_dim ? 3 : 1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(has_dim ? 4 : 2));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBBoolTypes, "self"));
  TRI_TRY(check_dtype(out->scalar_type(), kRealHBBoolTypes, "out"));
  if (dtype.has_value) {
    TRI_TRY(check_same_dtype(*out, dtype.value, "out (must match dtype)"));
  }
  ReducePlan plan;
  TRI_TRY(plan_over_dim(*self, dim, keepdim, &plan));
  TRI_TRY(resize_out(*out, Span<const int64_t>(plan.out_sizes, plan.out_dim)));
  const TensorView out_v = TensorView::of(*out);
  if (is_floating_type(out->scalar_type())) {
    prod_in<double>(plan, out_v);
  } else {
    prod_in<int64_t>(plan, out_v);
  }
  return Error::Ok;
}

}  // namespace

Error prod_out(KernelContext&, KernelArgs& args) { return prod_impl(args, false); }
Error prod_int_out(KernelContext&, KernelArgs& args) { return prod_impl(args, true); }

}  // namespace kernels
}  // namespace tri
