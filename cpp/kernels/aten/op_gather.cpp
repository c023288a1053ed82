// aten::gather.out: out[p] = self[p with p[dim] = index[p]]; out has
// index's shape and self's dtype.
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/index_walk.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error gather_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(Tensor* index, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(const bool sparse_grad, args.bool_value(3));
  (void)sparse_grad;
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(4));
  GatherScatterViews v;
  TRI_TRY(check_gather_scatter(*self, dim, *index, nullptr, &v));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_TRY(resize_out(*out, index->sizes()));
  const TensorView o = at_least_1d(TensorView::of(*out));
  const TensorView* views[] = {&o, &v.self};
  const int64_t es = static_cast<int64_t>(self->element_size());
  char* dst = static_cast<char*>(o.data);
  const char* src = static_cast<const char*>(v.self.data);
  const int64_t dim_stride = v.self.strides[v.dim];
  for_each_index(v.index, v.dim, views, 2, /*skip_dim_mask=*/0x2u, [&](int64_t i, const int64_t* off) {
    std::memmove(dst + off[0] * es, src + (off[1] + i * dim_stride) * es, static_cast<size_t>(es));
  });
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
