// aten::full_like.out: out (shaped like self) filled with fill_value.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/fill.h"
#include "cpp/kernels/util/memory_format.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error full_like_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Scalar value, args.scalar(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_TRY(check_dtype(out->scalar_type(), kAllTypes, "out"));
  TRI_TRY(check_memory_format(args, 2, *out));
  TRI_TRY(check_scalar_fits(value, out->scalar_type()));
  TRI_TRY(resize_out(*out, self->sizes()));
  fill_scalar(*out, value);
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
