// A fixed pool of worker threads that serves as the runtime's
// ParallelRunner (cpp/runtime/platform/parallel.h). Workers start once and
// wait for jobs; a job hands out no memory, so a run that spreads over the
// pool allocates nothing.
//
// Waiting workers spin briefly before they sleep: a kernel's next parallel
// region usually follows within microseconds, and waking a sleeping thread
// (a futex in Node and browsers) costs tens of them.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <vector>

#include "cpp/runtime/platform/parallel.h"

namespace tri::host {

class ThreadPool {
 public:
  // threads: the caller plus threads - 1 workers. Fewer workers start when
  // the system refuses more (e.g. a wasm build with a smaller worker pool);
  // max_threads() tells how many did.
  explicit ThreadPool(uint32_t threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  uint32_t max_threads() const { return static_cast<uint32_t>(workers_.size()) + 1; }
  const ParallelRunner& runner() const { return runner_; }

  // Runs body(context, 0) on the caller and body(context, t) on those
  // workers t in [1, threads) that join before the caller's own call
  // returns; returns when every call that started has returned. A worker
  // that wakes late (asleep, or its core taken by another process) finds
  // the job closed and skips it, so the caller never waits for a thread
  // that has not started: work must be claimed by whoever runs, as
  // parallel_for's chunks are, not assigned to a thread. One job at a time.
  void run(uint32_t threads, void (*body)(void*, uint32_t), void* context);

 private:
  struct Start {
    ThreadPool* pool;
    uint32_t index;
  };
  static void* thread_main(void* start);
  void work(uint32_t index);
  // Joins the job of `generation` if it is still open.
  bool join(uint64_t generation);

  // pthreads rather than std::thread: a refused thread (a wasm build's
  // worker pool is fixed, PTHREAD_POOL_SIZE_STRICT) is an error code here,
  // not an exception in a build without them.
  std::vector<pthread_t> workers_;
  std::vector<Start> starts_;
  ParallelRunner runner_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  // Bumped per job; workers compare it with the last one they served.
  std::atomic<uint64_t> generation_{0};
  // The open job: its generation's low 32 bits, kClosed once the caller
  // has finished its own part, and the count of workers that joined.
  std::atomic<uint64_t> entry_{0};
  // Workers of the open job that have returned from the body.
  std::atomic<uint32_t> finished_{0};
  // Set while the caller sleeps on done_ (after its spin).
  std::atomic<bool> waiting_{false};
  bool stop_ = false;
  uint32_t threads_ = 0;
  void (*body_)(void*, uint32_t) = nullptr;
  void* context_ = nullptr;
};

// The hardware's thread count, at least 1.
uint32_t hardware_threads();

// The process-wide pool behind parallel_for, created on first use with
// `threads` threads (0: hardware_threads()) and installed as the runner.
// Later calls return the same pool. Single-threaded builds (no threads
// support compiled in) return nullptr and leave parallel_for serial.
ThreadPool* shared_thread_pool(uint32_t threads = 0);

}  // namespace tri::host
