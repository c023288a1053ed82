// Tensors of a PT2 archive as the program keeps them: contiguous, aligned,
// either in place in the archive's bytes (stored zip entries are 64-byte
// aligned) or copied into memory the store owns (a strided view of a shared
// storage, a misaligned legacy entry, an empty blob that stands for zeros,
// a buffer the program mutates).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cpp/host/owned_bytes.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/scalar_type.h"
#include "cpp/runtime/core/span.h"

namespace tri::pt2 {

struct HostTensor {
  ScalarType dtype = ScalarType::Float;
  std::vector<int32_t> sizes;
  uint8_t* data = nullptr;  // written only when the store owns it
  size_t nbytes = 0;
  bool owned = false;
};

// Where a tensor's elements sit in a storage, in elements.
struct StridedView {
  ScalarType dtype = ScalarType::Float;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t storage_offset = 0;
};

class TensorStore {
 public:
  // Owned bytes are capped: a hostile archive may declare any size.
  explicit TensorStore(uint64_t max_owned_bytes) : max_owned_bytes_(max_owned_bytes) {}

  // The tensor `view` of `storage` (named `what`). An empty storage with
  // elements in view means zeros.
  Result<HostTensor> view(ByteSpan storage, const StridedView& view, const std::string& what);
  // A new zero-filled tensor the store owns (constants the lowering makes).
  Result<HostTensor> zeros(ScalarType dtype, const std::vector<int32_t>& sizes,
                           const std::string& what);
  // A writable copy of `tensor` (module state that runs update).
  Result<HostTensor> writable_copy(const HostTensor& tensor, const std::string& what);

 private:
  Result<uint8_t*> allocate(size_t nbytes, const std::string& what);

  uint64_t max_owned_bytes_;
  uint64_t owned_bytes_ = 0;
  std::vector<std::unique_ptr<host::AlignedBuffer>> buffers_;
};

}  // namespace tri::pt2
