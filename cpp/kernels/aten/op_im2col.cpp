// aten::im2col.out and col2im.out (Tensor unfold / fold). im2col: [N, C, H,
// W] (or [C, H, W]) -> [N, C * kh * kw, L], a pure copy, done on bytes;
// col2im sums overlapping taps in the compute type through temp memory.
#include <cinttypes>
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/conv_im2col.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/scratch_size.h"

namespace tri {
namespace kernels {
namespace {

// kernel_size, dilation, padding, stride at args first..first+3.
Error read_fold_params(KernelArgs& args, size_t first, WindowGeom& g) {
  TRI_TRY(read_window_param(args, first, "kernel_size", 2, nullptr, 1, g.k));
  TRI_TRY(read_window_param(args, first + 1, "dilation", 2, nullptr, 1, g.d));
  TRI_TRY(read_window_param(args, first + 2, "padding", 2, nullptr, 0, g.p));
  TRI_TRY(read_window_param(args, first + 3, "stride", 2, nullptr, 1, g.s));
  for (int i = 1; i < 3; ++i) {
    g.grid[i] = window_count(g.img[i], g.k[i], g.p[i], g.s[i], g.d[i], false);
    TRI_CHECK(g.grid[i] >= 1, Error::InvalidArgument,
              "image size %" PRId64 " with kernel_size %" PRId64 ", dilation %" PRId64
              ", padding %" PRId64 " and stride %" PRId64 " gives no sliding blocks",
              g.img[i], g.k[i], g.d[i], g.p[i], g.s[i]);
  }
  return Error::Ok;
}

template <typename C>
Error fold(KernelContext& ctx, const Tensor& in, Tensor& out, const WindowGeom& g,
           int64_t batch, int64_t channels) {
  const int64_t rows = channels * g.taps();
  const int64_t cols_n = g.grid_size();
  const int64_t img_n = g.img_size();
  using L = typename std::conditional<std::is_same<C, double>::value, double, float>::type;
  C* cols = ctx.temp == nullptr ? nullptr
                                : ctx.temp->allocate_array<C>(static_cast<size_t>(rows * cols_n));
  C* img = ctx.temp == nullptr ? nullptr
                               : ctx.temp->allocate_array<C>(static_cast<size_t>(channels * img_n));
  TRI_CHECK(cols != nullptr && img != nullptr, Error::MemoryAllocationFailed,
            "col2im: temp memory too small (needs %" PRId64 " bytes)",
            (rows * cols_n + channels * img_n) * static_cast<int64_t>(sizeof(C)));
  const int32_t lead = in.dim() - 2;
  const int64_t es = static_cast<int64_t>(in.element_size());
  const int64_t img_st[4] = {img_n, g.img[0] * g.img[1] * g.img[2], g.img[2], 1};
  for (int64_t n = 0; n < batch; ++n) {
    const char* src = static_cast<const char*>(in.mutable_data()) +
                      (lead == 1 ? n * in.strides()[0] * es : 0);
    for (int64_t r = 0; r < rows; ++r) {
      load_row<L>(in.scalar_type(), src + r * in.strides()[lead] * es,
                  in.strides()[lead + 1] * es, cols_n, cols + r * cols_n);
    }
    for (int64_t i = 0; i < channels * img_n; ++i) img[i] = C(0);
    col2im_chunk<C>(cols, g, channels, 0, cols_n, img, img_st);
    char* dst = static_cast<char*>(out.mutable_data()) + (lead == 1 ? n * out.strides()[0] * es : 0);
    for (int64_t c = 0; c < channels; ++c) {
      for (int64_t h = 0; h < g.img[1]; ++h) {
        store_row<L>(out.scalar_type(), img + c * img_n + h * g.img[2],
                     dst + (c * out.strides()[lead] + h * out.strides()[lead + 1]) * es,
                     out.strides()[lead + 2] * es, g.img[2]);
      }
    }
  }
  return Error::Ok;
}

}  // namespace

Error im2col_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(5));
  const int32_t rank = self->dim();
  TRI_CHECK(rank == 3 || rank == 4, Error::InvalidArgument,
            "expected a 3D or 4D input, got rank %d", rank);
  TRI_TRY(check_dtype(self->scalar_type(), kFloatHBTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  const int32_t lead = rank - 3;  // 1 when batched
  WindowGeom g;
  g.img[1] = self->size(lead + 1);
  g.img[2] = self->size(lead + 2);
  TRI_CHECK(g.img[1] > 0 && g.img[2] > 0, Error::InvalidArgument,
            "expected non-empty spatial dims");
  TRI_TRY(read_fold_params(args, 1, g));
  const int64_t channels = self->size(lead);
  const int64_t batch = lead == 1 ? self->size(0) : 1;
  int64_t shape[3] = {batch, channels * g.taps(), g.grid_size()};
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape + 1 - lead, 2 + lead)));
  const int64_t es = static_cast<int64_t>(self->element_size());
  const char* in = static_cast<const char*>(self->mutable_data());
  char* o = static_cast<char*>(out->mutable_data());
  const auto* ist = self->strides().data();
  const auto* ost = out->strides().data();
  for (int64_t n = 0; n < batch; ++n) {
    int64_t r = 0;
    for (int64_t c = 0; c < channels; ++c) {
      for (int64_t kh = 0; kh < g.k[1]; ++kh) {
        for (int64_t kw = 0; kw < g.k[2]; ++kw, ++r) {
          for (int64_t l = 0; l < g.grid_size(); ++l) {
            const int64_t ih = (l / g.grid[2]) * g.s[1] - g.p[1] + kh * g.d[1];
            const int64_t iw = (l % g.grid[2]) * g.s[2] - g.p[2] + kw * g.d[2];
            char* dst = o + ((lead ? n * ost[0] : 0) + r * ost[lead] + l * ost[lead + 1]) * es;
            if (ih >= 0 && ih < g.img[1] && iw >= 0 && iw < g.img[2]) {
              std::memmove(dst,
                          in + ((lead ? n * ist[0] : 0) + c * ist[lead] + ih * ist[lead + 1] +
                                iw * ist[lead + 2]) * es,
                          static_cast<size_t>(es));
            } else {
              std::memset(dst, 0, static_cast<size_t>(es));
            }
          }
        }
      }
    }
  }
  return Error::Ok;
}

Error col2im_out(KernelContext& context, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> size, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(6));
  const int32_t rank = self->dim();
  TRI_CHECK(rank == 2 || rank == 3, Error::InvalidArgument,
            "expected a 2D or 3D input, got rank %d", rank);
  TRI_TRY(check_dtype(self->scalar_type(), kFloatHBTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_CHECK(size.size() == 2, Error::InvalidArgument,
            "output_size must have 2 values, got %zu", size.size());
  WindowGeom g;
  for (int i = 0; i < 2; ++i) {
    TRI_CHECK(size[i] >= 1 && size[i] <= kMaxWindowParam, Error::InvalidArgument,
              "output_size values must be in [1, %" PRId64 "], got %" PRId64, kMaxWindowParam,
              size[i]);
    g.img[1 + i] = size[i];
  }
  TRI_TRY(read_fold_params(args, 2, g));
  const int32_t lead = rank - 2;
  const int64_t rows = self->size(lead);
  TRI_CHECK(rows % g.taps() == 0, Error::InvalidArgument,
            "input's dim %d (%" PRId64 ") must be divisible by the product of kernel_size (%" PRId64
            ")",
            lead, rows, g.taps());
  TRI_CHECK(self->size(lead + 1) == g.grid_size(), Error::InvalidArgument,
            "input's dim %d (%d) must match the number of sliding blocks (%" PRId64 " * %" PRId64
            " = %" PRId64 ")",
            lead + 1, self->size(lead + 1), g.grid[1], g.grid[2], g.grid_size());
  const int64_t channels = rows / g.taps();
  const int64_t batch = lead == 1 ? self->size(0) : 1;
  int64_t shape[4] = {batch, channels, g.img[1], g.img[2]};
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape + 1 - lead, 3 + lead)));
  if (out->numel() == 0) return Error::Ok;
  if (self->scalar_type() == ScalarType::Double) {
    return fold<double>(context, *self, *out, g, batch, channels);
  }
  return fold<float>(context, *self, *out, g, batch, channels);
}

// fold()'s columns and image, for one batch item at a time (out holds the
// images of the whole batch at their planned size).
size_t col2im_scratch(KernelArgs& args) {
  Result<Tensor*> self = args.tensor(0);
  Result<Tensor*> out = args.tensor(6);
  if (!self.ok() || !out.ok() || ((*self)->dim() != 2 && (*self)->dim() != 3)) return 0;
  const Tensor& in = **self;
  const int32_t lead = in.dim() - 2;
  const int64_t batch = lead == 1 ? in.size(0) : 1;
  const int64_t cols = in.size(lead) * in.size(lead + 1);
  const int64_t image = batch > 0 ? static_cast<int64_t>((*out)->numel()) / batch : 0;
  if (in.scalar_type() == ScalarType::Double) {
    return ScratchSize().add<double>(cols).add<double>(image).bytes();
  }
  return ScratchSize().add<float>(cols).add<float>(image).bytes();
}

}  // namespace kernels
}  // namespace tri
