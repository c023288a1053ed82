#include "cpp/runtime/core/lifetime_planner.h"

#include <cinttypes>

namespace tri {
namespace {

// Sizes above this are refused, so that offsets and ends never overflow.
constexpr uint64_t kMaxBufferBytes = uint64_t{1} << 48;

bool overlaps(const LifetimeBuffer& a, const LifetimeBuffer& b) {
  return a.first <= b.last && b.first <= a.last;
}

uint64_t align_up(uint64_t v, uint64_t alignment) {
  return (v + alignment - 1) & ~(alignment - 1);
}

using Before = bool (*)(const LifetimeBuffer* b, uint32_t x, uint32_t y);

// Largest first; ties by index, so plans are reproducible.
bool larger(const LifetimeBuffer* b, uint32_t x, uint32_t y) {
  return b[x].size != b[y].size ? b[x].size > b[y].size : x < y;
}

bool born_earlier(const LifetimeBuffer* b, uint32_t x, uint32_t y) {
  return b[x].first != b[y].first ? b[x].first < b[y].first : x < y;
}

void sift_down(const LifetimeBuffer* b, Before before, uint32_t* order, size_t root, size_t n) {
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

// order = 0..n-1 sorted by `before` (heap sort: no recursion, no allocation).
void sort_indices(const LifetimeBuffer* b, Before before, uint32_t* order, size_t n) {
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
  for (size_t i = n / 2; i-- > 0;) sift_down(b, before, order, i, n);
  for (size_t end = n; end > 1; --end) {
    const uint32_t t = order[0];
    order[0] = order[end - 1];
    order[end - 1] = t;
    sift_down(b, before, order, 0, end - 1);
  }
}

// Groups buffers that share memory in place: group[i] is the slot of buffer
// i, and slots[s] spans the lifetimes (and the largest size) of its members.
// `order` and `tail` are working arrays of n. Returns the number of slots.
size_t group_in_place(Span<LifetimeBuffer> buffers, uint32_t* group, LifetimeBuffer* slots,
                      uint32_t* order, uint32_t* tail) {
  const size_t n = buffers.size();
  // By first step: a reuse target is born strictly earlier, so it has its
  // slot by the time the buffer that takes it over is visited.
  sort_indices(buffers.data(), born_earlier, order, n);
  size_t num_slots = 0;
  for (size_t k = 0; k < n; ++k) {
    const uint32_t i = order[k];
    const LifetimeBuffer& b = buffers[i];
    const int32_t r = b.reuse;
    if (r >= 0 && static_cast<size_t>(r) < n && static_cast<uint32_t>(r) != i) {
      const LifetimeBuffer& target = buffers[r];
      // The target dies where b is born, and is still the latest member of
      // its slot (no one took it over already).
      if (target.first < b.first && target.last == b.first && tail[group[r]] == static_cast<uint32_t>(r)) {
        LifetimeBuffer& slot = slots[group[r]];
        group[i] = group[r];
        tail[group[r]] = i;
        if (b.last > slot.last) slot.last = b.last;
        if (b.size > slot.size) slot.size = b.size;
        continue;
      }
    }
    group[i] = static_cast<uint32_t>(num_slots);
    tail[num_slots] = i;
    slots[num_slots++] = LifetimeBuffer{b.size, b.first, b.last, 0, -1};
  }
  return num_slots;
}

}  // namespace

Result<uint64_t> plan_lifetimes(Span<LifetimeBuffer> buffers, uint64_t alignment,
                                MemoryAllocator scratch) {
  TRI_CHECK(alignment != 0 && (alignment & (alignment - 1)) == 0 && alignment <= kMaxBufferBytes,
            Error::InvalidArgument, "alignment %" PRIu64 " is not a power of two", alignment);
  const size_t n = buffers.size();
  for (size_t i = 0; i < n; ++i) {
    TRI_CHECK(buffers[i].size <= kMaxBufferBytes, Error::LimitExceeded,
              "buffer %zu asks for %" PRIu64 " bytes", i, buffers[i].size);
    TRI_CHECK(buffers[i].first <= buffers[i].last, Error::InvalidArgument,
              "buffer %zu dies (step %" PRId32 ") before it is born (step %" PRId32 ")", i,
              buffers[i].last, buffers[i].first);
  }
  uint32_t* group = scratch.allocate_array<uint32_t>(n);
  LifetimeBuffer* slots = scratch.allocate_array<LifetimeBuffer>(n);
  uint32_t* order = scratch.allocate_array<uint32_t>(n);
  // The slots placed so far, by offset.
  uint32_t* placed = scratch.allocate_array<uint32_t>(n);
  TRI_CHECK(group != nullptr && slots != nullptr && order != nullptr && placed != nullptr,
            Error::MemoryAllocationFailed, "no scratch memory to plan %zu buffers", n);
  const size_t m = group_in_place(buffers, group, slots, order, placed);
  sort_indices(slots, larger, order, m);
  uint64_t arena = 0;
  for (size_t k = 0; k < m; ++k) {
    LifetimeBuffer& b = slots[order[k]];
    const uint64_t size = align_up(b.size, alignment);
    // First fit: walk the placed slots by offset, skipping those whose
    // lifetimes do not meet b's, until a gap holds b.
    uint64_t offset = 0;
    for (size_t j = 0; j < k; ++j) {
      const LifetimeBuffer& c = slots[placed[j]];
      if (!overlaps(c, b)) continue;
      if (c.offset >= offset + size) break;
      const uint64_t end = align_up(c.offset + c.size, alignment);
      offset = end > offset ? end : offset;
    }
    b.offset = offset;
    arena = offset + size > arena ? offset + size : arena;
    size_t at = k;
    while (at > 0 && slots[placed[at - 1]].offset > offset) {
      placed[at] = placed[at - 1];
      --at;
    }
    placed[at] = order[k];
  }
  for (size_t i = 0; i < n; ++i) buffers[i].offset = slots[group[i]].offset;
  return arena;
}

}  // namespace tri
