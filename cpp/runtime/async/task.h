// A heap-allocated callable: what the work queue runs and what an async value
// calls when it becomes available. Closures live in the HostContext's
// FreeListAllocator, never on the C++ heap.
#pragma once

#include <new>
#include <type_traits>
#include <utility>

#include "cpp/runtime/core/free_list_allocator.h"

namespace tri::async {

struct Task {
  Task* next = nullptr;
  void (*run_and_destroy)(Task* task, FreeListAllocator& heap) = nullptr;
};

template <typename F>
struct TaskImpl final : Task {
  template <typename G>
  explicit TaskImpl(G&& f) : fn(std::forward<G>(f)) {
    run_and_destroy = [](Task* task, FreeListAllocator& heap) {
      TaskImpl* self = static_cast<TaskImpl*>(task);
      self->fn();
      self->~TaskImpl();
      heap.free(self);
    };
  }
  F fn;
};

// nullptr when the heap is exhausted; the caller decides what that means.
template <typename F>
Task* make_task(FreeListAllocator& heap, F&& f) {
  using Impl = TaskImpl<std::decay_t<F>>;
  void* memory = heap.allocate(sizeof(Impl));
  if (memory == nullptr) return nullptr;
  return new (memory) Impl(std::forward<F>(f));
}

}  // namespace tri::async
