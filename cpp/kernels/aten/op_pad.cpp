// aten::reflection_pad{1,2,3}d.out and aten::replication_pad{1,2,3}d.out:
// the last n dims of an (n+1)- or (n+2)-dim input are padded by mirroring
// (without repeating the edge) or by repeating the edge. padding is
// (left, right, top, bottom, front, back), last dim first; negative values
// crop. Each out element reads input coordinate map(o - pad_before) per
// padded dim, which is always in range once the checks passed.
#include <cinttypes>
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/tensor_view.h"

namespace tri {
namespace kernels {
namespace {

struct PadDim {
  int64_t before = 0;
  int64_t size = 1;  // input size
};

inline int64_t source_index(int64_t o, const PadDim& p, bool reflect) {
  int64_t j = o - p.before;
  if (reflect) {
    if (j < 0) j = -j;
    if (j >= p.size) j = 2 * (p.size - 1) - j;
    return j;
  }
  return j < 0 ? 0 : (j >= p.size ? p.size - 1 : j);
}

// One out row along the last dim.
template <typename T>
void pad_row(const char* in, int64_t in_stride, char* out, int64_t out_stride, int64_t n,
             const PadDim& p, bool reflect) {
  for (int64_t o = 0; o < n; ++o) {
    std::memmove(out + o * out_stride, in + source_index(o, p, reflect) * in_stride, sizeof(T));
  }
}

Error pad_out(KernelArgs& args, int32_t n, bool reflect) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> padding, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  const char* op = reflect ? "reflection_pad" : "replication_pad";
  TRI_TRY(check_dtype(self->scalar_type(), kFloatHBTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_CHECK(padding.size() == static_cast<size_t>(2 * n), Error::InvalidArgument,
            "%s%dd: padding size is expected to be %d, got %zu", op, n, 2 * n, padding.size());
  const int32_t rank = self->dim();
  TRI_CHECK(rank == n + 1 || rank == n + 2, Error::InvalidArgument,
            "%s%dd: expected a %dD or %dD (batch mode) tensor, got rank %d", op, n, n + 1,
            n + 2, rank);
  // Every dim but a batch dim must be non-empty (reflection also lets the
  // first dim of an unbatched input be empty, as ATen does).
  const int32_t may_be_empty = rank == n + 2 || reflect ? 0 : -1;
  for (int32_t d = 0; d < rank; ++d) {
    TRI_CHECK(d == may_be_empty || self->size(d) != 0, Error::InvalidArgument,
              "%s%dd: expected a tensor with possibly 0 batch size and other non-zero "
              "dimensions, got size 0 at dimension %d", op, n, d);
  }
  PadDim pads[3];
  int64_t shape[kTensorDimLimit];
  for (int32_t d = 0; d < rank; ++d) shape[d] = self->size(d);
  for (int32_t i = 0; i < n; ++i) {
    const int32_t d = rank - 1 - i;
    const int64_t size = self->size(d);
    const int64_t a = padding[2 * i];
    const int64_t b = padding[2 * i + 1];
    TRI_CHECK(!reflect || (a < size && b < size), Error::InvalidArgument,
              "%s%dd: Padding size should be less than the corresponding input dimension, but "
              "got: padding (%" PRId64 ", %" PRId64 ") at dimension %d of size %" PRId64, op, n,
              a, b, d, size);
    int64_t o = 0;
    TRI_CHECK(!__builtin_add_overflow(size, a, &o) && !__builtin_add_overflow(o, b, &o) &&
                  o >= 1, Error::InvalidArgument,
              "%s%dd: input (size %" PRId64 " at dimension %d) is too small for padding (%"
              PRId64 ", %" PRId64 ")", op, n, size, d, a, b);
    shape[d] = o;
    // Beyond these bounds every out element maps to the same edge, and the
    // clamp keeps o - before from overflowing.
    pads[n - 1 - i].before = a < -size - 1 ? -size - 1 : (a > o + 1 ? o + 1 : a);
    pads[n - 1 - i].size = size;
  }
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, static_cast<size_t>(rank))));
  if (out->numel() == 0) return Error::Ok;
  const TensorView in = TensorView::of(*self);
  const TensorView ov = TensorView::of(*out);
  const int64_t es = static_cast<int64_t>(in.element_size());
  const int32_t first_pad = rank - n;
  const int32_t last = rank - 1;
  int64_t pos[kTensorDimLimit] = {};
  const int64_t rows = out->numel() / shape[last];
  for (int64_t r = 0; r < rows; ++r) {
    int64_t io = 0;
    int64_t oo = 0;
    for (int32_t d = 0; d < last; ++d) {
      const int64_t j = d < first_pad ? pos[d] : source_index(pos[d], pads[d - first_pad], reflect);
      io += j * in.strides[d];
      oo += pos[d] * ov.strides[d];
    }
    const char* src = static_cast<const char*>(in.data) + io * es;
    char* dst = static_cast<char*>(ov.data) + oo * es;
    const PadDim& p = pads[n - 1];
    if (es == 2) {
      pad_row<uint16_t>(src, in.strides[last] * es, dst, ov.strides[last] * es, shape[last], p, reflect);
    } else if (es == 4) {
      pad_row<uint32_t>(src, in.strides[last] * es, dst, ov.strides[last] * es, shape[last], p, reflect);
    } else {
      pad_row<uint64_t>(src, in.strides[last] * es, dst, ov.strides[last] * es, shape[last], p, reflect);
    }
    for (int32_t d = last - 1; d >= 0; --d) {
      if (++pos[d] < shape[d]) break;
      pos[d] = 0;
    }
  }
  return Error::Ok;
}

}  // namespace

Error reflection_pad1d_out(KernelContext&, KernelArgs& args) { return pad_out(args, 1, true); }
Error reflection_pad2d_out(KernelContext&, KernelArgs& args) { return pad_out(args, 2, true); }
Error reflection_pad3d_out(KernelContext&, KernelArgs& args) { return pad_out(args, 3, true); }
Error replication_pad1d_out(KernelContext&, KernelArgs& args) { return pad_out(args, 1, false); }
Error replication_pad2d_out(KernelContext&, KernelArgs& args) { return pad_out(args, 2, false); }
Error replication_pad3d_out(KernelContext&, KernelArgs& args) { return pad_out(args, 3, false); }

}  // namespace kernels
}  // namespace tri
