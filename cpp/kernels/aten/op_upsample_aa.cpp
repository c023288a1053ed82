// aten::_upsample_bilinear2d_aa.out: anti-aliased bilinear resizing of
// [N, C, H, W] (torchvision's resize with antialias=True), as ATen's
// separable AA kernel computes it: along each axis, output i takes the
// input samples within `support` of center = scale * (i + 0.5), weighted by
// the triangle filter stretched by the scale when shrinking, the weights
// normalized to sum to 1. Floating dtypes; any dim order.
#include <cinttypes>
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/tensor_view.h"

namespace tri {
namespace kernels {
namespace {

// One axis' sampling: the input range and the filter of each output index.
struct AaAxis {
  int64_t in = 0;
  int64_t out = 0;
  double scale = 1;
  double support = 1;
  double invscale = 1;

  AaAxis(int64_t in_size, int64_t out_size, bool align_corners, Optional<double> s)
      : in(in_size), out(out_size) {
    if (align_corners) {
      scale = out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0;
    } else {
      scale = s.has_value && s.value > 0 ? 1.0 / s.value
                                         : static_cast<double>(in) / static_cast<double>(out);
    }
    // Bilinear: interp_size 2, so a support of 1 input pixel, widened by
    // the scale when shrinking.
    support = scale >= 1.0 ? scale : 1.0;
    invscale = scale >= 1.0 ? 1.0 / scale : 1.0;
  }

  static double filter(double x) {
    x = x < 0 ? -x : x;
    return x < 1.0 ? 1.0 - x : 0.0;
  }

  // First input index and count for output i (ATen truncates toward zero).
  void range(int64_t i, int64_t* first, int64_t* count, double* center) const {
    const double c = scale * (static_cast<double>(i) + 0.5);
    int64_t lo = static_cast<int64_t>(c - support + 0.5);
    if (lo < 0) lo = 0;
    int64_t hi = static_cast<int64_t>(c + support + 0.5);
    if (hi > in) hi = in;
    *first = lo;
    *count = hi > lo ? hi - lo : 0;
    *center = c;
  }

  double weight(int64_t j, int64_t first, double center) const {
    return filter((static_cast<double>(j + first) - center + 0.5) * invscale);
  }
};

}  // namespace

Error upsample_bilinear2d_aa_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> size, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(const bool align_corners, args.bool_value(2));
  TRI_ASSIGN_OR_RETURN(const Optional<double> scale_h, args.optional_double(3));
  TRI_ASSIGN_OR_RETURN(const Optional<double> scale_w, args.optional_double(4));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(5));
  TRI_CHECK(self->dim() == 4, Error::InvalidArgument,
            "expected a 4-D input (N, C, H, W), got rank %d", self->dim());
  TRI_CHECK(size.size() == 2, Error::InvalidArgument,
            "output_size must have 2 elements, got %zu", size.size());
  TRI_CHECK(size[0] > 0 && size[1] > 0, Error::InvalidArgument,
            "output sizes must be greater than 0, got (%" PRId64 ", %" PRId64 ")", size[0],
            size[1]);
  TRI_CHECK(self->size(2) > 0 && self->size(3) > 0, Error::InvalidArgument,
            "input sizes must be greater than 0, got (%d, %d)", self->size(2), self->size(3));
  TRI_TRY(check_dtype(self->scalar_type(), kFloatTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  const int64_t out_sizes[4] = {self->size(0), self->size(1), size[0], size[1]};
  TRI_TRY(resize_out(*out, Span<const int64_t>(out_sizes, 4)));
  const AaAxis ay(self->size(2), size[0], align_corners, scale_h);
  const AaAxis ax(self->size(3), size[1], align_corners, scale_w);
  const TensorView in = TensorView::of(*self);
  const TensorView o = TensorView::of(*out);
  const ScalarType type = self->scalar_type();
  const int64_t es = static_cast<int64_t>(in.element_size());
  const char* in_base = static_cast<const char*>(in.data);
  char* out_base = static_cast<char*>(o.data);
  for (int64_t n = 0; n < out_sizes[0]; ++n) {
    for (int64_t c = 0; c < out_sizes[1]; ++c) {
      const char* plane = in_base + (n * in.strides[0] + c * in.strides[1]) * es;
      for (int64_t oy = 0; oy < out_sizes[2]; ++oy) {
        int64_t y0 = 0, ny = 0;
        double cy = 0;
        ay.range(oy, &y0, &ny, &cy);
        double wy_total = 0;
        for (int64_t j = 0; j < ny; ++j) wy_total += ay.weight(j, y0, cy);
        for (int64_t ox = 0; ox < out_sizes[3]; ++ox) {
          int64_t x0 = 0, nx = 0;
          double cx = 0;
          ax.range(ox, &x0, &nx, &cx);
          double wx_total = 0;
          for (int64_t i = 0; i < nx; ++i) wx_total += ax.weight(i, x0, cx);
          double acc = 0;
          for (int64_t j = 0; j < ny; ++j) {
            const char* row = plane + (y0 + j) * in.strides[2] * es;
            double line = 0;
            for (int64_t i = 0; i < nx; ++i) {
              line += ax.weight(i, x0, cx) * load_one<double>(type, row + (x0 + i) * in.strides[3] * es);
            }
            acc += ay.weight(j, y0, cy) * (wx_total != 0 ? line / wx_total : line);
          }
          if (wy_total != 0) acc /= wy_total;
          store_one<double>(type, acc,
                            out_base + (n * o.strides[0] + c * o.strides[1] + oy * o.strides[2] +
                                        ox * o.strides[3]) * es);
        }
      }
    }
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
