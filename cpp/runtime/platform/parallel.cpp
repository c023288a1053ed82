#include "cpp/runtime/platform/parallel.h"

#include <atomic>

namespace tri {
namespace {

const ParallelRunner* g_runner = nullptr;
uint32_t g_limit = 0;
// Set on a thread while it runs chunks, so nested calls stay on it.
thread_local bool t_inside = false;

// More chunks than threads, so a thread the OS descheduled holds back only a
// small part of the range.
constexpr size_t kChunksPerThread = 4;
// Threads one job spreads over (the Job lives on the caller's stack).
constexpr uint32_t kMaxJobThreads = 32;

// Each thread owns a contiguous share of the chunks and runs it first, in
// order; one that finishes early then takes chunks from the others'
// shares. Owning a share keeps a kernel's data where the last kernel left
// it, when both split their range alike (an XNNPACK gemm's pixel rows, then
// a depthwise convolution's): with chunks handed out first come first
// served, half of a small layer's input sat in the other core's cache, and
// mobilenet_v2's depthwise layers from 56x56 down ran no faster on two
// threads than on one.
struct alignas(64) Share {
  std::atomic<size_t> next{0};
  size_t end = 0;
};

struct Job {
  ParallelTask task;
  void* context;
  size_t n;
  size_t pieces;
  uint32_t threads;
  Share shares[kMaxJobThreads];
};

// Where chunk c starts: chunks split the range as evenly as integers allow
// (their lengths differ by at most one), 64-bit so that n * c cannot wrap
// in wasm32.
size_t bound(const Job& job, size_t c) {
  return static_cast<size_t>(static_cast<uint64_t>(job.n) * c / job.pieces);
}

// Runs the chunks of `share` until none is left.
void drain(Job& job, Share& share) {
  for (;;) {
    const size_t c = share.next.fetch_add(1, std::memory_order_relaxed);
    if (c >= share.end) return;
    job.task(job.context, bound(job, c), bound(job, c + 1));
  }
}

void run_chunks(void* context, uint32_t thread) {
  Job& job = *static_cast<Job*>(context);
  const bool was_inside = t_inside;
  t_inside = true;
  for (uint32_t i = 0; i < job.threads; ++i) drain(job, job.shares[(thread + i) % job.threads]);
  t_inside = was_inside;
}

}  // namespace

void set_parallel_runner(const ParallelRunner* runner) { g_runner = runner; }

void set_parallel_thread_limit(uint32_t limit) { g_limit = limit; }

uint32_t parallel_max_threads() {
  if (g_runner == nullptr || g_runner->run == nullptr) return 1;
  return g_runner->max_threads == 0 ? 1 : g_runner->max_threads;
}

uint32_t parallel_threads() {
  const uint32_t max = parallel_max_threads();
  return g_limit == 0 || g_limit > max ? max : g_limit;
}

void parallel_for(size_t n, size_t min_chunk, ParallelTask task, void* context) {
  if (n == 0) return;
  if (min_chunk == 0) min_chunk = 1;
  uint32_t threads = t_inside ? 1 : parallel_threads();
  if (threads > kMaxJobThreads) threads = kMaxJobThreads;
  // Whole chunks of at least min_chunk each.
  size_t pieces = n / min_chunk;
  if (threads <= 1 || pieces <= 1) {
    task(context, 0, n);
    return;
  }
  const size_t most = static_cast<size_t>(threads) * kChunksPerThread;
  if (pieces > most) pieces = most;
  const uint32_t used = pieces < threads ? static_cast<uint32_t>(pieces) : threads;
  // The same number of chunks in every share, so that the shares, not just
  // the chunks, split the range evenly. With 7 chunks of a 28x28 map's 49
  // gemm panels, 2 threads owned 21 and 28: the second had 57% of the work
  // and the first took chunks from the second's share, away from its data.
  pieces -= pieces % used;
  Job job;
  job.task = task;
  job.context = context;
  job.n = n;
  job.pieces = pieces;
  job.threads = used;
  for (uint32_t t = 0; t < used; ++t) {
    job.shares[t].next.store(pieces * t / used, std::memory_order_relaxed);
    job.shares[t].end = pieces * (t + 1) / used;
  }
  g_runner->run(g_runner->self, used, run_chunks, &job);
}

}  // namespace tri
