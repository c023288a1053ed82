#include "cpp/host/growing_tensor_arena.h"

namespace tri::host {
namespace {

// The first chunk, and room for the free list's block headers.
constexpr size_t kMinChunk = size_t{1} << 20;
constexpr size_t kBlockOverhead = 64;

}  // namespace

size_t GrowingTensorArena::capacity() const {
  size_t total = 0;
  for (const auto& chunk : chunks_) total += chunk->memory.size();
  return total;
}

Error GrowingTensorArena::reserve_scratch(size_t bytes, MemoryAllocator& temp) {
  if (scratch_.size() < bytes) {
    const size_t held = capacity();
    TRI_CHECK(held <= max_bytes_ && bytes <= max_bytes_ - held, Error::LimitExceeded,
              "a kernel of this run needs %zu bytes of scratch, and with the %zu its tensors "
              "hold that is more than the %llu bytes allowed (maxPlannedBytes)",
              bytes, held, static_cast<unsigned long long>(max_bytes_));
    AlignedBuffer grown;
    TRI_CHECK(grown.allocate(bytes), Error::MemoryAllocationFailed,
              "cannot allocate %zu bytes of scratch for this run", bytes);
    scratch_ = std::move(grown);
  }
  temp = MemoryAllocator(scratch_.data(), scratch_.size());
  return Error::Ok;
}

Error GrowingTensorArena::add_chunk(size_t at_least) {
  const size_t held = capacity();
  // Doubling: a run that grows step by step makes few chunks.
  size_t size = held > kMinChunk ? held : kMinChunk;
  if (size < at_least) size = at_least;
  const size_t taken = held + scratch_.size();
  if (taken + size > max_bytes_) size = max_bytes_ > taken ? static_cast<size_t>(max_bytes_ - taken) : 0;
  TRI_CHECK(size >= at_least, Error::LimitExceeded,
            "the tensors of this run need more than the %llu bytes allowed (maxPlannedBytes): "
            "%zu are in use and %zu more were asked for",
            static_cast<unsigned long long>(max_bytes_), in_use_, at_least - kBlockOverhead);
  auto chunk = std::make_unique<Chunk>();
  TRI_CHECK(chunk->memory.allocate(size), Error::MemoryAllocationFailed,
            "cannot allocate %zu bytes for this run's tensors", size);
  chunk->heap.reset(chunk->memory.data(), size);
  chunks_.push_back(std::move(chunk));
  return Error::Ok;
}

Error GrowingTensorArena::bind(Tensor& tensor, size_t nbytes) {
  release(tensor);
  // A real address even for no elements, as for planned tensors.
  const size_t want = nbytes > 0 ? nbytes : 1;
  void* p = nullptr;
  for (const auto& chunk : chunks_) {
    p = chunk->heap.allocate(want);
    if (p != nullptr) break;
  }
  if (p == nullptr) {
    TRI_TRY(add_chunk(want + kBlockOverhead));
    p = chunks_.back()->heap.allocate(want);
    TRI_CHECK(p != nullptr, Error::Internal, "a new chunk could not hold %zu bytes", want);
  }
  in_use_ += want;
  if (in_use_ > peak_) peak_ = in_use_;
  tensor.set_data(p, want);
  return Error::Ok;
}

void GrowingTensorArena::release(Tensor& tensor) {
  void* p = tensor.mutable_data();
  if (p == nullptr) return;
  for (const auto& chunk : chunks_) {
    uint8_t* base = chunk->memory.data();
    if (p >= base && p < base + chunk->memory.size()) {
      chunk->heap.free(p);
      in_use_ -= tensor.capacity_bytes();
      break;
    }
  }
  tensor.set_data(nullptr, 0);
}

void GrowingTensorArena::release_all() {
  in_use_ = 0;
  if (chunks_.size() > 1) {
    const size_t total = capacity();
    chunks_.clear();
    // Only fails when memory is short; the next run then grows again.
    (void)add_chunk(total);
    return;
  }
  for (const auto& chunk : chunks_) chunk->heap.reset(chunk->memory.data(), chunk->memory.size());
}

}  // namespace tri::host
