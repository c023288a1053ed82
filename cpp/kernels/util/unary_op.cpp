#include "cpp/kernels/util/unary_op.h"

namespace tri {

Error prepare_unary(KernelArgs& args, size_t out_index, Tensor** self, Tensor** out) {
  TRI_ASSIGN_OR_RETURN(*self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(*out, args.tensor(out_index));
  return resize_out(**out, (*self)->sizes());
}

}  // namespace tri
