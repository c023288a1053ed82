// aten::scalar_tensor.out: a 0-dim out holding s.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/fill.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error scalar_tensor_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const Scalar value, args.scalar(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(1));
  TRI_TRY(check_dtype(out->scalar_type(), kAllTypes, "out"));
  TRI_TRY(check_scalar_fits(value, out->scalar_type()));
  TRI_TRY(resize_out(*out, Span<const SizesType>()));
  fill_scalar(*out, value);
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
