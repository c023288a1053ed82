#include "cpp/kernels/util/conv_weight_grad.h"

#include "cpp/kernels/util/conv_im2col.h"
#include "cpp/kernels/util/conv_plan.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/scratch_size.h"

namespace tri {
namespace {

template <typename G>
G dot(const G* a, const G* b, int64_t n) {
  G s0 = G(0), s1 = G(0), s2 = G(0), s3 = G(0);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; ++i) s0 += a[i] * b[i];
  return (s0 + s1) + (s2 + s3);
}

Error too_small() {
  TRI_CHECK(false, Error::MemoryAllocationFailed,
            "convolution_backward: temp memory too small for the weight gradient");
  return Error::Ok;
}

// Writes the row-major acc (weight-shaped, sizes w_size) into dw.
template <typename G>
void store_weight(const G* acc, const ConvProblem& p, Tensor& dw) {
  int64_t st[5];
  conv_strides5(dw, st);
  const int64_t* sz = p.w_size;
  const int64_t es = static_cast<int64_t>(dw.element_size());
  char* base = static_cast<char*>(dw.mutable_data());
  for (int64_t a = 0; a < sz[0]; ++a)
    for (int64_t b = 0; b < sz[1]; ++b)
      for (int64_t c = 0; c < sz[2]; ++c)
        for (int64_t d = 0; d < sz[3]; ++d) {
          const int64_t off = a * st[0] + b * st[1] + c * st[2] + d * st[3];
          store_row<G>(dw.scalar_type(), acc, base + off * es, st[4] * es, sz[4]);
          acc += sz[4];
        }
}

// The weight gradient's operands: G holds grad_output (or, transposed, the
// input) on the conv's grid, I the image it was taken from.
struct GradShape {
  const Tensor* gt;
  const Tensor* it;
  int64_t gcg;
  int64_t icg;
  int64_t rows;  // image taps per group
  int64_t positions;
  int64_t g_size[5];
  int64_t i_size[5];
  int64_t wsize;
};

GradShape grad_shape(const ConvProblem& p, const Tensor& go) {
  const WindowGeom& g = p.g;
  GradShape s;
  s.gt = p.transposed ? p.input : &go;
  s.it = p.transposed ? &go : p.input;
  const int64_t gch = p.transposed ? p.in_ch : p.out_ch;
  const int64_t ich = p.transposed ? p.out_ch : p.in_ch;
  s.gcg = gch / p.groups;
  s.icg = ich / p.groups;
  s.rows = s.icg * g.taps();
  s.positions = g.grid_size();
  const int64_t g_size[5] = {p.batch, gch, g.grid[0], g.grid[1], g.grid[2]};
  const int64_t i_size[5] = {p.batch, ich, g.img[0], g.img[1], g.img[2]};
  for (int i = 0; i < 5; ++i) {
    s.g_size[i] = g_size[i];
    s.i_size[i] = i_size[i];
  }
  s.wsize = p.w_size[0] * p.w_size[1] * g.taps();
  return s;
}

template <typename G>
bool in_place(const Tensor& dw) {
  return dw.scalar_type() == dtype_of<G>() && dw.is_contiguous();
}

int64_t numel5(const int64_t* sizes) {
  return sizes[0] * sizes[1] * sizes[2] * sizes[3] * sizes[4];
}

template <typename G>
size_t weight_grad_scratch(const ConvProblem& p, const Tensor& go, const Tensor& dw) {
  const GradShape s = grad_shape(p, go);
  ScratchSize size;
  if (!in_place<G>(dw)) size.add<G>(s.wsize);
  if (s.gt->scalar_type() != dtype_of<G>()) size.add<G>(numel5(s.g_size));
  if (s.it->scalar_type() != dtype_of<G>()) size.add<G>(numel5(s.i_size));
  const int64_t per_pos = (s.rows + s.gcg) * static_cast<int64_t>(sizeof(G));
  const int64_t lc = conv_tile_positions(kConvTileBytes, per_pos, s.positions);
  size.add<G>(s.rows * lc);
  size.add<G>(s.gcg * lc);
  return size.bytes() + kTempSlack;
}

template <typename G>
Error weight_grad(KernelContext& ctx, const ConvProblem& p, const Tensor& go, Tensor& dw) {
  const WindowGeom& g = p.g;
  const GradShape s = grad_shape(p, go);
  const Tensor& gt = *s.gt;
  const Tensor& it = *s.it;
  const int64_t gcg = s.gcg;
  const int64_t icg = s.icg;
  const int64_t rows = s.rows;
  const int64_t positions = s.positions;
  int64_t g_st[5], i_st[5];
  conv_strides5(gt, g_st);
  conv_strides5(it, i_st);
  const int64_t* g_size = s.g_size;
  const int64_t* i_size = s.i_size;
  const int64_t wsize = s.wsize;
  const bool write_in_place = in_place<G>(dw);
  G* acc = write_in_place
               ? static_cast<G*>(dw.mutable_data())
               : (ctx.temp != nullptr ? ctx.temp->allocate_array<G>(static_cast<size_t>(wsize))
                                      : nullptr);
  const G* gbuf = conv_operand<G>(ctx, gt, g_size, g_st);
  const G* ibuf = conv_operand<G>(ctx, it, i_size, i_st);
  if (acc == nullptr || gbuf == nullptr || ibuf == nullptr) return too_small();
  // Chunks of window positions: per position, `rows` image taps and gcg
  // grid values.
  const int64_t per_pos = (rows + gcg) * static_cast<int64_t>(sizeof(G));
  int64_t lc = static_cast<int64_t>(temp_left(ctx.temp)) / per_pos;
  if (lc > positions) lc = positions;
  if (lc < 1) return too_small();
  G* cols = ctx.temp->allocate_array<G>(static_cast<size_t>(rows * lc));
  G* gvals = ctx.temp->allocate_array<G>(static_cast<size_t>(gcg * lc));
  if (cols == nullptr || gvals == nullptr) return too_small();
  for (int64_t k = 0; k < wsize; ++k) acc[k] = G(0);
  WindowGeom flat;  // G's own positions, one tap each
  for (int i = 0; i < 3; ++i) flat.img[i] = flat.grid[i] = g.grid[i];
  for (int64_t n = 0; n < p.batch; ++n) {
    for (int64_t gr = 0; gr < p.groups; ++gr) {
      const G* img = ibuf + n * i_st[0] + gr * icg * i_st[1];
      const G* grid = gbuf + n * g_st[0] + gr * gcg * g_st[1];
      G* w = acc + gr * gcg * rows;
      for (int64_t l0 = 0; l0 < positions; l0 += lc) {
        const int64_t len = positions - l0 < lc ? positions - l0 : lc;
        im2col_chunk<G>(img, i_st + 1, g, icg, l0, len, cols, len);
        im2col_chunk<G>(grid, g_st + 1, flat, gcg, l0, len, gvals, len);
        for (int64_t c = 0; c < gcg; ++c) {
          for (int64_t r = 0; r < rows; ++r) w[c * rows + r] += dot(gvals + c * len, cols + r * len, len);
        }
      }
    }
  }
  if (!write_in_place) store_weight<G>(acc, p, dw);
  return Error::Ok;
}

}  // namespace

size_t conv_weight_grad_scratch(const ConvProblem& p, const Tensor& grad_output,
                                const Tensor& dw) {
  if (p.groups < 1) return 0;
  if (compute_kind(dw.scalar_type()) == ComputeKind::Double) {
    return weight_grad_scratch<double>(p, grad_output, dw);
  }
  return weight_grad_scratch<float>(p, grad_output, dw);
}

Error conv_weight_grad(KernelContext& context, const ConvProblem& p, const Tensor& grad_output,
                       Tensor& dw) {
  if (compute_kind(dw.scalar_type()) == ComputeKind::Double) {
    return weight_grad<double>(context, p, grad_output, dw);
  }
  return weight_grad<float>(context, p, grad_output, dw);
}

}  // namespace tri
