#include "cpp/runtime/core/lifetime_planner.h"

namespace tri {
namespace {

bool overlaps(const LifetimeBuffer& a, const LifetimeBuffer& b) {
  return a.first <= b.last && b.first <= a.last;
}

uint64_t align_up(uint64_t v, uint64_t alignment) {
  return (v + alignment - 1) & ~(alignment - 1);
}

// Heap sort of indices, largest buffer first (ties: lower index first, so
// plans are reproducible).
bool before(const Span<LifetimeBuffer>& b, uint32_t x, uint32_t y) {
  return b[x].size != b[y].size ? b[x].size > b[y].size : x < y;
}

void sift_down(const Span<LifetimeBuffer>& b, uint32_t* order, size_t root, size_t n) {
  for (;;) {
    size_t child = 2 * root + 1;
    if (child >= n) return;
    // The heap keeps the element that sorts last on top.
    if (child + 1 < n && before(b, order[child], order[child + 1])) ++child;
    if (!before(b, order[root], order[child])) return;
    const uint32_t t = order[root];
    order[root] = order[child];
    order[child] = t;
    root = child;
  }
}

void sort_by_size(const Span<LifetimeBuffer>& b, uint32_t* order, size_t n) {
  for (size_t i = n / 2; i-- > 0;) sift_down(b, order, i, n);
  for (size_t end = n; end > 1; --end) {
    const uint32_t t = order[0];
    order[0] = order[end - 1];
    order[end - 1] = t;
    sift_down(b, order, 0, end - 1);
  }
}

}  // namespace

Result<uint64_t> plan_lifetimes(Span<LifetimeBuffer> buffers, uint64_t alignment,
                                MemoryAllocator scratch) {
  TRI_CHECK(alignment != 0 && (alignment & (alignment - 1)) == 0, Error::InvalidArgument,
            "alignment %llu is not a power of two", static_cast<unsigned long long>(alignment));
  const size_t n = buffers.size();
  uint32_t* order = scratch.allocate_array<uint32_t>(n);
  // The buffers placed so far, by offset.
  uint32_t* placed = scratch.allocate_array<uint32_t>(n);
  TRI_CHECK(order != nullptr && placed != nullptr, Error::MemoryAllocationFailed,
            "no scratch memory to plan %zu buffers", n);
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
  sort_by_size(buffers, order, n);
  uint64_t arena = 0;
  for (size_t k = 0; k < n; ++k) {
    LifetimeBuffer& b = buffers[order[k]];
    const uint64_t size = align_up(b.size, alignment);
    // First fit: walk the placed buffers by offset, skipping those whose
    // lifetimes do not meet b's, until a gap holds b.
    uint64_t offset = 0;
    for (size_t j = 0; j < k; ++j) {
      const LifetimeBuffer& c = buffers[placed[j]];
      if (!overlaps(c, b)) continue;
      if (c.offset >= offset + size) break;
      const uint64_t end = align_up(c.offset + c.size, alignment);
      offset = end > offset ? end : offset;
    }
    b.offset = offset;
    arena = offset + size > arena ? offset + size : arena;
    size_t at = k;
    while (at > 0 && buffers[placed[at - 1]].offset > offset) {
      placed[at] = placed[at - 1];
      --at;
    }
    placed[at] = order[k];
  }
  return arena;
}

}  // namespace tri
