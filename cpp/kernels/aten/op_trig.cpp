// Trigonometric and hyperbolic float ops: aten::{sin,cos,tan,asin,acos,atan,
// sinh,cosh,asinh,acosh,atanh}.out (integer inputs compute in Float; out of
// domain gives NaN, as in libm).
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

#define TRI_FLOAT_UNARY(fn)                                               \
  Error fn##_out(KernelContext&, KernelArgs& args) {                      \
    return unary_float_op(args, [](auto x) { return std::fn(x); });       \
  }

TRI_FLOAT_UNARY(sin)
TRI_FLOAT_UNARY(cos)
TRI_FLOAT_UNARY(tan)
TRI_FLOAT_UNARY(asin)
TRI_FLOAT_UNARY(acos)
TRI_FLOAT_UNARY(atan)
TRI_FLOAT_UNARY(sinh)
TRI_FLOAT_UNARY(cosh)
TRI_FLOAT_UNARY(asinh)
TRI_FLOAT_UNARY(acosh)
TRI_FLOAT_UNARY(atanh)

#undef TRI_FLOAT_UNARY

}  // namespace kernels
}  // namespace tri
