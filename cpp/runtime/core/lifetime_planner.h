// Offsets in one arena for buffers with known lifetimes, so that buffers
// whose lifetimes do not overlap share memory. Any front end or delegate
// that has a graph but no memory plan uses it (the XNNPACK delegate for its
// activations; the .pt2 front end for its intermediates).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"

namespace tri {

struct LifetimeBuffer {
  uint64_t size = 0;
  // Live from step `first` to step `last`, both included.
  int32_t first = 0;
  int32_t last = 0;
  // Output: where the buffer starts in the arena.
  uint64_t offset = 0;
  // In-place reuse: the index of a buffer whose memory this one may take
  // over at step `first`, because the step that writes this one reads that
  // one for the last time and may overwrite it (an elementwise op). Taken
  // only when that buffer's last step is this one's first and no other
  // buffer took it already; -1 for none.
  int32_t reuse = -1;
};

// Places every buffer (greedy, largest first, each at the lowest offset free
// for its whole lifetime) with offsets that are multiples of `alignment`
// (a power of two); a buffer that reuses another in place starts at the same
// offset. Returns the arena size. `scratch` holds working arrays and is left
// as it was.
Result<uint64_t> plan_lifetimes(Span<LifetimeBuffer> buffers, uint64_t alignment,
                                MemoryAllocator scratch);

}  // namespace tri
