#include "cpp/runtime/core/tensor.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace tri {

const char* shape_dynamism_name(ShapeDynamism dynamism) {
  switch (dynamism) {
    case ShapeDynamism::Static: return "static";
    case ShapeDynamism::DynamicBound: return "bounded";
    case ShapeDynamism::DynamicUnbound: return "unbounded";
  }
  return "unknown";
}

bool checked_numel(Span<const SizesType> sizes, size_t* out) {
  size_t n = 1;
  for (SizesType s : sizes) {
    if (s < 0) {
      return false;
    }
    const size_t next = n * static_cast<size_t>(s);
    if (s != 0 && next / static_cast<size_t>(s) != n) {
      return false;
    }
    n = next;
  }
  *out = n;
  return true;
}

const char* format_sizes(Span<const SizesType> sizes, char* buffer,
                         size_t capacity) {
  size_t used = 0;
  int n = snprintf(buffer, capacity, "[");
  used = n > 0 ? static_cast<size_t>(n) : 0;
  for (size_t i = 0; i < sizes.size() && used < capacity; ++i) {
    n = snprintf(buffer + used, capacity - used, "%s%" PRId32, i ? ", " : "",
                 sizes[i]);
    used += n > 0 ? static_cast<size_t>(n) : 0;
  }
  if (used < capacity) {
    snprintf(buffer + used, capacity - used, "]");
  }
  return buffer;
}

Error Tensor::init(ScalarType type, Span<const SizesType> sizes,
                   Span<const DimOrderType> dim_order, void* data,
                   size_t capacity_bytes, ShapeDynamism dynamism) {
  TRI_CHECK(tri::element_size(type) != 0, Error::InvalidType,
            "unsupported scalar type %d", static_cast<int>(type));
  TRI_CHECK(sizes.size() <= kTensorDimLimit, Error::NotSupported,
            "rank %zu exceeds the limit of %zu", sizes.size(), kTensorDimLimit);
  TRI_CHECK(dim_order.empty() || dim_order.size() == sizes.size(),
            Error::InvalidArgument, "dim_order has %zu entries for rank %zu",
            dim_order.size(), sizes.size());
  size_t numel = 0;
  char text[128];
  TRI_CHECK(checked_numel(sizes, &numel), Error::InvalidArgument,
            "invalid sizes %s", format_sizes(sizes, text, sizeof(text)));
  TRI_CHECK(numel <= SIZE_MAX / tri::element_size(type), Error::InvalidArgument,
            "sizes %s overflow the address space",
            format_sizes(sizes, text, sizeof(text)));
  TRI_CHECK(strides_fit(sizes), Error::NotSupported,
            "sizes %s are too large (more than 2^31 elements per stride)",
            format_sizes(sizes, text, sizeof(text)));
  // A permutation has each dim exactly once.
  bool seen[kTensorDimLimit] = {};
  for (size_t i = 0; i < dim_order.size(); ++i) {
    const DimOrderType d = dim_order[i];
    TRI_CHECK(d < sizes.size() && d < kTensorDimLimit && !seen[d], Error::InvalidArgument,
              "dim_order is not a permutation of 0..%zu", sizes.size() - 1);
    seen[d] = true;
  }
  type_ = type;
  dynamism_ = dynamism;
  dim_ = static_cast<uint8_t>(sizes.size());
  for (size_t i = 0; i < dim_; ++i) {
    sizes_[i] = sizes[i];
    bound_sizes_[i] = sizes[i];
  }
  for (size_t i = 0; i < dim_; ++i) {
    dim_order_[i] = static_cast<DimOrderType>(i);
  }
  if (!dim_order.empty()) {
    memcpy(dim_order_, dim_order.data(), dim_);
  }
  numel_ = numel;
  data_ = data;
  capacity_ = capacity_bytes;
  compute_strides();
  return Error::Ok;
}

bool strides_fit(Span<const SizesType> sizes) {
  // Strides are 32-bit; their largest is the product of all sizes but one
  // (zeros counted as 1, as compute_strides does).
  int64_t product = 1;
  for (SizesType s : sizes) {
    product *= s > 0 ? s : 1;
    if (product > INT32_MAX) {
      return false;
    }
  }
  return true;
}

void Tensor::compute_strides() {
  // The innermost dim in memory is the last entry of dim_order. Callers
  // checked strides_fit().
  StridesType stride = 1;
  for (int32_t i = static_cast<int32_t>(dim_) - 1; i >= 0; --i) {
    const DimOrderType d = dim_order_[i];
    strides_[d] = stride;
    stride *= sizes_[d] > 0 ? sizes_[d] : 1;
  }
}

bool Tensor::is_contiguous() const {
  for (uint8_t i = 0; i < dim_; ++i) {
    if (dim_order_[i] != i) {
      return false;
    }
  }
  return true;
}

Error Tensor::resize(Span<const SizesType> new_sizes) {
  char want[128];
  char have[128];
  TRI_CHECK(new_sizes.size() == dim_, Error::InvalidArgument,
            "cannot resize a rank-%d tensor %s to rank %zu %s",
            static_cast<int>(dim_), format_sizes(sizes(), have, sizeof(have)),
            new_sizes.size(), format_sizes(new_sizes, want, sizeof(want)));
  bool same = true;
  for (size_t i = 0; i < new_sizes.size(); ++i) {
    same = same && new_sizes[i] == sizes_[i];
  }
  const bool needs_binding = binder_ != nullptr && data_ == nullptr;
  if (same && !needs_binding) {
    return Error::Ok;
  }
  size_t numel = numel_;
  if (!same) {
    TRI_CHECK(dynamism_ != ShapeDynamism::Static, Error::InvalidArgument,
              "static tensor of shape %s cannot take shape %s",
              format_sizes(sizes(), have, sizeof(have)),
              format_sizes(new_sizes, want, sizeof(want)));
    TRI_CHECK(checked_numel(new_sizes, &numel), Error::InvalidArgument,
              "invalid sizes %s", format_sizes(new_sizes, want, sizeof(want)));
    TRI_CHECK(numel <= SIZE_MAX / element_size(), Error::InvalidArgument,
              "sizes %s overflow the address space",
              format_sizes(new_sizes, want, sizeof(want)));
    TRI_CHECK(strides_fit(new_sizes), Error::NotSupported,
              "sizes %s are too large (more than 2^31 elements per stride)",
              format_sizes(new_sizes, want, sizeof(want)));
    if (dynamism_ == ShapeDynamism::DynamicBound) {
      for (size_t i = 0; i < new_sizes.size(); ++i) {
        TRI_CHECK(new_sizes[i] <= bound_sizes_[i], Error::InvalidArgument,
                  "shape %s is outside the upper bound %s (dim %zu)",
                  format_sizes(new_sizes, want, sizeof(want)),
                  format_sizes(bound_sizes(), have, sizeof(have)), i);
      }
    }
  }
  if (binder_ != nullptr) {
    const size_t nbytes = numel * element_size();
    if (data_ == nullptr || nbytes > capacity_) {
      TRI_TRY_CONTEXT(binder_->bind(*this, nbytes), "tensor of shape %s",
                      format_sizes(new_sizes, want, sizeof(want)));
    }
  } else {
    // Memory that is not bound yet (data == nullptr) is checked when it is.
    TRI_CHECK(data_ == nullptr || numel <= capacity_ / element_size(),
              Error::InvalidArgument,
              "shape %s needs %zu bytes but the tensor's memory holds %zu",
              format_sizes(new_sizes, want, sizeof(want)),
              numel * element_size(), capacity_);
  }
  for (size_t i = 0; i < new_sizes.size(); ++i) {
    sizes_[i] = new_sizes[i];
  }
  numel_ = numel;
  compute_strides();
  return Error::Ok;
}

}  // namespace tri
