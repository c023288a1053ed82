// aten::split_copy.Tensor_out, aten::split_with_sizes_copy.out,
// aten::unbind_copy.int_out: self cut along `dim` into the tensors of the
// `out` TensorList. The schemas return `()`, yet ExecuTorch's emitter still
// appends a returned value to every out variant's call: here a second
// TensorList of the same tensors, which the kernels ignore. Every out is
// checked and resized before any is written; outs convert dtypes like copy_.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/shape_view.h"

namespace tri {
namespace kernels {
namespace {

// Piece i of self along d: [starts[i], starts[i] + lengths(i)).
template <typename LengthFn>
Error write_pieces(const Tensor& self, int32_t d, Span<Tensor* const> outs, bool drop_dim,
                   LengthFn&& length) {
  const TensorView in = TensorView::of(self);
  for (int pass = 0; pass < 2; ++pass) {
    int64_t at = 0;
    for (size_t i = 0; i < outs.size(); ++i) {
      const int64_t n = length(i);
      TensorView piece = narrow_view(in, d, at, n);
      if (drop_dim) piece.remove_dim(d);
      if (pass == 0) {
        TRI_TRY_CONTEXT(check_copy_dtypes(self, *outs[i]), "out[%zu]", i);
        TRI_TRY_CONTEXT(resize_like_view(piece, *outs[i]), "out[%zu]", i);
      } else {
        copy_view(piece, TensorView::of(*outs[i]));
      }
      at += n;
    }
  }
  return Error::Ok;
}

Error read_dim(const Tensor& self, int64_t dim, int32_t* d) {
  TRI_CHECK(self.dim() > 0, Error::InvalidArgument,
            "expects at least a 1-dimensional tensor");
  return normalize_dim(dim, self.dim(), d);
}

}  // namespace

Error split_copy_tensor_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t split_size, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(const Span<Tensor* const> outs, args.tensor_list(3));
  int32_t d = 0;
  TRI_TRY(read_dim(*self, dim, &d));
  const int64_t size = self->size(d);
  TRI_CHECK(split_size >= 0, Error::InvalidArgument,
            "split_size must be non-negative, got %" PRId64, split_size);
  TRI_CHECK(split_size > 0 || size == 0, Error::InvalidArgument,
            "split_size can only be 0 if dimension size is 0, but got dimension size of %" PRId64,
            size);
  const int64_t pieces = split_size == 0 || size == 0 ? 1 : (size - 1) / split_size + 1;
  TRI_CHECK(static_cast<int64_t>(outs.size()) == pieces, Error::InvalidArgument,
            "out: expected %" PRId64 " tensors (size %" PRId64 " split by %" PRId64 "), got %zu",
            pieces, size, split_size, outs.size());
  return write_pieces(*self, d, outs, false, [&](size_t i) {
    const int64_t start = static_cast<int64_t>(i) * split_size;
    return size - start < split_size ? size - start : split_size;
  });
}

Error split_with_sizes_copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> sizes, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(const Span<Tensor* const> outs, args.tensor_list(3));
  int32_t d = 0;
  TRI_TRY(read_dim(*self, dim, &d));
  const int64_t size = self->size(d);
  int64_t sum = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    TRI_CHECK(sizes[i] >= 0 && sizes[i] <= size, Error::InvalidArgument,
              "split_sizes[%zu] = %" PRId64 " is not in [0, %" PRId64 "]", i, sizes[i], size);
    sum += sizes[i];
    TRI_CHECK(sum <= size, Error::InvalidArgument,
              "split_sizes add up to more than the dimension's size %" PRId64, size);
  }
  TRI_CHECK(sum == size, Error::InvalidArgument,
            "split_with_sizes expects split_sizes to sum exactly to %" PRId64
            " (input tensor's size at dimension %d), but got sum %" PRId64, size, d, sum);
  TRI_CHECK(outs.size() == sizes.size(), Error::InvalidArgument,
            "out: expected %zu tensors, got %zu", sizes.size(), outs.size());
  return write_pieces(*self, d, outs, false, [&](size_t i) { return sizes[i]; });
}

Error unbind_copy_int_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(const Span<Tensor* const> outs, args.tensor_list(2));
  int32_t d = 0;
  TRI_TRY(read_dim(*self, dim, &d));
  TRI_CHECK(static_cast<int64_t>(outs.size()) == self->size(d), Error::InvalidArgument,
            "out: expected %d tensors (the size of dimension %d), got %zu", self->size(d), d,
            outs.size());
  return write_pieces(*self, d, outs, true, [](size_t) { return int64_t{1}; });
}

}  // namespace kernels
}  // namespace tri
