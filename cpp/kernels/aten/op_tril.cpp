// aten::tril.out and aten::triu.out: self with the elements above (tril)
// or below (triu) the `diagonal`-th diagonal of its last two dims zeroed.
// Zero is all-zero bits in every dtype, so rows are cleared with memset.
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

void clear(char* base, int64_t stride_bytes, int64_t es, int64_t from, int64_t to) {
  if (stride_bytes == es) {
    std::memset(base + from * es, 0, static_cast<size_t>((to - from) * es));
    return;
  }
  for (int64_t c = from; c < to; ++c) std::memset(base + c * stride_bytes, 0, static_cast<size_t>(es));
}

Error tri_out(KernelArgs& args, bool lower) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(int64_t diagonal, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_dtype(self->scalar_type(), kAllTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_CHECK(self->dim() >= 2, Error::InvalidArgument,
            "%s: input tensor must have at least 2 dimensions, got %d", lower ? "tril" : "triu",
            self->dim());
  TRI_TRY(copy_into(TensorView::of(*self), *out));
  const TensorView o = TensorView::of(*out);
  const int32_t r_dim = o.dim - 2;
  const int64_t rows = o.sizes[r_dim];
  const int64_t cols = o.sizes[r_dim + 1];
  if (o.numel() == 0) return Error::Ok;
  // Clamped so that r + diagonal cannot overflow.
  if (diagonal > cols + 1) diagonal = cols + 1;
  if (diagonal < -rows - 1) diagonal = -rows - 1;
  const int64_t es = static_cast<int64_t>(o.element_size());
  const int64_t batches = o.numel() / (rows * cols);
  int64_t pos[kTensorDimLimit] = {};
  int64_t off = 0;
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t r = 0; r < rows; ++r) {
      char* row = static_cast<char*>(o.data) + (off + r * o.strides[r_dim]) * es;
      int64_t from = lower ? r + diagonal + 1 : 0;
      int64_t to = lower ? cols : r + diagonal;
      from = from < 0 ? 0 : from;
      to = to > cols ? cols : to;
      if (from < to) clear(row, o.strides[r_dim + 1] * es, es, from, to);
    }
    for (int32_t d = r_dim - 1; d >= 0; --d) {
      off += o.strides[d];
      if (++pos[d] < o.sizes[d]) break;
      off -= o.strides[d] * o.sizes[d];
      pos[d] = 0;
    }
  }
  return Error::Ok;
}

}  // namespace

Error tril_out(KernelContext&, KernelArgs& args) { return tri_out(args, true); }
Error triu_out(KernelContext&, KernelArgs& args) { return tri_out(args, false); }

}  // namespace kernels
}  // namespace tri
