// aten::_adaptive_avg_pool2d.out and _adaptive_avg_pool3d.out: [self,
// output_size, out]. Output cell o of a dim of size I -> O averages input
// [floor(o * I / O), ceil((o + 1) * I / O)).
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/pool_window.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

Error adaptive_avg_pool(KernelArgs& args, int32_t nsp) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> size, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_CHECK(size.size() == static_cast<size_t>(nsp), Error::InvalidArgument,
            "output_size must have %d values, got %zu", nsp, size.size());
  PoolProblem p;
  p.kind = PoolKind::AdaptiveAvg;
  TRI_TRY(check_dtype(self->scalar_type(), kFloatHBTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_TRY(check_pool_input(*self, nsp, p.g));
  for (int32_t i = 0; i < nsp; ++i) {
    TRI_CHECK(size[i] >= 0 && size[i] <= kMaxWindowParam, Error::InvalidArgument,
              "output_size values must be in [0, %" PRId64 "], got %" PRId64, kMaxWindowParam,
              size[i]);
    p.g.grid[3 - nsp + i] = size[i];
  }
  return pool_into(p, *self, *out, nullptr, nsp);
}

}  // namespace

Error adaptive_avg_pool2d_out(KernelContext&, KernelArgs& args) {
  return adaptive_avg_pool(args, 2);
}
Error adaptive_avg_pool3d_out(KernelContext&, KernelArgs& args) {
  return adaptive_avg_pool(args, 3);
}

}  // namespace kernels
}  // namespace tri
