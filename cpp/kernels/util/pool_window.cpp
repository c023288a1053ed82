#include "cpp/kernels/util/pool_window.h"

#include <cinttypes>
#include <limits>
#include <type_traits>

#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/pool_channels_last.h"
#include "cpp/kernels/util/pool_max_plane.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/simd.h"
#include "cpp/runtime/platform/parallel.h"

namespace tri {
namespace {

// Reads / writes one element in C, in place when the tensor holds C.
template <typename C>
struct Elem {
  ScalarType type;
  bool direct;
  C load(const char* p) const {
    return direct ? *reinterpret_cast<const C*>(p) : load_one<C>(type, p);
  }
  void store(char* p, C v) const {
    if (direct) {
      *reinterpret_cast<C*>(p) = v;
    } else {
      store_one<C>(type, v, p);
    }
  }
};

template <typename C>
C lowest_of(ScalarType t) {
  if constexpr (std::is_floating_point<C>::value) {
    return -std::numeric_limits<C>::infinity();
  } else {
    switch (t) {
      case ScalarType::Byte: return 0;
      case ScalarType::Char: return INT8_MIN;
      case ScalarType::Short: return INT16_MIN;
      case ScalarType::Int: return INT32_MIN;
      default: return std::numeric_limits<int64_t>::lowest();
    }
  }
}

struct Plane {
  const char* in;
  char* out;
  int64_t* idx;
  int64_t ist[3];  // byte strides d, h, w
  int64_t ost[3];
  int64_t xst[3];  // index strides (elements)
};


// Integer sums wrap (no UB); integer division truncates like ATen's.
template <typename A>
inline A add_wrapping(A a, A b) {
  if constexpr (std::is_integral<A>::value) {
    return static_cast<A>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  } else {
    return a + b;
  }
}
template <typename A>
inline A divide(A sum, int64_t div) {
  if constexpr (std::is_integral<A>::value) {
    if (div == -1) return static_cast<A>(0 - static_cast<uint64_t>(sum));
    return sum / div;
  } else {
    return sum / static_cast<A>(div);
  }
}

template <typename C>
void pool_plane(const PoolProblem& p, const Elem<C>& el, C init, const Plane& pl) {
  const WindowGeom& g = p.g;
  using Acc = typename std::conditional<std::is_same<C, float>::value, float, C>::type;
  for (int64_t od = 0; od < g.grid[0]; ++od) {
    const PoolSpan wd = pool_window_span(p, 0, od);
    for (int64_t oh = 0; oh < g.grid[1]; ++oh) {
      const PoolSpan wh = pool_window_span(p, 1, oh);
      for (int64_t ow = 0; ow < g.grid[2]; ++ow) {
        const PoolSpan ww = pool_window_span(p, 2, ow);
        char* dst = pl.out + od * pl.ost[0] + oh * pl.ost[1] + ow * pl.ost[2];
        if (p.kind == PoolKind::Max) {
          int64_t b[3] = {wd.b, wh.b, ww.b};
          const int64_t e[3] = {wd.e < g.img[0] ? wd.e : g.img[0], wh.e < g.img[1] ? wh.e : g.img[1],
                                ww.e < g.img[2] ? ww.e : g.img[2]};
          for (int i = 0; i < 3; ++i) {
            while (b[i] < 0) b[i] += g.d[i];
          }
          C best = init;
          int64_t best_i = (b[0] * g.img[1] + b[1]) * g.img[2] + b[2];
          for (int64_t d = b[0]; d < e[0]; d += g.d[0]) {
            for (int64_t h = b[1]; h < e[1]; h += g.d[1]) {
              const char* row = pl.in + d * pl.ist[0] + h * pl.ist[1];
              for (int64_t w = b[2]; w < e[2]; w += g.d[2]) {
                const C v = el.load(row + w * pl.ist[2]);
                if (v > best || v != v) {
                  best = v;
                  best_i = (d * g.img[1] + h) * g.img[2] + w;
                }
              }
            }
          }
          el.store(dst, best);
          pl.idx[od * pl.xst[0] + oh * pl.xst[1] + ow * pl.xst[2]] = best_i;
          continue;
        }
        Acc sum = Acc(0);
        for (int64_t d = wd.b; d < wd.e; ++d) {
          for (int64_t h = wh.b; h < wh.e; ++h) {
            const char* row = pl.in + d * pl.ist[0] + h * pl.ist[1];
            for (int64_t w = ww.b; w < ww.e; ++w) sum = add_wrapping(sum, el.load(row + w * pl.ist[2]));
          }
        }
        const int64_t count = (wd.e - wd.b) * (wh.e - wh.b) * (ww.e - ww.b);
        int64_t div = count;
        if (p.kind == PoolKind::Avg) {
          if (wd.b >= wd.e || wh.b >= wh.e || ww.b >= ww.e) {
            el.store(dst, C(0));
            continue;
          }
          div = p.divisor != 0 ? p.divisor
                : p.count_include_pad ? wd.full * wh.full * ww.full
                                      : count;
        }
        el.store(dst, divide(sum, div));
      }
    }
  }
}

template <typename C>
void pool_all(const PoolProblem& p, int32_t nsp, bool vector) {
  const Tensor& in = *p.in;
  const int64_t es = static_cast<int64_t>(in.element_size());
  int64_t ist[5], ost[5], xst[5] = {};
  pool_strides(in, nsp, ist);
  pool_strides(*p.out, nsp, ost);
  if (p.indices != nullptr) pool_strides(*p.indices, nsp, xst);
  const int32_t lead = in.dim() - nsp;
  const int64_t batch = lead == 2 ? in.size(0) : 1;
  const int64_t channels = in.size(lead - 1);
  const ScalarType t = in.scalar_type();
  const Elem<C> el{t, compute_dtype(t) == t};
  const C init = lowest_of<C>(t);
  const int64_t plane_size = p.g.grid_size();
  const size_t min_planes = static_cast<size_t>(4096 / (plane_size * p.g.taps() + 1) + 1);
  parallel_for(static_cast<size_t>(batch * channels), min_planes, [&](size_t begin, size_t end) {
    int64_t dummy = 0;
    for (size_t plane = begin; plane < end; ++plane) {
      const int64_t n = static_cast<int64_t>(plane) / channels;
      const int64_t c = static_cast<int64_t>(plane) % channels;
      Plane pl;
      pl.in = static_cast<const char*>(in.mutable_data()) + (n * ist[0] + c * ist[1]) * es;
      pl.out = static_cast<char*>(p.out->mutable_data()) + (n * ost[0] + c * ost[1]) * es;
      pl.idx = p.indices != nullptr ? p.indices->data_ptr<int64_t>() + n * xst[0] + c * xst[1]
                                    : &dummy;
      for (int i = 0; i < 3; ++i) {
        pl.ist[i] = ist[2 + i] * es;
        pl.ost[i] = ost[2 + i] * es;
        pl.xst[i] = p.indices != nullptr ? xst[2 + i] : 0;
      }
      if constexpr (std::is_same<C, float>::value) {
        if (p.kind == PoolKind::Max && el.direct && nsp == 2) {
          constexpr int64_t f = sizeof(float);
          const MaxPlane mp{reinterpret_cast<const float*>(pl.in), reinterpret_cast<float*>(pl.out),
                            pl.idx, pl.ist[1] / f, pl.ist[2] / f, pl.ost[1] / f, pl.ost[2] / f,
                            pl.xst[1], pl.xst[2]};
          max_plane_f32_2d(p.g, mp, vector);
          continue;
        }
      }
      pool_plane<C>(p, el, init, pl);
    }
  });
}

}  // namespace

void pool_strides(const Tensor& t, int32_t nsp, int64_t* st) {
  for (int i = 0; i < 5; ++i) st[i] = 0;
  const int32_t lead = t.dim() - nsp;
  if (lead == 2) st[0] = t.strides()[0];
  st[1] = t.strides()[lead - 1];
  for (int32_t i = 0; i < nsp; ++i) st[5 - nsp + i] = t.strides()[lead + i];
}

int32_t pool_out_shape(const Tensor& in, int32_t nsp, const WindowGeom& g, int64_t* shape) {
  const int32_t lead = in.dim() - nsp;
  for (int32_t d = 0; d < lead; ++d) shape[d] = in.size(d);
  for (int32_t i = 0; i < nsp; ++i) shape[lead + i] = g.grid[3 - nsp + i];
  return in.dim();
}

Error check_pool_input(const Tensor& in, int32_t nsp, WindowGeom& g) {
  TRI_CHECK(in.dim() == nsp + 1 || in.dim() == nsp + 2, Error::InvalidArgument,
            "expected a %dD or %dD input, got rank %d", nsp + 1, nsp + 2, in.dim());
  const int32_t lead = in.dim() - nsp;
  for (int32_t i = 0; i < nsp; ++i) {
    g.img[3 - nsp + i] = in.size(lead + i);
    TRI_CHECK(in.size(lead + i) > 0, Error::InvalidArgument,
              "expected non-empty spatial dims, but input dim %d has size 0", lead + i);
  }
  return Error::Ok;
}

void run_pool(const PoolProblem& p, int32_t nsp) { run_pool(p, nsp, simd_enabled()); }

void run_pool(const PoolProblem& p, int32_t nsp, bool vector) {
  if (vector && pool_channels_last_applies(p, nsp)) {
    pool_channels_last(p, nsp);
    return;
  }
  switch (compute_kind(p.in->scalar_type())) {
    case ComputeKind::Float: return pool_all<float>(p, nsp, vector);
    case ComputeKind::Double: return pool_all<double>(p, nsp, vector);
    default: return pool_all<int64_t>(p, nsp, vector);
  }
}

PoolSpan pool_window_span(const PoolProblem& p, int i, int64_t o) {
  const WindowGeom& g = p.g;
  if (p.kind == PoolKind::AdaptiveAvg) {
    const int64_t b = (o * g.img[i]) / g.grid[i];
    const int64_t e = ((o + 1) * g.img[i] + g.grid[i] - 1) / g.grid[i];
    return {b, e, e - b};
  }
  const int64_t b = o * g.s[i] - g.p[i];
  if (p.kind == PoolKind::Avg) {
    int64_t e = b + g.k[i];
    if (e > g.img[i] + g.p[i]) e = g.img[i] + g.p[i];
    const int64_t full = e - b;
    return {b < 0 ? 0 : b, e > g.img[i] ? g.img[i] : e, full};
  }
  return {b, b + (g.k[i] - 1) * g.d[i] + 1, 0};  // Max: dilated, clipped by the caller
}

PoolSpan max_window_taps(const WindowGeom& g, int i, int64_t o) {
  int64_t b = o * g.s[i] - g.p[i];
  const int64_t e = b + (g.k[i] - 1) * g.d[i] + 1;
  while (b < 0) b += g.d[i];
  return {b, e > g.img[i] ? g.img[i] : e, 0};
}

Error read_pool_window(KernelArgs& args, size_t i, int32_t nsp, bool dilation, WindowGeom& g) {
  TRI_TRY(read_window_param(args, i, "kernel_size", nsp, nullptr, 1, g.k));
  TRI_TRY(read_window_param(args, i + 1, "stride", nsp, g.k, 1, g.s));
  TRI_TRY(read_window_param(args, i + 2, "padding", nsp, nullptr, 0, g.p));
  if (dilation) TRI_TRY(read_window_param(args, i + 3, "dilation", nsp, nullptr, 1, g.d));
  return Error::Ok;
}

Error plan_pool_grid(int32_t nsp, bool ceil_mode, WindowGeom& g) {
  for (int i = 3 - nsp; i < 3; ++i) {
    TRI_CHECK(g.p[i] <= g.k[i] / 2, Error::InvalidArgument,
              "pad should be at most half of kernel size, but got pad=%" PRId64
              " and kernel_size=%" PRId64,
              g.p[i], g.k[i]);
    g.grid[i] = window_count(g.img[i], g.k[i], g.p[i], g.s[i], g.d[i], ceil_mode);
    TRI_CHECK(g.grid[i] >= 1, Error::InvalidArgument,
              "input size %" PRId64 " gives output size %" PRId64 ", which is too small",
              g.img[i], g.grid[i]);
  }
  return Error::Ok;
}

Error pool_into(PoolProblem& p, Tensor& self, Tensor& out, Tensor* indices, int32_t nsp) {
  int64_t shape[5];
  const int32_t rank = pool_out_shape(self, nsp, p.g, shape);
  TRI_TRY(resize_out(out, Span<const int64_t>(shape, rank)));
  if (indices != nullptr) {
    TRI_TRY(resize_out(*indices, Span<const int64_t>(shape, rank), "indices"));
  }
  p.in = &self;
  p.out = &out;
  p.indices = indices;
  run_pool(p, nsp);
  return Error::Ok;
}

}  // namespace tri
