// Element access to [N, C, H, W] (or [C, H, W]) tensors in any dim order, in
// double, for the pooling backward kernels: they scatter-add gradients
// element by element, where a converting accessor costs little next to the
// index arithmetic.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/convert.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

struct Planes {
  char* base = nullptr;
  ScalarType type = ScalarType::Float;
  int64_t n = 1, c = 0, h = 0, w = 0;
  int64_t sn = 0, sc = 0, sh = 0, sw = 0;  // bytes

  static Planes of(const Tensor& t) {
    Planes p;
    const int32_t r = t.dim();
    const int64_t es = static_cast<int64_t>(t.element_size());
    p.base = static_cast<char*>(t.mutable_data());
    p.type = t.scalar_type();
    if (r == 4) {
      p.n = t.size(0);
      p.sn = t.strides()[0] * es;
    }
    p.c = t.size(r - 3);
    p.h = t.size(r - 2);
    p.w = t.size(r - 1);
    p.sc = t.strides()[r - 3] * es;
    p.sh = t.strides()[r - 2] * es;
    p.sw = t.strides()[r - 1] * es;
    return p;
  }
  char* at(int64_t in, int64_t ic, int64_t ih, int64_t iw) const {
    return base + in * sn + ic * sc + ih * sh + iw * sw;
  }
  double get(int64_t in, int64_t ic, int64_t ih, int64_t iw) const {
    return load_one<double>(type, at(in, ic, ih, iw));
  }
  void add(int64_t in, int64_t ic, int64_t ih, int64_t iw, double v) const {
    char* p = at(in, ic, ih, iw);
    store_one<double>(type, load_one<double>(type, p) + v, p);
  }
  // The same in int64 for integral dtypes, wrapping.
  void add_int(int64_t in, int64_t ic, int64_t ih, int64_t iw, int64_t v) const {
    char* p = at(in, ic, ih, iw);
    const uint64_t sum = static_cast<uint64_t>(load_one<int64_t>(type, p)) + static_cast<uint64_t>(v);
    store_one<int64_t>(type, static_cast<int64_t>(sum), p);
  }
  // Zeros every element (any layout).
  void zero() const {
    for (int64_t a = 0; a < n; ++a)
      for (int64_t b = 0; b < c; ++b)
        for (int64_t y = 0; y < h; ++y)
          for (int64_t x = 0; x < w; ++x) store_one<double>(type, 0.0, at(a, b, y, x));
  }
};

}  // namespace tri
