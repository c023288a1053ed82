// aten::_cdist_forward.out ([x1, x2, p, compute_mode, out]) and
// _pdist_forward.out ([self, p, out]): p-norm distances between rows. p = 0
// counts differing entries, p = inf takes the largest; compute_mode only
// picks ATen's algorithm (mm for p = 2), so it is checked and ignored.
#include <cinttypes>
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/broadcast.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

template <typename C>
C distance(const C* a, int64_t as, const C* b, int64_t bs, int64_t m, double p) {
  C acc = 0;
  if (p == 0) {
    for (int64_t i = 0; i < m; ++i) acc += a[i * as] != b[i * bs] ? C(1) : C(0);
    return acc;
  }
  if (std::isinf(p)) {
    for (int64_t i = 0; i < m; ++i) {
      const C d = std::abs(a[i * as] - b[i * bs]);
      if (d > acc || d != d) acc = d;
    }
    return acc;
  }
  if (p == 1) {
    for (int64_t i = 0; i < m; ++i) acc += std::abs(a[i * as] - b[i * bs]);
    return acc;
  }
  if (p == 2) {
    for (int64_t i = 0; i < m; ++i) {
      const C d = a[i * as] - b[i * bs];
      acc += d * d;
    }
    return std::sqrt(acc);
  }
  const C pc = static_cast<C>(p);
  for (int64_t i = 0; i < m; ++i) acc += std::pow(std::abs(a[i * as] - b[i * bs]), pc);
  return std::pow(acc, C(1) / pc);
}

Error check_p(double p) {
  TRI_CHECK(p >= 0, Error::InvalidArgument, "p must be non-negative, got %g", p);
  return Error::Ok;
}

template <typename C>
void cdist_all(const Tensor& x1, const Tensor& x2, Tensor& out, double p, int32_t batch_dims) {
  const int32_t r1 = x1.dim();
  const int32_t r2 = x2.dim();
  const int32_t ro = out.dim();
  const int64_t rows1 = x1.size(r1 - 2);
  const int64_t rows2 = x2.size(r2 - 2);
  const int64_t m = x1.size(r1 - 1);
  int64_t index[kTensorDimLimit] = {};
  int64_t total = 1;
  for (int32_t d = 0; d < batch_dims; ++d) total *= out.size(d);
  const C* d1 = static_cast<const C*>(x1.mutable_data());
  const C* d2 = static_cast<const C*>(x2.mutable_data());
  C* o = static_cast<C*>(out.mutable_data());
  for (int64_t it = 0; it < total; ++it) {
    int64_t off1 = 0, off2 = 0, offo = 0;
    for (int32_t d = 0; d < batch_dims; ++d) {
      // Batch dims align at the right; size-1 dims broadcast.
      const int32_t e1 = d - (batch_dims - (r1 - 2));
      const int32_t e2 = d - (batch_dims - (r2 - 2));
      if (e1 >= 0 && x1.size(e1) != 1) off1 += index[d] * x1.strides()[e1];
      if (e2 >= 0 && x2.size(e2) != 1) off2 += index[d] * x2.strides()[e2];
      offo += index[d] * out.strides()[d];
    }
    for (int64_t i = 0; i < rows1; ++i) {
      for (int64_t j = 0; j < rows2; ++j) {
        o[offo + i * out.strides()[ro - 2] + j * out.strides()[ro - 1]] =
            distance<C>(d1 + off1 + i * x1.strides()[r1 - 2], x1.strides()[r1 - 1],
                        d2 + off2 + j * x2.strides()[r2 - 2], x2.strides()[r2 - 1], m, p);
      }
    }
    for (int32_t d = batch_dims - 1; d >= 0; --d) {
      if (++index[d] < out.size(d)) break;
      index[d] = 0;
    }
  }
}

template <typename C>
void pdist_all(const Tensor& x, Tensor& out, double p) {
  const int64_t n = x.size(0);
  const int64_t m = x.size(1);
  const C* d = static_cast<const C*>(x.mutable_data());
  C* o = static_cast<C*>(out.mutable_data());
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i + 1; j < n; ++j, ++k) {
      o[k * out.strides()[0]] = distance<C>(d + i * x.strides()[0], x.strides()[1],
                                            d + j * x.strides()[0], x.strides()[1], m, p);
    }
  }
}

}  // namespace

Error cdist_forward_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* x1, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* x2, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(const double p, args.double_value(2));
  TRI_ASSIGN_OR_RETURN(const Optional<int64_t> mode, args.optional_int(3));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(4));
  TRI_TRY(check_p(p));
  TRI_CHECK(!mode.has_value || (mode.value >= 0 && mode.value <= 2), Error::InvalidArgument,
            "compute_mode must be None, 0, 1 or 2, got %" PRId64, mode.value);
  TRI_CHECK(x1->dim() >= 2 && x2->dim() >= 2, Error::InvalidArgument,
            "cdist only supports at least 2D tensors, got ranks %d and %d", x1->dim(), x2->dim());
  TRI_CHECK(x1->size(x1->dim() - 1) == x2->size(x2->dim() - 1), Error::InvalidArgument,
            "x1 and x2 must have the same number of columns (%d vs %d)",
            x1->size(x1->dim() - 1), x2->size(x2->dim() - 1));
  TRI_TRY(check_dtype(x1->scalar_type(), kFloatTypes, "x1"));
  TRI_TRY(check_same_dtype(*x2, x1->scalar_type(), "x2"));
  TRI_TRY(check_same_dtype(*out, x1->scalar_type(), "out"));
  SizesType shape[kTensorDimLimit];
  int32_t batch_dims = 0;
  TRI_TRY(broadcast_shapes(Span<const SizesType>(x1->sizes().data(), x1->dim() - 2),
                           Span<const SizesType>(x2->sizes().data(), x2->dim() - 2), shape,
                           &batch_dims));
  shape[batch_dims] = x1->size(x1->dim() - 2);
  shape[batch_dims + 1] = x2->size(x2->dim() - 2);
  TRI_TRY(resize_out(*out, Span<const SizesType>(shape, batch_dims + 2)));
  if (x1->scalar_type() == ScalarType::Double) {
    cdist_all<double>(*x1, *x2, *out, p, batch_dims);
  } else {
    cdist_all<float>(*x1, *x2, *out, p, batch_dims);
  }
  return Error::Ok;
}

Error pdist_forward_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const double p, args.double_value(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_p(p));
  TRI_CHECK(self->dim() == 2, Error::InvalidArgument,
            "pdist only supports 2D tensors, got rank %d", self->dim());
  TRI_TRY(check_dtype(self->scalar_type(), kFloatTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  const int64_t n = self->size(0);
  const int64_t shape[] = {n > 1 ? n * (n - 1) / 2 : 0};
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, 1)));
  if (self->scalar_type() == ScalarType::Double) {
    pdist_all<double>(*self, *out, p);
  } else {
    pdist_all<float>(*self, *out, p);
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
