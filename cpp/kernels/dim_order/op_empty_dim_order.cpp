// dim_order_ops::_empty_dim_order.out: out resized to `size`, its values
// left as they are (empty). `dim_order`, when given, must name out's dim
// order; when None, out must be contiguous.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/shape_size.h"

namespace tri {
namespace kernels {

Error empty_dim_order_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> size, args.int_list(0));
  TRI_ASSIGN_OR_RETURN(const Optional<Span<const int64_t>> order, args.optional_int_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_dtype(out->scalar_type(), kAllTypes, "out"));
  TRI_CHECK(size.size() == static_cast<size_t>(out->dim()), Error::InvalidArgument,
            "size has %zu entries, out has rank %d", size.size(), out->dim());
  for (int32_t i = 0; i < out->dim(); ++i) {
    const int64_t want = order.has_value ? -1 : i;
    if (order.has_value) {
      TRI_CHECK(order.value.size() == size.size(), Error::InvalidArgument,
                "dim_order has %zu entries for %zu sizes", order.value.size(), size.size());
      TRI_CHECK(order.value[static_cast<size_t>(i)] == out->dim_order()[i],
                Error::InvalidArgument, "dim_order[%d] is %" PRId64 " but out's dim order has %d there",
                i, order.value[static_cast<size_t>(i)], out->dim_order()[i]);
    } else {
      TRI_CHECK(out->dim_order()[i] == want, Error::InvalidArgument,
                "dim_order is None but out is not contiguous (position %d holds %d)", i,
                out->dim_order()[i]);
    }
  }
  return resize_to_size_arg(size, *out);
}

}  // namespace kernels
}  // namespace tri
