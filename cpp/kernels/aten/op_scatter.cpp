// aten::scatter.src_out, aten::scatter.value_out: out = copy of self, then
// out[p with p[dim] = index[p]] = src[p] (or value) for every p of index.
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/copy.h"
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
  GatherScatterViews v;
  TRI_TRY(check_gather_scatter(*self, dim, *index, src, &v));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_TRY(copy_into(TensorView::of(*self), *out));
  const TensorView o = at_least_1d(TensorView::of(*out));
  const int64_t es = static_cast<int64_t>(self->element_size());
  char* dst = static_cast<char*>(o.data);
  const int64_t dim_stride = o.strides[v.dim];
  if (src != nullptr) {
    const TensorView* views[] = {&v.src, &o};
    const char* from = static_cast<const char*>(v.src.data);
    for_each_index(v.index, v.dim, views, 2, 0x2u, [&](int64_t i, const int64_t* off) {
      std::memmove(dst + (off[1] + i * dim_stride) * es, from + off[0] * es,
                  static_cast<size_t>(es));
    });
    return Error::Ok;
  }
  alignas(8) unsigned char fill[8] = {};
  scalar_to_bytes(*value, self->scalar_type(), fill);
  const TensorView* views[] = {&o};
  for_each_index(v.index, v.dim, views, 1, 0x1u, [&](int64_t i, const int64_t* off) {
    std::memcpy(dst + (off[0] + i * dim_stride) * es, fill, static_cast<size_t>(es));
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
