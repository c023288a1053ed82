#include "cpp/host/thread_pool.h"

#include <thread>

namespace tri::host {
namespace {

// Polls before sleeping: about 120 µs of a core natively on this class of
// machine (timed as a loop of acquire loads), longer in wasm. Shorter spins
// (20000 polls) lost most of the gain between a model's operators.
constexpr int kSpinPolls = 400000;

constexpr uint64_t kClosed = uint64_t{1} << 31;
constexpr uint64_t kJoined = kClosed - 1;

uint64_t entry_of(uint64_t generation) { return (generation & 0xffffffffu) << 32; }

}  // namespace

ThreadPool::ThreadPool(uint32_t threads) {
  runner_.self = this;
  runner_.run = [](void* self, uint32_t n, void (*body)(void*, uint32_t), void* context) {
    static_cast<ThreadPool*>(self)->run(n, body, context);
  };
  const uint32_t workers = threads > 1 ? threads - 1 : 0;
  // Reserved first: the threads keep pointers into starts_.
  starts_.reserve(workers);
  workers_.reserve(workers);
  for (uint32_t i = 1; i <= workers; ++i) {
    starts_.push_back(Start{this, i});
    pthread_t thread;
    if (pthread_create(&thread, nullptr, &ThreadPool::thread_main, &starts_.back()) != 0) break;
    workers_.push_back(thread);
  }
  runner_.max_threads = max_threads();
}

void* ThreadPool::thread_main(void* start) {
  const Start& s = *static_cast<const Start*>(start);
  s.pool->work(s.index);
  return nullptr;
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  for (pthread_t worker : workers_) pthread_join(worker, nullptr);
}

void ThreadPool::run(uint32_t threads, void (*body)(void*, uint32_t), void* context) {
  if (threads > max_threads()) threads = max_threads();
  if (threads <= 1) {
    body(context, 0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    threads_ = threads;
    body_ = body;
    context_ = context;
    const uint64_t generation = generation_.load(std::memory_order_relaxed) + 1;
    finished_.store(0, std::memory_order_relaxed);
    entry_.store(entry_of(generation), std::memory_order_relaxed);
    generation_.store(generation, std::memory_order_release);
  }
  wake_.notify_all();
  body(context, 0);
  // Close the job: workers that have not joined yet never will.
  const uint32_t joined =
      static_cast<uint32_t>(entry_.fetch_or(kClosed, std::memory_order_acq_rel) & kJoined);
  for (int i = 0; i < kSpinPolls; ++i) {
    if (finished_.load(std::memory_order_acquire) == joined) return;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  // seq_cst with the worker's increment then load of waiting_: either it
  // sees waiting_ and notifies, or this predicate sees its increment.
  waiting_.store(true, std::memory_order_seq_cst);
  done_.wait(lock, [&] { return finished_.load(std::memory_order_seq_cst) == joined; });
  waiting_.store(false, std::memory_order_relaxed);
}

bool ThreadPool::join(uint64_t generation) {
  const uint64_t mine = entry_of(generation);
  uint64_t e = entry_.load(std::memory_order_acquire);
  while ((e & ~kJoined) == mine) {  // this job's, and not closed
    if (entry_.compare_exchange_weak(e, e + 1, std::memory_order_acq_rel)) return true;
  }
  return false;
}

void ThreadPool::work(uint32_t index) {
  uint64_t seen = 0;
  for (;;) {
    uint64_t generation = generation_.load(std::memory_order_acquire);
    for (int i = 0; i < kSpinPolls && generation == seen; ++i) {
      generation = generation_.load(std::memory_order_acquire);
    }
    uint32_t threads;
    void (*body)(void*, uint32_t);
    void* context;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
      if (stop_) return;
      seen = generation_.load(std::memory_order_acquire);
      threads = threads_;
      body = body_;
      context = context_;
    }
    if (index >= threads || !join(seen)) continue;
    body(context, index);
    finished_.fetch_add(1, std::memory_order_seq_cst);
    if (waiting_.load(std::memory_order_seq_cst)) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_one();
    }
  }
}

uint32_t hardware_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<uint32_t>(n);
}

ThreadPool* shared_thread_pool(uint32_t threads) {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  (void)threads;
  return nullptr;
#else
  static ThreadPool* pool = [threads] {
    // Lives for the process: workers must not be joined from a static
    // destructor while the runtime may still be running on them.
    auto* p = new ThreadPool(threads == 0 ? hardware_threads() : threads);
    set_parallel_runner(&p->runner());
    return p;
  }();
  return pool;
#endif
}

}  // namespace tri::host
