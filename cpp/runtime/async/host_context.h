// HostContext: what the async runtime runs on. It owns nothing: the heap is a
// FreeListAllocator over memory the caller hands in, and printing and
// diagnostics go to hooks the host installs (the CLI writes them to stdout,
// the bindings collect them for JS). One HostContext serves one thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

#include "cpp/runtime/async/task.h"
#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/free_list_allocator.h"

namespace tri::async {

class AsyncValue;

// Where a kernel failed, decoded from the program's location records.
struct SourceLocation {
  const char* filename = nullptr;  // nullptr when unknown
  uint32_t line = 0;
  uint32_t column = 0;
};

struct Diagnostic {
  const char* message;
  SourceLocation location;
};

using PrintHook = void (*)(void* context, const char* text, size_t size);
using DiagnosticHook = void (*)(void* context, const Diagnostic& diagnostic);

// A FIFO of tasks run on the caller's thread only when it asks (await or
// quiesce), like TFRT's single-threaded work queue.
class WorkQueue {
 public:
  void add(Task* task);
  bool empty() const { return head_ == nullptr; }
  // Runs one task; false when there was none.
  bool run_one(FreeListAllocator& heap);

 private:
  Task* head_ = nullptr;
  Task* tail_ = nullptr;
};

class HostContext {
 public:
  explicit HostContext(FreeListAllocator& heap) : heap_(heap) {}
  HostContext(const HostContext&) = delete;
  HostContext& operator=(const HostContext&) = delete;
  ~HostContext();

  FreeListAllocator& heap() { return heap_; }

  void set_print_hook(PrintHook hook, void* context) {
    print_hook_ = hook;
    print_context_ = context;
  }
  void set_diagnostic_hook(DiagnosticHook hook, void* context) {
    diagnostic_hook_ = hook;
    diagnostic_context_ = context;
  }
  void print(const char* format, ...) TRI_PRINTF_LIKE(2, 3);
  void emit_diagnostic(const Diagnostic& diagnostic);

  // Values. On heap exhaustion these return a shared error value ("out of
  // memory"), so callers never see nullptr and the run fails cleanly.
  AsyncValue* make_unavailable();
  AsyncValue* make_chain();
  AsyncValue* make_i1(bool v);
  AsyncValue* make_i32(int32_t v);
  AsyncValue* make_i64(int64_t v);
  AsyncValue* make_f32(float v);
  AsyncValue* make_f64(double v);
  AsyncValue* make_error(const char* message);
  AsyncValue* make_error_format(const char* format, ...) TRI_PRINTF_LIKE(2, 3);
  void free_value(AsyncValue* value);

  // Objects of type T from the heap; nullptr (and out_of_memory()) when full.
  template <typename T, typename... Args>
  T* make_object(Args&&... args) {
    void* memory = allocate(sizeof(T));
    return memory == nullptr ? nullptr : new (memory) T(std::forward<Args>(args)...);
  }
  void* allocate(size_t size);
  void free(void* p) { heap_.free(p); }
  // Copies a string into the heap; nullptr when full.
  char* copy_string(const char* text, size_t size);

  // Work queue: posting never fails silently; a task that cannot be
  // allocated sets out_of_memory() and is dropped.
  template <typename F>
  void enqueue(F&& f) {
    Task* task = make_task(heap_, std::forward<F>(f));
    if (task == nullptr) {
      out_of_memory_ = true;
      return;
    }
    queue_.add(task);
  }
  bool run_one_task() { return queue_.run_one(heap_); }
  // Runs queued tasks until `value` is available or nothing is left.
  void await(AsyncValue* value);
  // Runs queued tasks until none is left.
  void quiesce();

  // A cap on kernel executions (0: none), so that a hostile or runaway
  // program cannot hang its host: past it, kernels fail instead of running.
  void set_kernel_budget(uint64_t budget) {
    budget_ = budget;
    executed_ = 0;
  }
  // Counts one execution; false once the budget is spent.
  bool charge() { return budget_ == 0 || ++executed_ <= budget_; }
  uint64_t kernel_budget() const { return budget_; }
  bool budget_exhausted() const { return budget_ != 0 && executed_ > budget_; }

  bool out_of_memory() const { return out_of_memory_; }
  void note_out_of_memory() { out_of_memory_ = true; }
  size_t live_values() const { return live_values_; }

 private:
  friend class AsyncValue;
  AsyncValue* new_value();

  FreeListAllocator& heap_;
  WorkQueue queue_;
  PrintHook print_hook_ = nullptr;
  void* print_context_ = nullptr;
  DiagnosticHook diagnostic_hook_ = nullptr;
  void* diagnostic_context_ = nullptr;
  // The error value handed out when the heap is full; it lives here so that
  // it exists even then, and is never freed.
  alignas(16) unsigned char oom_storage_[64];
  AsyncValue* oom_value_ = nullptr;
  bool out_of_memory_ = false;
  size_t live_values_ = 0;
  uint64_t budget_ = 0;
  uint64_t executed_ = 0;
};

}  // namespace tri::async
