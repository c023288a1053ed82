// aten::nonzero.out: the coordinates of self's nonzero elements in
// row-major order, as a Long tensor [count, rank]. A value is nonzero
// unless it compares equal to 0 (NaN is nonzero, -0.0 is zero).
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/shape_walk.h"

namespace tri {
namespace kernels {
namespace {

// Zero test on the element's bits, per dtype family.
bool is_nonzero(ScalarType t, const char* p) {
  switch (t) {
    case ScalarType::Float: { float v; std::memcpy(&v, p, 4); return v != 0; }
    case ScalarType::Double: { double v; std::memcpy(&v, p, 8); return v != 0; }
    case ScalarType::Half:
    case ScalarType::BFloat16: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return (v & 0x7fffu) != 0;  // only +-0 are zero; NaN and subnormals are not
    }
    default: {
      uint64_t v = 0;
      std::memcpy(&v, p, element_size(t));
      return v != 0;
    }
  }
}

}  // namespace

Error nonzero_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(1));
  TRI_TRY(check_dtype(self->scalar_type(), kAllTypes, "self"));
  TRI_TRY(check_same_dtype(*out, ScalarType::Long, "out"));
  const TensorView s = TensorView::of(*self);
  const TensorView* views[] = {&s};
  const char* data = static_cast<const char*>(s.data);
  const int64_t es = static_cast<int64_t>(s.element_size());
  const ScalarType type = s.type;
  int64_t count = 0;
  walk_logical(s.sizes, s.dim, views, 1, [&](const int64_t*, const int64_t* off) {
    count += is_nonzero(type, data + off[0] * es) ? 1 : 0;
  });
  const int64_t shape[] = {count, s.dim};
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, 2)));
  const TensorView o = TensorView::of(*out);
  int64_t* dst = static_cast<int64_t*>(o.data);
  int64_t row = 0;
  walk_logical(s.sizes, s.dim, views, 1, [&](const int64_t* pos, const int64_t* off) {
    if (!is_nonzero(type, data + off[0] * es)) return;
    for (int32_t d = 0; d < s.dim; ++d) dst[row * o.strides[0] + d * o.strides[1]] = pos[d];
    ++row;
  });
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
