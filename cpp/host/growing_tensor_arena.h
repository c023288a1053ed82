// The TensorBinder a method planned per shape gets from its HostModel
// (method.h, LazyTensor): memory for tensors at the sizes a run gives them,
// from chunks that grow with the run's needs, up to a cap.
//
// Each run starts from an empty arena (release_all) and places its tensors
// by first fit in the order its kernels size them, so a run with the same
// shapes as the last one puts every tensor where it was: the plan repeats
// while the shapes do. A run that needed a second chunk leaves, at the next
// start, one chunk as large as both, so growth settles into one buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "cpp/host/owned_bytes.h"
#include "cpp/runtime/core/free_list_allocator.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/tensor.h"

namespace tri::host {

class GrowingTensorArena final : public TensorBinder {
 public:
  // max_bytes caps the chunks together (maxPlannedBytes).
  explicit GrowingTensorArena(uint64_t max_bytes) : max_bytes_(max_bytes) {}

  Error bind(Tensor& tensor, size_t nbytes) override;
  void release(Tensor& tensor) override;
  void release_all() override;
  // Scratch of its own, grown to the most one kernel call has asked for;
  // counted against the same cap.
  Error reserve_scratch(size_t bytes, MemoryAllocator& temp) override;
  size_t scratch_bytes() const { return scratch_.size(); }

  // Bytes the chunks hold, and the most that tensors took at once since
  // load (what the shapes seen so far need).
  size_t capacity() const;
  size_t peak_bytes() const { return peak_; }
  size_t num_chunks() const { return chunks_.size(); }

 private:
  struct Chunk {
    AlignedBuffer memory;
    FreeListAllocator heap;
  };
  Error add_chunk(size_t at_least);

  std::vector<std::unique_ptr<Chunk>> chunks_;
  AlignedBuffer scratch_;
  uint64_t max_bytes_;
  size_t in_use_ = 0;
  size_t peak_ = 0;
};

}  // namespace tri::host
