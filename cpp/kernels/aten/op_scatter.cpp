// aten::scatter.src_out, aten::scatter.value_out: out = copy of self, then
// out[p with p[dim] = index[p]] = src[p] (or value) for every p of index.
#include <cinttypes>
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/index_walk.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

// `src` is nullptr for the value overload (then `value` is used).
Error scatter_impl(KernelArgs& args, const Tensor* src, const Scalar* value) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(Tensor* index, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(4));
  TRI_TRY(check_dtype(self->scalar_type(), kAllTypes, "self"));
  TRI_TRY(check_same_dtype(*index, ScalarType::Long, "index"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  if (src != nullptr) {
    TRI_TRY(check_same_dtype(*src, self->scalar_type(), "src (must match self)"));
  }
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, self->dim(), &d));
  const TensorView s = at_least_1d(TensorView::of(*self));
  const TensorView idx = at_least_1d(TensorView::of(*index));
  TRI_CHECK(idx.dim == s.dim, Error::InvalidArgument,
            "index must have the same number of dimensions as self (%d vs %d)", idx.dim, s.dim);
  TensorView sv;
  if (src != nullptr) {
    sv = at_least_1d(TensorView::of(*src));
    TRI_CHECK(sv.dim == s.dim, Error::InvalidArgument,
              "src must have the same number of dimensions as self (%d vs %d)", sv.dim, s.dim);
  }
  for (int32_t k = 0; k < s.dim; ++k) {
    TRI_CHECK(k == d || idx.sizes[k] <= s.sizes[k], Error::InvalidArgument,
              "index size %" PRId64 " exceeds self's size %" PRId64 " at dimension %d",
              idx.sizes[k], s.sizes[k], k);
    TRI_CHECK(src == nullptr || idx.sizes[k] <= sv.sizes[k], Error::InvalidArgument,
              "index size %" PRId64 " exceeds src's size %" PRId64 " at dimension %d",
              idx.sizes[k], sv.sizes[k], k);
  }
  TRI_TRY(check_index_values(idx, s.sizes[d], d, /*allow_negative=*/false));
  TRI_TRY(copy_into(TensorView::of(*self), *out));
  const TensorView o = at_least_1d(TensorView::of(*out));
  const int64_t es = static_cast<int64_t>(self->element_size());
  char* dst = static_cast<char*>(o.data);
  const int64_t dim_stride = o.strides[d];
  if (src != nullptr) {
    const TensorView* views[] = {&sv, &o};
    const char* from = static_cast<const char*>(sv.data);
    for_each_index(idx, d, views, 2, 0x2u, [&](int64_t v, const int64_t* off) {
      std::memcpy(dst + (off[1] + v * dim_stride) * es, from + off[0] * es,
                  static_cast<size_t>(es));
    });
    return Error::Ok;
  }
  alignas(8) unsigned char fill[8] = {};
  scalar_to_bytes(*value, self->scalar_type(), fill);
  const TensorView* views[] = {&o};
  for_each_index(idx, d, views, 1, 0x1u, [&](int64_t v, const int64_t* off) {
    std::memcpy(dst + (off[0] + v * dim_stride) * es, fill, static_cast<size_t>(es));
  });
  return Error::Ok;
}

}  // namespace

Error scatter_src_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* src, args.tensor(3));
  return scatter_impl(args, src, nullptr);
}

Error scatter_value_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const Scalar value, args.scalar(3));
  return scatter_impl(args, nullptr, &value);
}

}  // namespace kernels
}  // namespace tri
