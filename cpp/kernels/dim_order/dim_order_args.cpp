#include "cpp/kernels/dim_order/dim_order_args.h"

#include <cinttypes>

namespace tri {

Error check_out_dim_order(KernelArgs& args, size_t index, const Tensor& self,
                          const Tensor& out) {
  TRI_ASSIGN_OR_RETURN(const Optional<Span<const int64_t>> order,
                       args.optional_int_list(index));
  if (!order.has_value) {
    TRI_CHECK(out.dim() == self.dim(), Error::InvalidArgument,
              "out has rank %d, self rank %d", out.dim(), self.dim());
    for (int32_t i = 0; i < self.dim(); ++i) {
      TRI_CHECK(out.dim_order()[i] == self.dim_order()[i], Error::InvalidArgument,
                "dim_order is None but out's dim order differs from self's at "
                "position %d (%d vs %d)",
                i, out.dim_order()[i], self.dim_order()[i]);
    }
    return Error::Ok;
  }
  const Span<const int64_t> o = order.value;
  TRI_CHECK(o.size() == static_cast<size_t>(self.dim()), Error::InvalidArgument,
            "dim_order has %zu entries for a rank-%d tensor", o.size(), self.dim());
  bool seen[kTensorDimLimit] = {};
  for (size_t i = 0; i < o.size(); ++i) {
    TRI_CHECK(o[i] >= 0 && o[i] < self.dim() && !seen[o[i]], Error::InvalidArgument,
              "dim_order is not a permutation of 0..%d (entry %zu is %" PRId64 ")",
              self.dim() - 1, i, o[i]);
    seen[o[i]] = true;
    TRI_CHECK(out.dim() == self.dim() && out.dim_order()[i] == o[i], Error::InvalidArgument,
              "dim_order[%zu] is %" PRId64 " but out's dim order has %d there", i, o[i],
              i < static_cast<size_t>(out.dim()) ? out.dim_order()[i] : -1);
  }
  return Error::Ok;
}

}  // namespace tri
