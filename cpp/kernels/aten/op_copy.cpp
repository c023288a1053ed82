// aten::copy.out: out = self with src's values, i.e. src broadcast to
// self's shape and converted to self's dtype, then converted to out's dtype
// (two conversions, as ATen's clone-copy_-copy_ does: a Float 1.5 through
// an Int self is 1 in a Float out). When the dtypes differ, chunks go
// through a stack buffer of self's dtype.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/nd_iter.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

TensorView row_view(char* p, ScalarType type, int64_t stride_bytes, int64_t n) {
  TensorView v;
  v.data = p;
  v.type = type;
  v.dim = 1;
  v.sizes[0] = n;
  v.strides[0] = stride_bytes / static_cast<int64_t>(element_size(type));
  return v;
}

// out = src broadcast to self's shape through self's dtype.
Error copy_through(const Tensor* self, const Tensor* src, Tensor* out) {
  TRI_TRY(check_dtype(self->scalar_type(), kAllTypes, "self"));
  TRI_TRY(check_dtype(src->scalar_type(), kAllTypes, "src"));
  TRI_TRY(check_dtype(out->scalar_type(), kAllTypes, "out"));
  const int32_t rank = self->dim();
  TRI_CHECK(src->dim() <= rank, Error::InvalidArgument,
            "src of rank %d cannot be broadcast to self of rank %d", src->dim(), rank);
  for (int32_t i = 0; i < src->dim(); ++i) {
    const int32_t d = rank - src->dim() + i;
    TRI_CHECK(src->size(i) == self->size(d) || src->size(i) == 1, Error::InvalidArgument,
              "The size of src (%d) must match the size of self (%d) at non-singleton "
              "dimension %d", src->size(i), self->size(d), d);
  }
  TRI_TRY(resize_out(*out, self->sizes()));
  const TensorView s = TensorView::of(*src);
  const TensorView o = TensorView::of(*out);
  const ScalarType mid = self->scalar_type();
  if (mid == out->scalar_type() || mid == src->scalar_type()) {
    copy_view(s, o);  // one conversion is all there is
    return Error::Ok;
  }
  const TensorView* ops[] = {&o, &s};
  const NdIter it(o.sizes, o.dim, ops, 2);
  const ScalarType from = s.type;
  const ScalarType to = o.type;
  it.for_each_row([&](char* const* p, const int64_t* st, int64_t n) {
    constexpr int64_t kChunk = 128;
    alignas(8) char buf[kChunk * 8];
    const int64_t es = static_cast<int64_t>(element_size(mid));
    for (int64_t i = 0; i < n; i += kChunk) {
      const int64_t m = n - i < kChunk ? n - i : kChunk;
      const TensorView b = row_view(buf, mid, es, m);
      copy_view(row_view(p[1] + i * st[1], from, st[1], m), b);
      copy_view(b, row_view(p[0] + i * st[0], to, st[0], m));
    }
  });
  return Error::Ok;
}

}  // namespace

Error copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* src, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(const bool non_blocking, args.bool_value(2));
  (void)non_blocking;
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  return copy_through(self, src, out);
}

// aten::copy_: self = src (broadcast, converted to self's dtype) in place,
// as ExecuTorch writes buffer mutations back. The call's last argument is
// the returned value, which ExecuTorch's kernel makes an alias of self; when
// the program gave it a tensor of its own, it gets the same values.
Error copy_inplace(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* src, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(const bool non_blocking, args.bool_value(2));
  (void)non_blocking;
  TRI_ASSIGN_OR_RETURN(Tensor* ret, args.tensor(3));
  if (src->data() != self->data()) {
    TRI_CHECK(!bytes_overlap(*src, *self), Error::NotSupported,
              "src and self share memory without being the same tensor");
    TRI_TRY(copy_through(self, src, self));
  }
  return alias_result(*self, *ret);
}

}  // namespace kernels
}  // namespace tri
