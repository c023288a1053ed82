// Gradients of 2-D pooling: _adaptive_avg_pool2d_backward.out,
// avg_pool2d_backward.grad_input and max_pool2d_with_indices_backward
// .grad_input. grad_input has self's shape ([N, C, H, W] or [C, H, W], any
// dim order) and receives the sum of the gradients of every window that
// covers each element.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/nn_planes.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

// Checks self (3-D or 4-D, of a dtype in `types`), grad_output (same dtype
// and rank, the same leading dims) and sizes grad_input like self.
Error check_pool_grad(const Tensor& grad, const Tensor& self, Tensor& gi,
                      uint32_t types = kFloatHBTypes) {
  const int32_t rank = self.dim();
  TRI_CHECK(rank == 3 || rank == 4, Error::InvalidArgument,
            "expected a 3D or 4D self, got rank %d", rank);
  TRI_TRY(check_dtype(self.scalar_type(), types, "self"));
  TRI_TRY(check_same_dtype(grad, self.scalar_type(), "grad_output"));
  TRI_TRY(check_same_dtype(gi, self.scalar_type(), "grad_input"));
  TRI_CHECK(grad.dim() == rank, Error::InvalidArgument,
            "grad_output has rank %d, self has rank %d", grad.dim(), rank);
  for (int32_t d = 0; d < rank - 2; ++d) {
    TRI_CHECK(grad.size(d) == self.size(d), Error::InvalidArgument,
              "grad_output size %d at dim %d differs from self's %d", grad.size(d), d, self.size(d));
  }
  return resize_out(gi, self.sizes(), "grad_input");
}

Error read_pair(KernelArgs& args, size_t i, const char* name, bool allow_empty, int64_t* h,
                int64_t* w) {
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> v, args.int_list(i));
  if (v.empty() && allow_empty) return Error::Ok;
  TRI_CHECK(v.size() == 1 || v.size() == 2, Error::InvalidArgument,
            "%s must be a single int or a tuple of two ints, got %zu values", name, v.size());
  *h = v[0];
  *w = v.size() == 2 ? v[1] : v[0];
  return Error::Ok;
}

int64_t pooled(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  const int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  int64_t out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;
  if (ceil && (out - 1) * stride >= in + pad) --out;
  return out;
}

// Window parameters are bounded so that every product below fits int64.
constexpr int64_t kMaxWindow = 1 << 20;

}  // namespace

Error adaptive_avg_pool2d_backward_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* grad, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* gi, args.tensor(2));
  TRI_TRY(check_pool_grad(*grad, *self, *gi));
  const Planes g = Planes::of(*grad);
  const Planes x = Planes::of(*gi);
  TRI_CHECK((g.h > 0 && g.w > 0) || g.n * g.c == 0, Error::InvalidArgument,
            "grad_output has an empty spatial size");
  x.zero();
  for (int64_t n = 0; n < x.n; ++n) {
    for (int64_t c = 0; c < x.c; ++c) {
      for (int64_t oh = 0; oh < g.h; ++oh) {
        const int64_t h0 = oh * x.h / g.h, h1 = ((oh + 1) * x.h + g.h - 1) / g.h;
        for (int64_t ow = 0; ow < g.w; ++ow) {
          const int64_t w0 = ow * x.w / g.w, w1 = ((ow + 1) * x.w + g.w - 1) / g.w;
          const double v = g.get(n, c, oh, ow) / static_cast<double>(h1 - h0) /
                           static_cast<double>(w1 - w0);
          for (int64_t h = h0; h < h1; ++h)
            for (int64_t w = w0; w < w1; ++w) x.add(n, c, h, w, v);
        }
      }
    }
  }
  return Error::Ok;
}

Error avg_pool2d_backward_grad_input(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* grad, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(1));
  int64_t kh = 0, kw = 0, sh = 0, sw = 0, ph = 0, pw = 0;
  TRI_TRY(read_pair(args, 2, "kernel_size", false, &kh, &kw));
  sh = kh;
  sw = kw;
  TRI_TRY(read_pair(args, 3, "stride", true, &sh, &sw));
  TRI_TRY(read_pair(args, 4, "padding", false, &ph, &pw));
  TRI_ASSIGN_OR_RETURN(const bool ceil_mode, args.bool_value(5));
  TRI_ASSIGN_OR_RETURN(const bool include_pad, args.bool_value(6));
  TRI_ASSIGN_OR_RETURN(const Optional<int64_t> divisor, args.optional_int(7));
  TRI_ASSIGN_OR_RETURN(Tensor* gi, args.tensor(8));
  TRI_CHECK(kh > 0 && kw > 0 && kh <= kMaxWindow && kw <= kMaxWindow && sh > 0 && sw > 0 &&
                sh <= kMaxWindow && sw <= kMaxWindow,
            Error::InvalidArgument, "kernel_size and stride must be positive (and at most 2^20)");
  TRI_CHECK(ph >= 0 && pw >= 0 && ph <= kh / 2 && pw <= kw / 2, Error::InvalidArgument,
            "pad should be at most half of kernel size, got pad=(%" PRId64 ", %" PRId64 ")", ph, pw);
  TRI_CHECK(!divisor.has_value || divisor.value != 0, Error::InvalidArgument,
            "divisor must be not zero");
  // ATen also has Long here: each window's share is an integer division.
  TRI_TRY(check_pool_grad(*grad, *self, *gi, kFloatHBTypes | dtype_bit(ScalarType::Long)));
  const bool integral = self->scalar_type() == ScalarType::Long;
  const Planes g = Planes::of(*grad);
  const Planes x = Planes::of(*gi);
  const int64_t oh_n = pooled(x.h, kh, ph, sh, 1, ceil_mode);
  const int64_t ow_n = pooled(x.w, kw, pw, sw, 1, ceil_mode);
  TRI_CHECK(g.h == oh_n && g.w == ow_n, Error::InvalidArgument,
            "grad_output spatial size %" PRId64 "x%" PRId64 " should be %" PRId64 "x%" PRId64,
            g.h, g.w, oh_n, ow_n);
  x.zero();
  for (int64_t n = 0; n < x.n; ++n) {
    for (int64_t c = 0; c < x.c; ++c) {
      for (int64_t oh = 0; oh < g.h; ++oh) {
        for (int64_t ow = 0; ow < g.w; ++ow) {
          int64_t h0 = oh * sh - ph, w0 = ow * sw - pw;
          int64_t h1 = h0 + kh < x.h + ph ? h0 + kh : x.h + ph;
          int64_t w1 = w0 + kw < x.w + pw ? w0 + kw : x.w + pw;
          const int64_t pool_size = (h1 - h0) * (w1 - w0);
          h0 = h0 < 0 ? 0 : h0;
          w0 = w0 < 0 ? 0 : w0;
          h1 = h1 < x.h ? h1 : x.h;
          w1 = w1 < x.w ? w1 : x.w;
          if (h0 >= h1 || w0 >= w1) continue;
          const int64_t div = divisor.has_value ? divisor.value
                              : include_pad     ? pool_size
                                                : (h1 - h0) * (w1 - w0);
          if (integral) {
            const int64_t v = load_one<int64_t>(g.type, g.at(n, c, oh, ow)) / div;
            for (int64_t h = h0; h < h1; ++h)
              for (int64_t w = w0; w < w1; ++w) x.add_int(n, c, h, w, v);
            continue;
          }
          const double v = g.get(n, c, oh, ow) / static_cast<double>(div);
          for (int64_t h = h0; h < h1; ++h)
            for (int64_t w = w0; w < w1; ++w) x.add(n, c, h, w, v);
        }
      }
    }
  }
  return Error::Ok;
}

Error max_pool2d_with_indices_backward_grad_input(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* grad, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* indices, args.tensor(7));
  TRI_ASSIGN_OR_RETURN(Tensor* gi, args.tensor(8));
  // kernel_size .. ceil_mode (2..6) only shaped the forward pass; the
  // indices say where each gradient goes.
  TRI_TRY(check_dtype(indices->scalar_type(), dtype_bit(ScalarType::Long), "indices"));
  TRI_TRY(check_pool_grad(*grad, *self, *gi));
  TRI_CHECK(indices->dim() == grad->dim(), Error::InvalidArgument,
            "indices and grad_output must have the same shape");
  for (int32_t d = 0; d < grad->dim(); ++d) {
    TRI_CHECK(indices->size(d) == grad->size(d), Error::InvalidArgument,
              "indices and grad_output must have the same shape (dim %d: %d vs %d)", d,
              indices->size(d), grad->size(d));
  }
  const Planes g = Planes::of(*grad);
  const Planes ix = Planes::of(*indices);
  const Planes x = Planes::of(*gi);
  const int64_t plane = x.h * x.w;
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t c = 0; c < g.c; ++c)
      for (int64_t oh = 0; oh < g.h; ++oh)
        for (int64_t ow = 0; ow < g.w; ++ow) {
          const int64_t k = *reinterpret_cast<const int64_t*>(ix.at(n, c, oh, ow));
          TRI_CHECK(k >= 0 && k < plane, Error::InvalidArgument,
                    "index %" PRId64 " is out of range for a %" PRId64 "x%" PRId64 " plane", k,
                    x.h, x.w);
        }
  x.zero();
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t c = 0; c < g.c; ++c)
      for (int64_t oh = 0; oh < g.h; ++oh)
        for (int64_t ow = 0; ow < g.w; ++ow) {
          const int64_t k = *reinterpret_cast<const int64_t*>(ix.at(n, c, oh, ow));
          x.add(n, c, k / x.w, k % x.w, g.get(n, c, oh, ow));
        }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
