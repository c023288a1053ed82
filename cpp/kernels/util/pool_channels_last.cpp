#include "cpp/kernels/util/pool_channels_last.h"

#include <limits>

#include "cpp/kernels/util/gemm_f4.h"

namespace tri {
namespace {

// A max window starts at its first tap inside the input and ends inside it.
PoolSpan dim_window(const PoolProblem& p, int i, int64_t o) {
  return p.kind == PoolKind::Max ? max_window_taps(p.g, i, o) : pool_window_span(p, i, o);
}

struct Row {
  const float* in;  // (n) volume; element strides below
  float* out;
  int64_t* idx;
  int64_t ist[3], ost[3], xst[3];
  int64_t channels;
};

// One output row (n, od, oh): every ow, all channels (4 at a time, then one
// at a time through the same lanes with a padded copy).
void pool_row(const PoolProblem& p, const Row& r, int64_t od, int64_t oh) {
  const WindowGeom& g = p.g;
  const PoolSpan wd = dim_window(p, 0, od);
  const PoolSpan wh = dim_window(p, 1, oh);
  const int64_t step_d = p.kind == PoolKind::Max ? g.d[0] : 1;
  const int64_t step_h = p.kind == PoolKind::Max ? g.d[1] : 1;
  const int64_t step_w = p.kind == PoolKind::Max ? g.d[2] : 1;
  for (int64_t ow = 0; ow < g.grid[2]; ++ow) {
    const PoolSpan ww = dim_window(p, 2, ow);
    float* dst = r.out + od * r.ost[0] + oh * r.ost[1] + ow * r.ost[2];
    int64_t* idst = r.idx != nullptr ? r.idx + od * r.xst[0] + oh * r.xst[1] + ow * r.xst[2] : nullptr;
    const int64_t count = (wd.e - wd.b) * (wh.e - wh.b) * (ww.e - ww.b);
    const bool empty = wd.b >= wd.e || wh.b >= wh.e || ww.b >= ww.e;
    int64_t div = count;
    if (p.kind == PoolKind::Avg) {
      div = p.divisor != 0 ? p.divisor : p.count_include_pad ? wd.full * wh.full * ww.full : count;
    }
    const F4 divv = f4_splat(static_cast<float>(div));
    for (int64_t c = 0; c < r.channels; c += 4) {
      // The last group may overlap the previous one (channels >= 4): same values.
      const int64_t c0 = c + 4 <= r.channels ? c : r.channels - 4;
      if (p.kind == PoolKind::Max) {
        F4 best = f4_splat(-std::numeric_limits<float>::infinity());
        I4 index = i4_splat(static_cast<int32_t>((wd.b * g.img[1] + wh.b) * g.img[2] + ww.b));
        for (int64_t d = wd.b; d < wd.e; d += step_d) {
          for (int64_t h = wh.b; h < wh.e; h += step_h) {
            for (int64_t w = ww.b; w < ww.e; w += step_w) {
              const F4 v = f4_load(r.in + d * r.ist[0] + h * r.ist[1] + w * r.ist[2] + c0);
              f4_max_index(best, index, v, static_cast<int32_t>((d * g.img[1] + h) * g.img[2] + w));
            }
          }
        }
        f4_store(dst + c0, best);
        int32_t lanes[4];
        i4_store(lanes, index);
        for (int l = 0; l < 4; ++l) idst[c0 + l] = lanes[l];
        continue;
      }
      if (p.kind == PoolKind::Avg && empty) {
        f4_store(dst + c0, f4_zero());
        continue;
      }
      F4 sum = f4_zero();
      for (int64_t d = wd.b; d < wd.e; ++d) {
        for (int64_t h = wh.b; h < wh.e; ++h) {
          for (int64_t w = ww.b; w < ww.e; ++w) {
            sum = f4_add(sum, f4_load(r.in + d * r.ist[0] + h * r.ist[1] + w * r.ist[2] + c0));
          }
        }
      }
      f4_store(dst + c0, f4_div(sum, divv));
    }
  }
}

}  // namespace

bool pool_channels_last_applies(const PoolProblem& p, int32_t nsp) {
  if (p.in->scalar_type() != ScalarType::Float) return false;
  int64_t ist[5], ost[5], xst[5] = {0, 1, 0, 0, 0};
  pool_strides(*p.in, nsp, ist);
  pool_strides(*p.out, nsp, ost);
  if (p.indices != nullptr) pool_strides(*p.indices, nsp, xst);
  const int32_t lead = p.in->dim() - nsp;
  return ist[1] == 1 && ost[1] == 1 && xst[1] == 1 && p.in->size(lead - 1) >= 4 &&
         p.g.img_size() <= std::numeric_limits<int32_t>::max();
}

void pool_channels_last(const PoolProblem& p, int32_t nsp) {
  int64_t ist[5], ost[5], xst[5] = {};
  pool_strides(*p.in, nsp, ist);
  pool_strides(*p.out, nsp, ost);
  if (p.indices != nullptr) pool_strides(*p.indices, nsp, xst);
  const int32_t lead = p.in->dim() - nsp;
  const int64_t batch = lead == 2 ? p.in->size(0) : 1;
  for (int64_t n = 0; n < batch; ++n) {
    Row r;
    r.in = static_cast<const float*>(p.in->mutable_data()) + n * ist[0];
    r.out = static_cast<float*>(p.out->mutable_data()) + n * ost[0];
    r.idx = p.indices != nullptr ? p.indices->data_ptr<int64_t>() + n * xst[0] : nullptr;
    for (int i = 0; i < 3; ++i) {
      r.ist[i] = ist[2 + i];
      r.ost[i] = ost[2 + i];
      r.xst[i] = xst[2 + i];
    }
    r.channels = p.in->size(lead - 1);
    for (int64_t od = 0; od < p.g.grid[0]; ++od) {
      for (int64_t oh = 0; oh < p.g.grid[1]; ++oh) pool_row(p, r, od, oh);
    }
  }
}

}  // namespace tri
