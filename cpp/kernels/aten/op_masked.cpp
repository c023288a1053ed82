// aten::masked_select.out (the elements of self where mask is true, self
// and mask broadcast together, as a 1-D tensor in row-major order) and
// aten::masked_scatter.out (self, broadcast with mask, with the true
// positions taking source's elements in order). mask is Bool; out and
// source have self's dtype.
#include <cinttypes>
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/broadcast.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/shape_walk.h"

namespace tri {
namespace kernels {
namespace {

struct Broadcast {
  int64_t shape[kTensorDimLimit];
  int32_t dim = 0;
};

Error check_mask(const Tensor& self, const Tensor& mask, const Tensor& out, Broadcast* b) {
  TRI_TRY(check_dtype(self.scalar_type(), kAllTypes, "self"));
  TRI_TRY(check_same_dtype(mask, ScalarType::Bool, "mask"));
  TRI_TRY(check_same_dtype(out, self.scalar_type(), "out"));
  SizesType shape[kTensorDimLimit];
  TRI_TRY(broadcast_shapes(self.sizes(), mask.sizes(), shape, &b->dim));
  for (int32_t d = 0; d < b->dim; ++d) b->shape[d] = shape[d];
  return Error::Ok;
}

}  // namespace

Error masked_select_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* mask, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  Broadcast b;
  TRI_TRY(check_mask(*self, *mask, *out, &b));
  const TensorView s = TensorView::of(*self);
  const TensorView m = TensorView::of(*mask);
  const TensorView* views[] = {&s, &m};
  const uint8_t* mp = static_cast<const uint8_t*>(m.data);  // any nonzero byte is true
  int64_t count = 0;
  walk_logical(b.shape, b.dim, views, 2, [&](const int64_t*, const int64_t* off) {
    count += mp[off[1]] != 0 ? 1 : 0;
  });
  const int64_t shape[] = {count};
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, 1)));
  const size_t es = self->element_size();
  char* dst = static_cast<char*>(out->mutable_data());
  const char* src = static_cast<const char*>(s.data);
  walk_logical(b.shape, b.dim, views, 2, [&](const int64_t*, const int64_t* off) {
    if (mp[off[1]] == 0) return;
    std::memmove(dst, src + off[0] * static_cast<int64_t>(es), es);
    dst += es;
  });
  return Error::Ok;
}

Error masked_scatter_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* mask, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* source, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  Broadcast b;
  TRI_TRY(check_mask(*self, *mask, *out, &b));
  TRI_CHECK(source->scalar_type() == self->scalar_type(), Error::InvalidType,
            "masked_scatter: expected self and source to have same dtypes but got %s and %s",
            scalar_type_name(self->scalar_type()), scalar_type_name(source->scalar_type()));
  const TensorView m = TensorView::of(*mask);
  const uint8_t* mp = static_cast<const uint8_t*>(m.data);  // any nonzero byte is true
  int64_t count = 0;
  const TensorView* mask_only[] = {&m};
  walk_logical(b.shape, b.dim, mask_only, 1, [&](const int64_t*, const int64_t* off) {
    count += mp[off[0]] != 0 ? 1 : 0;
  });
  TRI_CHECK(count <= static_cast<int64_t>(source->numel()), Error::InvalidArgument,
            "masked_scatter: Number of elements of source (%zu) < number of ones in mask (%"
            PRId64 ")", source->numel(), count);
  TRI_TRY(resize_out(*out, Span<const int64_t>(b.shape, static_cast<size_t>(b.dim))));
  TensorView s = TensorView::of(*self);
  const TensorView o = TensorView::of(*out);
  copy_view(s, o);  // broadcasts self to the out shape
  // source is read in its own logical order: a row-major counter over it.
  const TensorView src = TensorView::of(*source);
  const int64_t es = static_cast<int64_t>(self->element_size());
  int64_t spos[kTensorDimLimit] = {};
  int64_t soff = 0;
  char* dst = static_cast<char*>(o.data);
  const char* from = static_cast<const char*>(src.data);
  const TensorView* views[] = {&o, &m};
  walk_logical(b.shape, b.dim, views, 2, [&](const int64_t*, const int64_t* off) {
    if (mp[off[1]] == 0) return;
    std::memmove(dst + off[0] * es, from + soff * es, static_cast<size_t>(es));
    for (int32_t d = src.dim - 1; d >= 0; --d) {
      soff += src.strides[d];
      if (++spos[d] < src.sizes[d]) break;
      soff -= src.strides[d] * src.sizes[d];
      spos[d] = 0;
    }
  });
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
