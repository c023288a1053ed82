// aten::pixel_shuffle.out and aten::pixel_unshuffle.out: [*, C*r*r, H, W] <->
// [*, C, H*r, W*r]. Both are one strided copy between 5-dim views
// [*, C, H, r, W, r] of the two tensors (any dim order, any dtype).
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

// The view [*, C, H, r, W, r] of the big-channel tensor t = [*, C*r*r, H, W]:
// element (c, h, i, w, j) is t[c*r*r + i*r + j, h, w].
TensorView channels_view(const Tensor& t, int64_t r) {
  const TensorView v = TensorView::of(t);
  const int32_t b = v.dim - 3;
  TensorView s = v;
  s.dim = b + 5;
  const int64_t sc = v.strides[b], sh = v.strides[b + 1], sw = v.strides[b + 2];
  const int64_t sizes[] = {v.sizes[b] / (r * r), v.sizes[b + 1], r, v.sizes[b + 2], r};
  const int64_t strides[] = {sc * r * r, sh, sc * r, sw, sc};
  for (int k = 0; k < 5; ++k) {
    s.sizes[b + k] = sizes[k];
    s.strides[b + k] = strides[k];
  }
  return s;
}

// The same view of the big-spatial tensor t = [*, C, H*r, W*r]: element
// (c, h, i, w, j) is t[c, h*r + i, w*r + j].
TensorView spatial_view(const Tensor& t, int64_t r) {
  const TensorView v = TensorView::of(t);
  const int32_t b = v.dim - 3;
  TensorView s = v;
  s.dim = b + 5;
  const int64_t sc = v.strides[b], sh = v.strides[b + 1], sw = v.strides[b + 2];
  const int64_t sizes[] = {v.sizes[b], v.sizes[b + 1] / r, r, v.sizes[b + 2] / r, r};
  const int64_t strides[] = {sc, sh * r, sh, sw * r, sw};
  for (int k = 0; k < 5; ++k) {
    s.sizes[b + k] = sizes[k];
    s.strides[b + k] = strides[k];
  }
  return s;
}

Error shuffle(KernelArgs& args, bool up) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t r, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  const char* what = up ? "upscale_factor" : "downscale_factor";
  const int32_t rank = self->dim();
  TRI_CHECK(rank <= static_cast<int32_t>(kTensorDimLimit) - 2, Error::NotSupported,
            "pixel shuffles of rank above %d are not supported", static_cast<int>(kTensorDimLimit) - 2);
  TRI_CHECK(rank >= 3, Error::InvalidArgument,
            "pixel_%sshuffle expects input to have at least 3 dimensions, but got input with %d "
            "dimension(s)", up ? "" : "un", rank);
  TRI_CHECK(r > 0 && r <= 65536, Error::InvalidArgument, "%s must be greater than 0 (and at most 65536), but got %" PRId64,
            what, r);
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  const int64_t c = self->size(rank - 3), h = self->size(rank - 2), w = self->size(rank - 1);
  int64_t shape[kTensorDimLimit];
  for (int32_t d = 0; d < rank - 3; ++d) shape[d] = self->size(d);
  if (up) {
    TRI_CHECK(c % (r * r) == 0, Error::InvalidArgument,
              "pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
              "square of upscale_factor, but input.size(-3)=%" PRId64 " is not divisible by %" PRId64,
              c, r * r);
    shape[rank - 3] = c / (r * r);
    shape[rank - 2] = h * r;
    shape[rank - 1] = w * r;
  } else {
    TRI_CHECK(h % r == 0 && w % r == 0, Error::InvalidArgument,
              "pixel_unshuffle expects height %" PRId64 " and width %" PRId64
              " to be divisible by downscale_factor %" PRId64, h, w, r);
    shape[rank - 3] = c * r * r;
    shape[rank - 2] = h / r;
    shape[rank - 1] = w / r;
  }
  // resize_out refuses sizes beyond int32 (h * r and c * r * r fit int64).
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, rank)));
  if (up) {
    copy_view(channels_view(*self, r), spatial_view(*out, r));
  } else {
    copy_view(spatial_view(*self, r), channels_view(*out, r));
  }
  return Error::Ok;
}

}  // namespace

Error pixel_shuffle_out(KernelContext&, KernelArgs& args) { return shuffle(args, true); }
Error pixel_unshuffle_out(KernelContext&, KernelArgs& args) { return shuffle(args, false); }

}  // namespace kernels
}  // namespace tri
