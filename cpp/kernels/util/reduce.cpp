#include "cpp/kernels/util/reduce.h"

#include "cpp/kernels/util/dims.h"
#include "cpp/runtime/core/evalue.h"

namespace tri {

void make_reduce_plan(const Tensor& self, const bool mask[kTensorDimLimit], bool keepdim,
                      ReducePlan* p) {
  p->in = TensorView::of(self);
  const int64_t es = static_cast<int64_t>(self.element_size());
  p->n_kept = 0;
  p->n_red = 0;
  p->out_dim = 0;
  p->reduce_numel = 1;
  for (int32_t d = 0; d < self.dim(); ++d) {
    const int64_t size = self.size(d);
    const int64_t stride = static_cast<int64_t>(self.strides()[d]) * es;
    if (mask[d]) {
      p->red_sizes[p->n_red] = size;
      p->red_strides[p->n_red] = stride;
      ++p->n_red;
      p->reduce_numel *= size;
      if (keepdim) {
        p->out_sizes[p->out_dim++] = 1;
      }
    } else {
      p->kept_sizes[p->n_kept] = size;
      p->kept_strides[p->n_kept] = stride;
      p->kept_out_dim[p->n_kept] = p->out_dim;
      ++p->n_kept;
      p->out_sizes[p->out_dim++] = size;
    }
  }
}

Error reduce_mask_from_dims(const EValue& dims, int32_t rank, bool mask[kTensorDimLimit]) {
  Span<const int64_t> list;
  if (!dims.is_none()) {
    TRI_TRY_CONTEXT(read_int_list(dims, &list), "dim");
  }
  if (list.empty()) {
    for (size_t d = 0; d < kTensorDimLimit; ++d) {
      mask[d] = true;
    }
    return Error::Ok;
  }
  return dim_list_mask(list, rank, mask);
}

}  // namespace tri
