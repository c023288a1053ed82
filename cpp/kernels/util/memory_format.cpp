#include "cpp/kernels/util/memory_format.h"

#include <cinttypes>

namespace tri {
namespace {

bool has_dim_order(const Tensor& t, const DimOrderType* order, int32_t rank) {
  if (t.dim() != rank) {
    return false;
  }
  for (int32_t i = 0; i < rank; ++i) {
    if (t.dim_order()[i] != order[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace

Error check_memory_format(KernelArgs& args, size_t index, const Tensor& out) {
  TRI_ASSIGN_OR_RETURN(const Optional<int64_t> format, args.optional_int(index));
  if (!format.has_value || format.value == 1) {
    return Error::Ok;
  }
  static const DimOrderType kChannelsLast[] = {0, 2, 3, 1};
  static const DimOrderType kChannelsLast3d[] = {0, 2, 3, 4, 1};
  switch (format.value) {
    case 0:
      TRI_CHECK(out.is_contiguous(), Error::InvalidArgument,
                "memory_format contiguous, but out is not contiguous");
      return Error::Ok;
    case 2:
      TRI_CHECK(has_dim_order(out, kChannelsLast, 4), Error::InvalidArgument,
                "memory_format channels_last, but out is not a rank-4 NHWC tensor");
      return Error::Ok;
    case 3:
      TRI_CHECK(has_dim_order(out, kChannelsLast3d, 5), Error::InvalidArgument,
                "memory_format channels_last_3d, but out is not a rank-5 NDHWC tensor");
      return Error::Ok;
    default:
      return fail(Error::InvalidArgument, "memory_format %" PRId64 " is not supported",
                  format.value);
  }
}

}  // namespace tri
