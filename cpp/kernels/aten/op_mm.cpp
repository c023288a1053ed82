// aten::mm.out: out = self @ mat2.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/matmul.h"

namespace tri {
namespace kernels {

Error mm_out(KernelContext& context, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* mat2, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_matmul(*self, *mat2, *out));
  matmul_into(context, *self, *mat2, *out);
  return Error::Ok;
}

size_t mm_scratch(KernelArgs& args) {
  Result<Tensor*> self = args.tensor(0);
  Result<Tensor*> mat2 = args.tensor(1);
  if (!self.ok() || !mat2.ok() || (*self)->dim() != 2 || (*mat2)->dim() != 2) return 0;
  return matmul_scratch((*self)->scalar_type(), (*self)->size(0), (*mat2)->size(1), (*self)->size(1));
}

}  // namespace kernels
}  // namespace tri
