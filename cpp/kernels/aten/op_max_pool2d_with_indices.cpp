// aten::max_pool2d_with_indices.out: [self, kernel_size, stride, padding,
// dilation, ceil_mode, out, indices, (out, indices)]. self is [N, C, H, W] or
// [C, H, W] in any dim order; indices are flat h * W + w within each plane.
// NaN wins, as in ATen.
#include <cinttypes>
#include <limits>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

struct Pool2d {
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
  int64_t ih, iw, oh, ow;
};

// A pair argument of 1 or 2 entries (0 entries allowed only when `fallback`).
Error read_pair(KernelArgs& args, size_t i, const char* name, const int64_t* fallback,
                int64_t* h, int64_t* w) {
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> v, args.int_list(i));
  if (v.empty() && fallback != nullptr) {
    *h = fallback[0];
    *w = fallback[1];
    return Error::Ok;
  }
  TRI_CHECK(v.size() == 1 || v.size() == 2, Error::InvalidArgument,
            "%s must be a single int or a tuple of two ints, got %zu values", name, v.size());
  *h = v[0];
  *w = v.size() == 2 ? v[1] : v[0];
  return Error::Ok;
}

int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  const int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  int64_t out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;
  if (ceil && (out - 1) * stride >= in + pad) {
    --out;
  }
  return out;
}

// Element access in the compute type C: in place when the tensor holds C
// (Float, Double, Long), converting otherwise.
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

// One [H, W] plane; strides in bytes. Called once per plane.
template <typename C, typename Access>
void pool_plane(const Pool2d& p, const Access& access, C init, const char* in, int64_t in_sh,
                int64_t in_sw, char* out, int64_t out_sh, int64_t out_sw, int64_t* idx,
                int64_t idx_sh, int64_t idx_sw) {
  for (int64_t oh = 0; oh < p.oh; ++oh) {
    int64_t h0 = oh * p.sh - p.ph;
    const int64_t h1 = h0 + (p.kh - 1) * p.dh + 1 < p.ih ? h0 + (p.kh - 1) * p.dh + 1 : p.ih;
    while (h0 < 0) h0 += p.dh;
    for (int64_t ow = 0; ow < p.ow; ++ow) {
      int64_t w0 = ow * p.sw - p.pw;
      const int64_t w1 = w0 + (p.kw - 1) * p.dw + 1 < p.iw ? w0 + (p.kw - 1) * p.dw + 1 : p.iw;
      while (w0 < 0) w0 += p.dw;
      C best = init;
      int64_t best_index = h0 * p.iw + w0;
      for (int64_t h = h0; h < h1; h += p.dh) {
        for (int64_t w = w0; w < w1; w += p.dw) {
          const C v = access.load(in + h * in_sh + w * in_sw);
          if (v > best || v != v) {
            best = v;
            best_index = h * p.iw + w;
          }
        }
      }
      access.store(out + oh * out_sh + ow * out_sw, best);
      idx[oh * idx_sh + ow * idx_sw] = best_index;
    }
  }
}

struct Planes {
  const Tensor* self;
  Tensor* out;
  Tensor* indices;
};

template <typename C, typename Access>
void pool_all(const Pool2d& p, const Planes& t, const Access& access, C init) {
  const int32_t rank = t.self->dim();
  const int64_t es = static_cast<int64_t>(t.self->element_size());
  // Byte strides (index strides in elements); 0 for the missing batch dim.
  auto stride = [](const Tensor& x, int32_t d, int64_t size) -> int64_t {
    return d < 0 ? 0 : x.strides()[d] * size;
  };
  const int32_t nd = rank == 4 ? 0 : -1;
  const int32_t cd = rank - 3;
  const int32_t hd = rank - 2;
  const int32_t wd = rank - 1;
  const int64_t batch = rank == 4 ? t.self->size(0) : 1;
  const int64_t channels = t.self->size(cd);
  const char* in = static_cast<const char*>(t.self->mutable_data());
  char* o = static_cast<char*>(t.out->mutable_data());
  int64_t* idx = t.indices->data_ptr<int64_t>();
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t c = 0; c < channels; ++c) {
      pool_plane<C>(p, access, init, in + stride(*t.self, nd, es) * n + stride(*t.self, cd, es) * c,
                    stride(*t.self, hd, es), stride(*t.self, wd, es),
                    o + stride(*t.out, nd, es) * n + stride(*t.out, cd, es) * c,
                    stride(*t.out, hd, es), stride(*t.out, wd, es),
                    idx + stride(*t.indices, nd, 1) * n + stride(*t.indices, cd, 1) * c,
                    stride(*t.indices, hd, 1), stride(*t.indices, wd, 1));
    }
  }
}

}  // namespace

Error max_pool2d_with_indices_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  Pool2d p{};
  TRI_TRY(read_pair(args, 1, "kernel_size", nullptr, &p.kh, &p.kw));
  const int64_t kernel[] = {p.kh, p.kw};
  TRI_TRY(read_pair(args, 2, "stride", kernel, &p.sh, &p.sw));
  TRI_TRY(read_pair(args, 3, "padding", nullptr, &p.ph, &p.pw));
  TRI_TRY(read_pair(args, 4, "dilation", nullptr, &p.dh, &p.dw));
  TRI_ASSIGN_OR_RETURN(const bool ceil_mode, args.bool_value(5));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(6));
  TRI_ASSIGN_OR_RETURN(Tensor* indices, args.tensor(7));
  const int32_t rank = self->dim();
  TRI_CHECK(rank == 3 || rank == 4, Error::InvalidArgument,
            "expected a 3D or 4D input, got rank %d", rank);
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_TRY(check_same_dtype(*indices, ScalarType::Long, "indices"));
  TRI_CHECK(p.kh > 0 && p.kw > 0, Error::InvalidArgument,
            "kernel size should be greater than zero, got (%" PRId64 ", %" PRId64 ")", p.kh, p.kw);
  TRI_CHECK(p.sh > 0 && p.sw > 0, Error::InvalidArgument,
            "stride should be greater than zero, got (%" PRId64 ", %" PRId64 ")", p.sh, p.sw);
  TRI_CHECK(p.dh > 0 && p.dw > 0, Error::InvalidArgument,
            "dilation should be greater than zero, got (%" PRId64 ", %" PRId64 ")", p.dh, p.dw);
  TRI_CHECK(p.ph >= 0 && p.pw >= 0 && p.ph <= ((p.kh - 1) * p.dh + 1) / 2 &&
                p.pw <= ((p.kw - 1) * p.dw + 1) / 2,
            Error::InvalidArgument,
            "pad should be at most half of effective kernel size, but got pad=(%" PRId64
            ", %" PRId64 "), kernel_size=(%" PRId64 ", %" PRId64 ")",
            p.ph, p.pw, p.kh, p.kw);
  p.ih = self->size(rank - 2);
  p.iw = self->size(rank - 1);
  p.oh = pooled_size(p.ih, p.kh, p.ph, p.sh, p.dh, ceil_mode);
  p.ow = pooled_size(p.iw, p.kw, p.pw, p.sw, p.dw, ceil_mode);
  TRI_CHECK(p.oh >= 1 && p.ow >= 1, Error::InvalidArgument,
            "input size %" PRId64 "x%" PRId64 " gives output size %" PRId64 "x%" PRId64
            ", which is too small",
            p.ih, p.iw, p.oh, p.ow);
  int64_t shape[4];
  for (int32_t d = 0; d < rank - 2; ++d) shape[d] = self->size(d);
  shape[rank - 2] = p.oh;
  shape[rank - 1] = p.ow;
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, rank)));
  TRI_TRY(resize_out(*indices, Span<const int64_t>(shape, rank), "indices"));
  const Planes planes{self, out, indices};
  const ScalarType type = self->scalar_type();
  // An empty window (possible with dilation) gives -inf, or the dtype's lowest.
  const float neg_inf = -std::numeric_limits<float>::infinity();
  switch (type) {
    case ScalarType::Float: pool_all<float>(p, planes, Direct<float>(), neg_inf); break;
    case ScalarType::Double: pool_all<double>(p, planes, Direct<double>(), neg_inf); break;
    case ScalarType::Long:
      pool_all<int64_t>(p, planes, Direct<int64_t>(), std::numeric_limits<int64_t>::lowest());
      break;
    case ScalarType::Byte: pool_all<int64_t>(p, planes, Converting<int64_t>{type}, 0); break;
    case ScalarType::Char: pool_all<int64_t>(p, planes, Converting<int64_t>{type}, INT8_MIN); break;
    case ScalarType::Short: pool_all<int64_t>(p, planes, Converting<int64_t>{type}, INT16_MIN); break;
    case ScalarType::Int: pool_all<int64_t>(p, planes, Converting<int64_t>{type}, INT32_MIN); break;
    default: pool_all<float>(p, planes, Converting<float>{type}, neg_inf); break;
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
