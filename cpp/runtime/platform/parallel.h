// Data parallelism for kernels, through the platform layer. The portable
// core cannot assume threads exist (seeds/portable-runtime-guidelines.txt),
// so it only splits work; a host that has threads installs a ParallelRunner
// (cpp/host/thread_pool.h) and the same kernels then spread over it. With no
// runner, parallel_for runs its whole range on the calling thread.
//
// Nothing here allocates: the shared chunk counter lives on the caller's
// stack for the duration of the call.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tri {

// Runs body(context, 0) on the caller and body(context, thread) at most
// once on each other thread of [1, threads), and returns when every call
// that started has returned. A runner may leave out a thread that is late
// to start (a pool's worker asleep or descheduled) rather than wait for
// it, so a body claims work (parallel_for's chunks), never assumes that
// each thread index runs.
struct ParallelRunner {
  void* self = nullptr;
  // How many threads run() can use, the caller included.
  uint32_t max_threads = 1;
  void (*run)(void* self, uint32_t threads, void (*body)(void* context, uint32_t thread),
              void* context) = nullptr;
};

// nullptr uninstalls. The runner must outlive its use by parallel_for.
void set_parallel_runner(const ParallelRunner* runner);

// Threads parallel_for may use from now on: min(limit, the runner's
// max_threads); 0 means all of them. Hosts set it per run (a model's
// numThreads).
void set_parallel_thread_limit(uint32_t limit);
uint32_t parallel_threads();
// The runner's max_threads (1 without one), whatever the limit: what memory
// planned at load for per-thread scratch must allow for.
uint32_t parallel_max_threads();

using ParallelTask = void (*)(void* context, size_t begin, size_t end);

// Calls task(context, begin, end) over disjoint chunks covering [0, n), each
// at least min_chunk long (or the whole range, when n < 2 * min_chunk),
// possibly on several threads. Chunk lengths differ by at most one, and
// each thread first runs a contiguous share of them: thread t of T gets
// about [n * t / T, n * (t + 1) / T), so kernels that split alike keep
// their data on one core. Calls from inside a task run inline, so kernels
// may nest (conv -> gemm).
void parallel_for(size_t n, size_t min_chunk, ParallelTask task, void* context);

// The same with a callable: f(begin, end).
template <typename F>
void parallel_for(size_t n, size_t min_chunk, const F& f) {
  parallel_for(
      n, min_chunk,
      [](void* context, size_t begin, size_t end) { (*static_cast<const F*>(context))(begin, end); },
      const_cast<F*>(&f));
}

}  // namespace tri
