// aten::bmm.out: out[b] = self[b] @ mat2[b] for [B, n, m] @ [B, m, p].
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/matmul.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error bmm_out(KernelContext& context, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* mat2, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_CHECK(self->dim() == 3, Error::InvalidArgument, "self must be a 3D tensor, got rank %d",
            self->dim());
  TRI_CHECK(mat2->dim() == 3, Error::InvalidArgument, "mat2 must be a 3D tensor, got rank %d",
            mat2->dim());
  TRI_CHECK(self->size(0) == mat2->size(0) && self->size(2) == mat2->size(1),
            Error::InvalidArgument,
            "self [%" PRId32 ", %" PRId32 ", %" PRId32 "] and mat2 [%" PRId32 ", %" PRId32
            ", %" PRId32 "] cannot be batch-multiplied",
            self->size(0), self->size(1), self->size(2), mat2->size(0), mat2->size(1),
            mat2->size(2));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBTypes, "self"));
  TRI_TRY(check_same_dtype(*mat2, self->scalar_type(), "mat2"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  const SizesType shape[] = {self->size(0), self->size(1), mat2->size(2)};
  TRI_TRY(resize_out(*out, shape));
  // One scratch region, reset per batch: temp only resets between calls.
  MemoryAllocator scratch = carve_rest(context.temp);
  KernelContext sub{&scratch, context.user_data};
  const AnyMat a = any_mat(*self, 1, 2);
  const AnyMat b = any_mat(*mat2, 1, 2);
  const AnyMat c = any_mat(*out, 1, 2);
  const int64_t es = static_cast<int64_t>(self->element_size());
  for (int64_t i = 0; i < shape[0]; ++i) {
    scratch.reset();
    matmul_any(sub, shape[1], shape[2], self->size(2),
               AnyMat{a.data + i * self->strides()[0] * es, a.type, a.rs, a.cs},
               AnyMat{b.data + i * mat2->strides()[0] * es, b.type, b.rs, b.cs},
               AnyMat{c.data + i * out->strides()[0] * es, c.type, c.rs, c.cs});
  }
  return Error::Ok;
}

// Each batch's product, one at a time in the carved region.
size_t bmm_scratch(KernelArgs& args) {
  Result<Tensor*> self = args.tensor(0);
  Result<Tensor*> mat2 = args.tensor(1);
  if (!self.ok() || !mat2.ok() || (*self)->dim() != 3 || (*mat2)->dim() != 3) return 0;
  return carved_matmul_scratch((*self)->scalar_type(), (*self)->size(1), (*mat2)->size(2),
                               (*self)->size(2));
}

}  // namespace kernels
}  // namespace tri
