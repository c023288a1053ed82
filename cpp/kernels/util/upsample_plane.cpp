#include "cpp/kernels/util/upsample_plane.h"

#include <cinttypes>
#include <cmath>

#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace {

// The per-output-index source of one dim: indices i0, i1 and weights.
struct Axis {
  int64_t in, out;
  bool linear, align;
  Optional<double> scale;
};

template <typename C>
C scale_value(const Axis& a) {
  return a.scale.has_value && a.scale.value > 0 ? static_cast<C>(1.0 / a.scale.value)
                                                : static_cast<C>(a.in) / static_cast<C>(a.out);
}

int64_t nearest_index(const Axis& a, int64_t o) {
  if (a.out == a.in) return o;
  if (a.out == 2 * a.in) return o >> 1;
  const float s = scale_value<float>(a);
  // A tiny scales_* value makes the source index huge (or inf): clamp before
  // converting, which would be undefined out of range.
  const float f = std::floor(static_cast<float>(o) * s);
  return f < static_cast<float>(a.in - 1) ? static_cast<int64_t>(f) : a.in - 1;
}

template <typename C>
void linear_index(const Axis& a, int64_t o, int64_t* i0, int64_t* i1, C* w0, C* w1) {
  C scale;
  if (a.align) {
    scale = a.out > 1 ? static_cast<C>(a.in - 1) / static_cast<C>(a.out - 1) : C(0);
  } else {
    scale = scale_value<C>(a);
  }
  C src = a.align ? scale * static_cast<C>(o) : scale * (static_cast<C>(o) + C(0.5)) - C(0.5);
  if (!a.align && src < 0) src = 0;
  // Clamped before converting (huge or inf from a tiny scales_* value).
  const int64_t i = src < static_cast<C>(a.in - 1) ? static_cast<int64_t>(src) : a.in - 1;
  C l = src - static_cast<C>(i);
  l = l < 0 ? C(0) : (l > 1 ? C(1) : l);
  *i0 = i;
  *i1 = i + (i < a.in - 1 ? 1 : 0);
  *w1 = l;
  *w0 = C(1) - l;
}

template <typename C>
struct Direct {
  C load(const char* p) const { return *reinterpret_cast<const C*>(p); }
  void store(char* p, C v) const { *reinterpret_cast<C*>(p) = v; }
};
template <typename C>
struct Converting {
  ScalarType type;
  C load(const char* p) const { return load_one<C>(type, p); }
  void store(char* p, C v) const { store_one<C>(type, v, p); }
};

struct Plane {
  const char* in;
  int64_t ish, isw;  // bytes
  char* out;
  int64_t osh, osw;
};

// One [H, W] plane; called once per (n, c).
template <typename C, typename Access>
void resample_plane(const Axis& h, const Axis& w, const Plane& p, const Access& access) {
  for (int64_t oh = 0; oh < h.out; ++oh) {
    char* orow = p.out + oh * p.osh;
    if (!h.linear) {
      const char* irow = p.in + nearest_index(h, oh) * p.ish;
      for (int64_t ow = 0; ow < w.out; ++ow) {
        access.store(orow + ow * p.osw, access.load(irow + nearest_index(w, ow) * p.isw));
      }
      continue;
    }
    int64_t h0, h1;
    C hw0, hw1;
    linear_index<C>(h, oh, &h0, &h1, &hw0, &hw1);
    const char* r0 = p.in + h0 * p.ish;
    const char* r1 = p.in + h1 * p.ish;
    for (int64_t ow = 0; ow < w.out; ++ow) {
      int64_t w0, w1;
      C ww0, ww1;
      linear_index<C>(w, ow, &w0, &w1, &ww0, &ww1);
      const C top = ww0 * access.load(r0 + w0 * p.isw) + ww1 * access.load(r0 + w1 * p.isw);
      const C bottom = ww0 * access.load(r1 + w0 * p.isw) + ww1 * access.load(r1 + w1 * p.isw);
      access.store(orow + ow * p.osw, hw0 * top + hw1 * bottom);
    }
  }
}

template <typename C, typename Access>
void resample_all(const Axis& h, const Axis& w, const Tensor& self, Tensor& out,
                  const Access& access) {
  const int32_t rank = self.dim();
  const int64_t es = static_cast<int64_t>(self.element_size());
  const bool two = rank == 4;
  const char* in = static_cast<const char*>(self.data());
  char* o = static_cast<char*>(out.mutable_data());
  for (int64_t n = 0; n < self.size(0); ++n) {
    for (int64_t c = 0; c < self.size(1); ++c) {
      Plane p;
      p.in = in + (n * self.strides()[0] + c * self.strides()[1]) * es;
      p.out = o + (n * out.strides()[0] + c * out.strides()[1]) * es;
      p.ish = two ? self.strides()[2] * es : 0;
      p.osh = two ? out.strides()[2] * es : 0;
      p.isw = self.strides()[rank - 1] * es;
      p.osw = out.strides()[rank - 1] * es;
      resample_plane<C>(h, w, p, access);
    }
  }
}

}  // namespace

Error resample(const Resample& r, const Tensor& self, Tensor& out) {
  const int32_t rank = self.dim();
  TRI_CHECK(rank == r.spatial + 2, Error::InvalidArgument,
            "expected a %dD input (N, C and %d spatial dims), got rank %d", r.spatial + 2,
            r.spatial, rank);
  const uint32_t types = r.linear ? kFloatHBTypes : (kFloatHBTypes | dtype_bit(ScalarType::Byte));
  TRI_TRY(check_dtype(self.scalar_type(), types, "self"));
  TRI_TRY(check_same_dtype(out, self.scalar_type(), "out"));
  bool nonempty = true;
  for (int32_t d = 1; d < rank; ++d) nonempty = nonempty && self.size(d) > 0;
  TRI_CHECK(nonempty, Error::InvalidArgument,
            "non-empty input expected (only the batch dim may be 0)");
  int64_t shape[4] = {self.size(0), self.size(1), 0, 0};
  for (int32_t i = 0; i < r.spatial; ++i) {
    TRI_CHECK(r.out_size[i] > 0 && r.out_size[i] <= INT32_MAX, Error::InvalidArgument,
              "output size %" PRId64 " must be greater than 0 (and fit int32)", r.out_size[i]);
    shape[2 + i] = r.out_size[i];
  }
  TRI_TRY(resize_out(out, Span<const int64_t>(shape, rank)));
  const int32_t hd = r.spatial == 2 ? 0 : -1;
  Axis h{hd < 0 ? 1 : self.size(2), hd < 0 ? 1 : r.out_size[0], r.linear, r.align_corners,
         hd < 0 ? Optional<double>{} : r.scale[0]};
  Axis w{self.size(rank - 1), r.out_size[r.spatial - 1], r.linear, r.align_corners,
         r.scale[r.spatial - 1]};
  switch (self.scalar_type()) {
    case ScalarType::Float: resample_all<float>(h, w, self, out, Direct<float>()); break;
    case ScalarType::Double: resample_all<double>(h, w, self, out, Direct<double>()); break;
    default:
      resample_all<float>(h, w, self, out, Converting<float>{self.scalar_type()});
      break;
  }
  return Error::Ok;
}

}  // namespace tri
