// aten::roll.out: elements shifted along `dims` with wrap-around; with no
// dims, along the flattened tensor. Rolling a dim by s copies two pieces
// ([0, n-s) -> [s, n) and [n-s, n) -> [0, s)); k rolled dims copy 2^k
// blocks. The flattened roll walks logical order with two counters.
#include <cinttypes>
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/shape_view.h"

namespace tri {
namespace kernels {
namespace {

int64_t wrap_shift(int64_t shift, int64_t n) {
  if (n == 0) return 0;
  const int64_t s = shift % n;
  return s < 0 ? s + n : s;
}

// out's element (i + shift) mod numel = self's element i, in logical order.
void roll_flat(const TensorView& in, const TensorView& out, int64_t shift) {
  const int64_t n = in.numel();
  const size_t es = in.element_size();
  int64_t ip[kTensorDimLimit] = {};
  int64_t op[kTensorDimLimit] = {};
  int64_t io = 0;
  int64_t oo = 0;
  auto step = [](const TensorView& v, int64_t* pos, int64_t* off) {
    for (int32_t d = v.dim - 1; d >= 0; --d) {
      *off += v.strides[d];
      if (++pos[d] < v.sizes[d]) return;
      *off -= v.strides[d] * v.sizes[d];
      pos[d] = 0;
    }
  };
  for (int64_t k = 0; k < shift; ++k) step(out, op, &oo);
  for (int64_t k = 0; k < n; ++k) {
    std::memmove(static_cast<char*>(out.data) + oo * static_cast<int64_t>(es),
                static_cast<const char*>(in.data) + io * static_cast<int64_t>(es), es);
    step(in, ip, &io);
    step(out, op, &oo);
  }
}

}  // namespace

Error roll_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> shifts, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> dims, args.int_list(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_TRY(check_dtype(self->scalar_type(), kAllTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_CHECK(shifts.size() > 0, Error::InvalidArgument, "`shifts` required");
  TRI_CHECK(dims.size() == shifts.size() || (dims.size() == 0 && shifts.size() == 1),
            Error::InvalidArgument, "shifts and dimensions must align. shifts: %zu, dims: %zu",
            shifts.size(), dims.size());
  int64_t shift[kTensorDimLimit] = {};
  for (size_t i = 0; i < dims.size(); ++i) {
    int32_t d = 0;
    TRI_TRY_CONTEXT(normalize_dim(dims[i], self->dim(), &d), "dims[%zu]", i);
    if (self->dim() == 0) continue;
    shift[d] = wrap_shift(wrap_shift(shifts[i], self->size(d)) + shift[d], self->size(d));
  }
  TRI_TRY(resize_out(*out, self->sizes()));
  const TensorView in = TensorView::of(*self);
  const TensorView o = TensorView::of(*out);
  if (o.numel() == 0) return Error::Ok;
  if (dims.size() == 0) {
    roll_flat(in, o, wrap_shift(shifts[0], in.numel()));
    return Error::Ok;
  }
  int32_t rolled[kTensorDimLimit];
  int32_t k = 0;
  for (int32_t d = 0; d < in.dim; ++d) {
    if (shift[d] != 0) rolled[k++] = d;
  }
  for (uint32_t combo = 0; combo < (1u << k); ++combo) {
    TensorView src = in;
    TensorView dst = o;
    for (int32_t j = 0; j < k; ++j) {
      const int32_t d = rolled[j];
      const int64_t n = in.sizes[d];
      const int64_t s = shift[d];
      if (combo & (1u << j)) {  // the tail wraps to the front
        src = narrow_view(src, d, n - s, s);
        dst = narrow_view(dst, d, 0, s);
      } else {
        src = narrow_view(src, d, 0, n - s);
        dst = narrow_view(dst, d, s, n - s);
      }
    }
    copy_view(src, dst);
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
