// aten::arange.out (0..end), aten::arange.start_out (start..end by step):
// a rank-1 out of ceil((end - start) / step) values start + i * step.
// As in ATen, an integer out truncates the bounds to integers first.
#include <cinttypes>
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

Error arange_impl(const Scalar& start, const Scalar& end, const Scalar& step, Tensor& out) {
  TRI_TRY(check_dtype(out.scalar_type(), kRealHBTypes, "out"));
  const double s = start.as_double();
  const double e = end.as_double();
  const double st = step.as_double();
  TRI_CHECK(st != 0, Error::InvalidArgument, "step must be nonzero");
  TRI_CHECK(std::isfinite(s) && std::isfinite(e), Error::InvalidArgument,
            "unsupported range: %g -> %g", s, e);
  TRI_CHECK((st > 0 && e >= s) || (st < 0 && e <= s), Error::InvalidArgument,
            "upper bound and larger bound inconsistent with step sign");
  int64_t n = 0;
  if (out.scalar_type() == ScalarType::Long) {
    const int64_t si = start.as_int();
    const int64_t ei = end.as_int();
    const int64_t sti = step.as_int();
    TRI_CHECK(sti != 0, Error::InvalidArgument, "step must be nonzero");
    const int64_t sign = sti > 0 ? 1 : -1;
    n = (ei - si + sti - sign) / sti;
  } else {
    const double size_d = std::ceil((e - s) / st);
    TRI_CHECK(size_d >= 0 && size_d <= static_cast<double>(INT32_MAX), Error::InvalidArgument,
              "arange: %g elements is out of range", size_d);
    n = static_cast<int64_t>(size_d);
  }
  n = n < 0 ? 0 : n;
  TRI_TRY(resize_out(out, Span<const int64_t>(&n, 1)));
  // Values are computed in int64 (integer outs) or double, a chunk at a
  // time, and converted into out.
  constexpr int64_t kChunk = 256;
  char* data = static_cast<char*>(out.mutable_data());
  const int64_t es = static_cast<int64_t>(out.element_size());
  if (is_integral_type(out.scalar_type(), false)) {
    const uint64_t si = static_cast<uint64_t>(start.as_int());
    const uint64_t sti = static_cast<uint64_t>(step.as_int());
    int64_t buf[kChunk];
    for (int64_t i0 = 0; i0 < n; i0 += kChunk) {
      const int64_t m = n - i0 < kChunk ? n - i0 : kChunk;
      for (int64_t i = 0; i < m; ++i) {
        buf[i] = static_cast<int64_t>(si + static_cast<uint64_t>(i0 + i) * sti);
      }
      store_row<int64_t>(out.scalar_type(), buf, data + i0 * es, es, m);
    }
    return Error::Ok;
  }
  double buf[kChunk];
  for (int64_t i0 = 0; i0 < n; i0 += kChunk) {
    const int64_t m = n - i0 < kChunk ? n - i0 : kChunk;
    for (int64_t i = 0; i < m; ++i) buf[i] = s + static_cast<double>(i0 + i) * st;
    store_row<double>(out.scalar_type(), buf, data + i0 * es, es, m);
  }
  return Error::Ok;
}

}  // namespace

Error arange_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const Scalar end, args.scalar(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(1));
  Scalar zero;
  Scalar one;
  one.i = 1;
  return arange_impl(zero, end, one, *out);
}

Error arange_start_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const Scalar start, args.scalar(0));
  TRI_ASSIGN_OR_RETURN(const Scalar end, args.scalar(1));
  TRI_ASSIGN_OR_RETURN(const Scalar step, args.scalar(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  return arange_impl(start, end, step, *out);
}

}  // namespace kernels
}  // namespace tri
