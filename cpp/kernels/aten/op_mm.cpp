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

}  // namespace kernels
}  // namespace tri
