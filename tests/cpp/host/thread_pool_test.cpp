// The thread pool and parallel_for: every index is covered exactly once, in
// chunks no smaller than asked, nested calls stay on their thread, and the
// per-run thread limit holds.
#include "cpp/host/thread_pool.h"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "cpp/runtime/platform/parallel.h"

namespace tri::host {
namespace {

// Installs a pool for one test and removes it afterwards.
class PoolScope {
 public:
  explicit PoolScope(uint32_t threads) : pool_(threads) { set_parallel_runner(&pool_.runner()); }
  ~PoolScope() {
    set_parallel_runner(nullptr);
    set_parallel_thread_limit(0);
  }
  ThreadPool& pool() { return pool_; }

 private:
  ThreadPool pool_;
};

TEST(ThreadPool, WorkersThatJoinWhileTheCallerRunsEachRunTheBodyOnce) {
  ThreadPool pool(4);
  ASSERT_EQ(pool.max_threads(), 4u);
  for (uint32_t threads : {1u, 2u, 4u, 9u}) {
    const uint32_t used = threads > 4 ? 4 : threads;
    std::vector<std::atomic<int>> calls(4);
    std::mutex mutex;
    std::set<std::thread::id> ids;
    std::atomic<bool> timed_out{false};
    struct Context {
      std::vector<std::atomic<int>>* calls;
      std::mutex* mutex;
      std::set<std::thread::id>* ids;
      uint32_t used;
      std::atomic<bool>* timed_out;
    } context{&calls, &mutex, &ids, used, &timed_out};
    pool.run(threads, [](void* c, uint32_t t) {
      auto* ctx = static_cast<Context*>(c);
      (*ctx->calls)[t].fetch_add(1);
      {
        std::lock_guard<std::mutex> lock(*ctx->mutex);
        ctx->ids->insert(std::this_thread::get_id());
      }
      if (t != 0) return;
      // The job stays open while the caller runs: hold it until every
      // worker has joined (they are awake within the 10 s guard).
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      for (;;) {
        {
          std::lock_guard<std::mutex> lock(*ctx->mutex);
          if (ctx->ids->size() == ctx->used) return;
        }
        if (std::chrono::steady_clock::now() > deadline) {
          *ctx->timed_out = true;
          return;
        }
        std::this_thread::yield();
      }
    }, &context);
    EXPECT_FALSE(timed_out.load()) << threads;
    for (uint32_t t = 0; t < 4; ++t) EXPECT_EQ(calls[t].load(), t < used ? 1 : 0) << threads;
    EXPECT_EQ(ids.size(), used) << threads;
  }
}

TEST(ThreadPool, ManyJobsInARowRunOnTheCallerAndAtMostOnceOnEachWorker) {
  // Jobs follow each other faster than workers fall asleep, and slower
  // (then a sleeping worker may wake after the caller is done and skip
  // the job; it must not run it late, or twice, or hold the caller).
  ThreadPool pool(3);
  constexpr int kJobs = 2000;
  std::vector<std::array<std::atomic<int>, 3>> calls(kJobs);
  int job = 0;
  struct Context {
    std::vector<std::array<std::atomic<int>, 3>>* calls;
    int* job;
  } context{&calls, &job};
  for (; job < kJobs; ++job) {
    pool.run(3, [](void* c, uint32_t t) {
      auto* ctx = static_cast<Context*>(c);
      (*ctx->calls)[static_cast<size_t>(*ctx->job)][t].fetch_add(1);
    }, &context);
    if (job % 500 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  for (int j = 0; j < kJobs; ++j) {
    ASSERT_EQ(calls[static_cast<size_t>(j)][0].load(), 1) << j;
    for (int t = 1; t < 3; ++t) {
      ASSERT_LE(calls[static_cast<size_t>(j)][static_cast<size_t>(t)].load(), 1) << j;
    }
  }
}

TEST(ParallelFor, CoversTheRangeOnceInEvenChunksOfAtLeastMinChunk) {
  PoolScope scope(3);
  EXPECT_EQ(parallel_threads(), 3u);
  for (size_t n : {0u, 1u, 5u, 12u, 13u, 1000u, 4097u}) {
    for (size_t min_chunk : {0u, 1u, 4u, 100u}) {
      std::vector<std::atomic<int>> hits(n);
      std::atomic<int> short_chunks{0};
      std::atomic<size_t> shortest{SIZE_MAX}, longest{0};
      parallel_for(n, min_chunk, [&](size_t begin, size_t end) {
        ASSERT_LT(begin, end);
        ASSERT_LE(end, n);
        if (end - begin < min_chunk && end - begin != n) short_chunks.fetch_add(1);
        size_t s = shortest.load();
        while (end - begin < s && !shortest.compare_exchange_weak(s, end - begin)) {
        }
        size_t l = longest.load();
        while (end - begin > l && !longest.compare_exchange_weak(l, end - begin)) {
        }
        for (size_t i = begin; i < end; ++i) hits[i].fetch_add(1);
      });
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << n << " " << min_chunk << " " << i;
      EXPECT_EQ(short_chunks.load(), 0) << n << " " << min_chunk;
      if (n > 0) EXPECT_LE(longest.load() - shortest.load(), 1u) << n << " " << min_chunk;
    }
  }
}

TEST(ParallelFor, SpreadsOverThreadsAndNestedCallsStayOnTheirThread) {
  PoolScope scope(2);
  std::mutex mutex;
  std::set<std::thread::id> outer_ids;
  std::atomic<int> nested_elsewhere{0};
  std::atomic<int64_t> sum{0};
  std::atomic<size_t> seen{0};
  std::atomic<bool> timed_out{false};
  // Each chunk waits until both threads have taken one (each thread owns a
  // share of the range, so the worker gets there however late the
  // scheduler wakes it); a sleep-based version depended on timing under
  // ctest -j2 and ASan. The 10 s guard turns a pool that never spreads into
  // a failure, not a hang.
  parallel_for(64, 1, [&](size_t begin, size_t end) {
    const std::thread::id me = std::this_thread::get_id();
    {
      std::lock_guard<std::mutex> lock(mutex);
      outer_ids.insert(me);
      seen = outer_ids.size();
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (seen.load() < 2 && !timed_out.load()) {
      if (std::chrono::steady_clock::now() > deadline) timed_out = true;
      std::this_thread::yield();
    }
    parallel_for(100, 1, [&](size_t b, size_t e) {
      if (std::this_thread::get_id() != me) nested_elsewhere.fetch_add(1);
      for (size_t i = b; i < e; ++i) sum.fetch_add(static_cast<int64_t>(i));
    });
    (void)begin;
    (void)end;
  });
  EXPECT_FALSE(timed_out.load()) << "the second thread never took a chunk";
  EXPECT_EQ(outer_ids.size(), 2u);
  EXPECT_EQ(nested_elsewhere.load(), 0);
}

TEST(ParallelFor, AThreadHeldUpLosesTheRestOfItsShareToTheOthers) {
  // Eight chunks, four in each thread's share. Whichever thread runs chunk
  // 0 waits there until every other chunk is done, so the other thread
  // must take the rest of chunk 0's share too (else this would wait out
  // the 10 s guard and fail).
  PoolScope scope(2);
  std::vector<std::atomic<int>> hits(8);
  std::atomic<int> others_done{0};
  std::atomic<bool> timed_out{false};
  parallel_for(8, 1, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      if (i == 0) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (others_done.load() < 7) {
          if (std::chrono::steady_clock::now() > deadline) {
            timed_out = true;
            break;
          }
          std::this_thread::yield();
        }
      } else {
        others_done.fetch_add(1);
      }
      hits[i].fetch_add(1);
    }
  });
  EXPECT_FALSE(timed_out.load());
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(hits[i].load(), 1) << i;
}

TEST(ParallelFor, ThreadLimitOfOneKeepsEverythingOnTheCaller) {
  PoolScope scope(3);
  set_parallel_thread_limit(1);
  EXPECT_EQ(parallel_threads(), 1u);
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> elsewhere{0};
  parallel_for(1000, 1, [&](size_t, size_t) {
    if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1);
  });
  EXPECT_EQ(elsewhere.load(), 0);
  set_parallel_thread_limit(2);
  EXPECT_EQ(parallel_threads(), 2u);
  set_parallel_thread_limit(8);
  EXPECT_EQ(parallel_threads(), 3u);
  EXPECT_EQ(parallel_max_threads(), 3u);
}

TEST(ParallelFor, WithoutARunnerRunsTheWholeRangeInline) {
  set_parallel_runner(nullptr);
  EXPECT_EQ(parallel_threads(), 1u);
  int calls = 0;
  parallel_for(100, 1, [&](size_t begin, size_t end) {
    ++calls;
    EXPECT_EQ(begin, 0u);
    EXPECT_EQ(end, 100u);
  });
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace tri::host
