// aten::cumsum.out / cumprod.out along `dim`. Computed in out's dtype
// (dtype, when given, must equal it): floating outs accumulate in double,
// integral ones in wrapping int64 (the same values as wrapping in out's
// dtype). Bool outs are not supported, as in ATen.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/reduce.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

// One row of n elements (strides in bytes); called once per row.
template <typename Acc, bool kProd>
void scan_row(ScalarType in_type, const char* in, int64_t in_stride, ScalarType out_type,
              char* out, int64_t out_stride, int64_t n) {
  constexpr int64_t kChunk = 256;
  Acc buf[kChunk];
  Acc acc = kProd ? Acc(1) : Acc(0);
  for (int64_t i0 = 0; i0 < n; i0 += kChunk) {
    const int64_t m = n - i0 < kChunk ? n - i0 : kChunk;
    load_row<Acc>(in_type, in + i0 * in_stride, in_stride, m, buf);
    for (int64_t i = 0; i < m; ++i) {
      acc = kProd ? arith_mul(acc, buf[i]) : arith_add(acc, buf[i]);
      buf[i] = acc;
    }
    store_row<Acc>(out_type, buf, out + i0 * out_stride, out_stride, m);
  }
}

template <bool kProd>
Error scan_impl(KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(const Optional<ScalarType> dtype, args.optional_scalar_type(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBBoolTypes, "self"));
  TRI_TRY(check_dtype(out->scalar_type(), kRealHBTypes, "out"));
  if (dtype.has_value) {
    TRI_TRY(check_same_dtype(*out, dtype.value, "out (must match dtype)"));
  }
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, self->dim(), &d));
  TRI_TRY(resize_out(*out, self->sizes()));
  if (self->numel() == 0) {
    return Error::Ok;
  }
  bool mask[kTensorDimLimit] = {};
  mask[d] = true;
  ReducePlan plan;
  make_reduce_plan(*self, mask, /*keepdim=*/true, &plan);
  const bool scalar = self->dim() == 0;
  const int64_t n = scalar ? 1 : self->size(d);
  const int64_t in_stride = scalar ? 0 : self->strides()[d] * int64_t(self->element_size());
  const int64_t out_stride = scalar ? 0 : out->strides()[d] * int64_t(out->element_size());
  const ScalarType in_type = self->scalar_type();
  const ScalarType out_type = out->scalar_type();
  if (is_floating_type(out_type)) {
    for_each_reduction(plan, TensorView::of(*out), [&](char* o, const char* in) {
      scan_row<double, kProd>(in_type, in, in_stride, out_type, o, out_stride, n);
    });
  } else {
    for_each_reduction(plan, TensorView::of(*out), [&](char* o, const char* in) {
      scan_row<int64_t, kProd>(in_type, in, in_stride, out_type, o, out_stride, n);
    });
  }
  return Error::Ok;
}

}  // namespace

Error cumsum_out(KernelContext&, KernelArgs& args) { return scan_impl<false>(args); }
Error cumprod_out(KernelContext&, KernelArgs& args) { return scan_impl<true>(args); }

}  // namespace kernels
}  // namespace tri
