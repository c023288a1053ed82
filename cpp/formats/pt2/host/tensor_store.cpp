#include "cpp/formats/pt2/host/tensor_store.h"

#include <cinttypes>
#include <cstring>
#include <limits>

#include "cpp/runtime/core/tensor.h"

namespace tri::pt2 {
namespace {

// Copies the strided elements of `src` into contiguous `dst`, odometer style.
void gather(const uint8_t* src, const StridedView& v, size_t element, uint8_t* dst) {
  const size_t rank = v.sizes.size();
  std::vector<int64_t> index(rank, 0);
  size_t total = 1;
  for (int64_t s : v.sizes) total *= static_cast<size_t>(s);
  for (size_t n = 0; n < total; ++n) {
    int64_t at = v.storage_offset;
    for (size_t d = 0; d < rank; ++d) at += index[d] * v.strides[d];
    memcpy(dst + n * element, src + static_cast<size_t>(at) * element, element);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < v.sizes[d]) break;
      index[d] = 0;
    }
  }
}

}  // namespace

Result<uint8_t*> TensorStore::allocate(size_t nbytes, const std::string& what) {
  TRI_CHECK(nbytes <= max_owned_bytes_ - owned_bytes_, Error::MemoryAllocationFailed,
            "%s: %zu bytes would take the archive's tensors past the %" PRIu64 "-byte limit",
            what.c_str(), nbytes, max_owned_bytes_);
  auto buffer = std::make_unique<host::AlignedBuffer>();
  TRI_CHECK(buffer->allocate(nbytes == 0 ? 1 : nbytes), Error::MemoryAllocationFailed,
            "%s: could not allocate %zu bytes", what.c_str(), nbytes);
  owned_bytes_ += nbytes;
  uint8_t* data = buffer->data();
  buffers_.push_back(std::move(buffer));
  return data;
}

Result<HostTensor> TensorStore::view(ByteSpan storage, const StridedView& v,
                                     const std::string& what) {
  const size_t element = element_size(v.dtype);
  TRI_CHECK(element != 0, Error::NotSupported, "%s: dtype %d is not supported", what.c_str(),
            static_cast<int>(v.dtype));
  TRI_CHECK(v.sizes.size() == v.strides.size() && v.sizes.size() <= kTensorDimLimit,
            Error::InvalidProgram, "%s: %zu sizes and %zu strides (at most %zu dims)",
            what.c_str(), v.sizes.size(), v.strides.size(), kTensorDimLimit);
  TRI_CHECK(storage.size() % element == 0, Error::InvalidProgram,
            "%s: its storage has %zu bytes, not a multiple of the %zu-byte element",
            what.c_str(), storage.size(), element);
  HostTensor out;
  out.dtype = v.dtype;
  // numel, the highest element the view touches, and whether it is the
  // contiguous row-major layout.
  uint64_t numel = 1;
  int64_t highest = v.storage_offset;
  int64_t expected_stride = 1;
  bool contiguous = true;
  TRI_CHECK(v.storage_offset >= 0, Error::InvalidProgram, "%s: negative storage offset",
            what.c_str());
  for (size_t d = v.sizes.size(); d-- > 0;) {
    const int64_t size = v.sizes[d];
    TRI_CHECK(size >= 0 && size <= std::numeric_limits<int32_t>::max() && v.strides[d] >= 0,
              Error::InvalidProgram, "%s: dim %zu has size %" PRId64 " and stride %" PRId64,
              what.c_str(), d, size, v.strides[d]);
    out.sizes.insert(out.sizes.begin(), static_cast<int32_t>(size));
    TRI_CHECK(size == 0 || numel <= (uint64_t{1} << 48) / static_cast<uint64_t>(size),
              Error::InvalidProgram, "%s: too many elements", what.c_str());
    numel *= static_cast<uint64_t>(size);
    if (size > 1 && v.strides[d] != expected_stride) contiguous = false;
    expected_stride *= size;
    if (size > 0) {
      TRI_CHECK(v.strides[d] <= (int64_t{1} << 48) / size, Error::InvalidProgram,
                "%s: stride %" PRId64 " is too large", what.c_str(), v.strides[d]);
      highest += (size - 1) * v.strides[d];
    }
  }
  out.nbytes = static_cast<size_t>(numel) * element;
  const uint64_t storage_numel = storage.size() / element;
  if (numel == 0) {
    TRI_ASSIGN_OR_RETURN(out.data, allocate(0, what));
    out.owned = true;
    return out;
  }
  if (storage.size() == 0) {
    // torch writes fake (meta) tensors as empty blobs: zeros of their shape.
    TRI_ASSIGN_OR_RETURN(out.data, allocate(out.nbytes, what));
    memset(out.data, 0, out.nbytes);
    out.owned = true;
    return out;
  }
  TRI_CHECK(static_cast<uint64_t>(highest) < storage_numel, Error::InvalidProgram,
            "%s: the view reaches element %" PRId64 " of a storage of %" PRIu64 " elements",
            what.c_str(), highest, storage_numel);
  const uint8_t* first = storage.data() + static_cast<size_t>(v.storage_offset) * element;
  const bool aligned = reinterpret_cast<uintptr_t>(first) % 16 == 0;
  if (contiguous && aligned) {
    out.data = const_cast<uint8_t*>(first);
    return out;
  }
  TRI_ASSIGN_OR_RETURN(out.data, allocate(out.nbytes, what));
  out.owned = true;
  if (contiguous) {
    memcpy(out.data, first, out.nbytes);
  } else {
    gather(storage.data(), v, element, out.data);
  }
  return out;
}

Result<HostTensor> TensorStore::zeros(ScalarType dtype, const std::vector<int32_t>& sizes,
                                      const std::string& what) {
  HostTensor out;
  out.dtype = dtype;
  out.sizes = sizes;
  uint64_t numel = 1;
  for (int32_t s : sizes) {
    TRI_CHECK(s >= 0 && (s == 0 || numel <= (uint64_t{1} << 48) / static_cast<uint64_t>(s)),
              Error::InvalidProgram, "%s: too many elements", what.c_str());
    numel *= static_cast<uint64_t>(s);
  }
  out.nbytes = static_cast<size_t>(numel) * element_size(dtype);
  TRI_ASSIGN_OR_RETURN(out.data, allocate(out.nbytes, what));
  memset(out.data, 0, out.nbytes);
  out.owned = true;
  return out;
}

Result<HostTensor> TensorStore::writable_copy(const HostTensor& tensor, const std::string& what) {
  HostTensor out = tensor;
  TRI_ASSIGN_OR_RETURN(out.data, allocate(tensor.nbytes, what));
  memcpy(out.data, tensor.data, tensor.nbytes);
  out.owned = true;
  return out;
}

}  // namespace tri::pt2
