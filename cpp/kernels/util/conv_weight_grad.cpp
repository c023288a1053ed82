#include "cpp/kernels/util/conv_weight_grad.h"

#include "cpp/kernels/util/conv_im2col.h"
#include "cpp/kernels/util/conv_plan.h"
#include "cpp/kernels/util/convert.h"

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

template <typename G>
Error weight_grad(KernelContext& ctx, const ConvProblem& p, const Tensor& go, Tensor& dw) {
  const WindowGeom& g = p.g;
  const Tensor& gt = p.transposed ? *p.input : go;
  const Tensor& it = p.transposed ? go : *p.input;
  const int64_t gch = p.transposed ? p.in_ch : p.out_ch;
  const int64_t ich = p.transposed ? p.out_ch : p.in_ch;
  const int64_t gcg = gch / p.groups;
  const int64_t icg = ich / p.groups;
  const int64_t rows = icg * g.taps();
  const int64_t positions = g.grid_size();
  int64_t g_st[5], i_st[5];
  conv_strides5(gt, g_st);
  conv_strides5(it, i_st);
  const int64_t g_size[5] = {p.batch, gch, g.grid[0], g.grid[1], g.grid[2]};
  const int64_t i_size[5] = {p.batch, ich, g.img[0], g.img[1], g.img[2]};
  const bool in_place = dw.scalar_type() == dtype_of<G>() && dw.is_contiguous();
  const int64_t wsize = p.w_size[0] * p.w_size[1] * g.taps();
  G* acc = in_place ? static_cast<G*>(dw.mutable_data())
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
        im2col_chunk<G>(img, i_st + 1, g, icg, l0, len, cols);
        im2col_chunk<G>(grid, g_st + 1, flat, gcg, l0, len, gvals);
        for (int64_t c = 0; c < gcg; ++c) {
          for (int64_t r = 0; r < rows; ++r) w[c * rows + r] += dot(gvals + c * len, cols + r * len, len);
        }
      }
    }
  }
  if (!in_place) store_weight<G>(acc, p, dw);
  return Error::Ok;
}

}  // namespace

Error conv_weight_grad(KernelContext& context, const ConvProblem& p, const Tensor& grad_output,
                       Tensor& dw) {
  if (compute_kind(dw.scalar_type()) == ComputeKind::Double) {
    return weight_grad<double>(context, p, grad_output, dw);
  }
  return weight_grad<float>(context, p, grad_output, dw);
}

}  // namespace tri
