#include "cpp/runtime/async/host_context.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "cpp/runtime/async/async_value.h"

namespace tri::async {

void WorkQueue::add(Task* task) {
  task->next = nullptr;
  if (tail_ == nullptr) {
    head_ = tail_ = task;
  } else {
    tail_->next = task;
    tail_ = task;
  }
}

bool WorkQueue::run_one(FreeListAllocator& heap) {
  Task* task = head_;
  if (task == nullptr) return false;
  head_ = task->next;
  if (head_ == nullptr) tail_ = nullptr;
  task->run_and_destroy(task, heap);
  return true;
}

HostContext::~HostContext() {
  // Tasks still queued hold references; dropping them without running would
  // leak inside the heap, which the owner resets anyway.
}

void HostContext::print(const char* format, ...) {
  char buffer[1024];
  va_list args;
  va_start(args, format);
  const int n = std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  if (n < 0 || print_hook_ == nullptr) return;
  const size_t size = static_cast<size_t>(n) < sizeof(buffer) ? static_cast<size_t>(n) : sizeof(buffer) - 1;
  print_hook_(print_context_, buffer, size);
}

void HostContext::emit_diagnostic(const Diagnostic& diagnostic) {
  if (diagnostic_hook_ != nullptr) diagnostic_hook_(diagnostic_context_, diagnostic);
}

void* HostContext::allocate(size_t size) {
  void* p = heap_.allocate(size);
  if (p == nullptr) out_of_memory_ = true;
  return p;
}

char* HostContext::copy_string(const char* text, size_t size) {
  char* copy = static_cast<char*>(allocate(size + 1));
  if (copy == nullptr) return nullptr;
  std::memcpy(copy, text, size);
  copy[size] = '\0';
  return copy;
}

AsyncValue* HostContext::new_value() {
  void* memory = heap_.allocate(sizeof(AsyncValue));
  if (memory == nullptr) {
    out_of_memory_ = true;
    if (oom_value_ == nullptr) {
      static_assert(sizeof(AsyncValue) <= sizeof(oom_storage_), "oom_storage_ too small");
      static const char kMessage[] = "out of memory: the BEF executor's heap is exhausted";
      oom_value_ = new (oom_storage_) AsyncValue(*this);
      oom_value_->state_ = AsyncValue::State::Error;
      oom_value_->error_ = const_cast<char*>(kMessage);
      oom_value_->refs_ = UINT32_MAX / 2;
    }
    oom_value_->add_ref();
    return nullptr;
  }
  ++live_values_;
  return new (memory) AsyncValue(*this);
}

void HostContext::free_value(AsyncValue* value) {
  value->~AsyncValue();
  heap_.free(value);
  --live_values_;
}

AsyncValue* HostContext::make_unavailable() {
  AsyncValue* v = new_value();
  return v != nullptr ? v : oom_value_;
}

#define TRI_MAKE_VALUE(name, type, setter) \
  AsyncValue* HostContext::name(type x) {  \
    AsyncValue* v = new_value();           \
    if (v == nullptr) return oom_value_;   \
    v->setter(x);                          \
    return v;                              \
  }
TRI_MAKE_VALUE(make_i1, bool, set_i1)
TRI_MAKE_VALUE(make_i32, int32_t, set_i32)
TRI_MAKE_VALUE(make_i64, int64_t, set_i64)
TRI_MAKE_VALUE(make_f32, float, set_f32)
TRI_MAKE_VALUE(make_f64, double, set_f64)
TRI_MAKE_VALUE(make_error, const char*, set_error)
#undef TRI_MAKE_VALUE

AsyncValue* HostContext::make_chain() {
  AsyncValue* v = new_value();
  if (v == nullptr) return oom_value_;
  v->set_chain();
  return v;
}

AsyncValue* HostContext::make_error_format(const char* format, ...) {
  char buffer[kErrorMessageCapacity];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  return make_error(buffer);
}

void HostContext::await(AsyncValue* value) {
  while (!value->available() && run_one_task()) {
  }
}

void HostContext::quiesce() {
  while (run_one_task()) {
  }
}

}  // namespace tri::async
