#include "cpp/runtime/async/async_value.h"

#include <cstring>

namespace tri::async {

void Object::drop_ref(HostContext& host) {
  if (--refs_ != 0) return;
  this->~Object();
  host.free(this);
}

void AsyncValue::drop_ref() {
  if (--refs_ != 0) return;
  if (kind_ == ValueKind::Object && payload_.object != nullptr) {
    payload_.object->drop_ref(*host_);
  }
  if (error_ != nullptr) host_->free(error_);
  // Waiters of a value nobody can set any more would never run; free them.
  while (waiters_ != nullptr) {
    Task* next = waiters_->next;
    host_->free(waiters_);
    waiters_ = next;
  }
  host_->free_value(this);
}

void AsyncValue::enqueue_waiter(Task* task) {
  if (task == nullptr) {
    host_->note_out_of_memory();
    return;
  }
  task->next = waiters_;
  waiters_ = task;
}

void AsyncValue::set_available(State state) {
  state_ = state;
  // Waiters may drop the last reference to this value; keep it alive while
  // they run.
  add_ref();
  Task* list = waiters_;
  waiters_ = nullptr;
  while (list != nullptr) {
    Task* next = list->next;
    list->run_and_destroy(list, host_->heap());
    list = next;
  }
  drop_ref();
}

void AsyncValue::set_chain() {
  if (available()) return;  // set once; also shields the shared out-of-memory value
  kind_ = ValueKind::Chain;
  set_available(State::Concrete);
}
void AsyncValue::set_i1(bool v) {
  if (available()) return;  // set once; also shields the shared out-of-memory value
  kind_ = ValueKind::I1;
  payload_.i1 = v;
  set_available(State::Concrete);
}
void AsyncValue::set_i32(int32_t v) {
  if (available()) return;  // set once; also shields the shared out-of-memory value
  kind_ = ValueKind::I32;
  payload_.i32 = v;
  set_available(State::Concrete);
}
void AsyncValue::set_i64(int64_t v) {
  if (available()) return;  // set once; also shields the shared out-of-memory value
  kind_ = ValueKind::I64;
  payload_.i64 = v;
  set_available(State::Concrete);
}
void AsyncValue::set_f32(float v) {
  if (available()) return;  // set once; also shields the shared out-of-memory value
  kind_ = ValueKind::F32;
  payload_.f32 = v;
  set_available(State::Concrete);
}
void AsyncValue::set_f64(double v) {
  if (available()) return;  // set once; also shields the shared out-of-memory value
  kind_ = ValueKind::F64;
  payload_.f64 = v;
  set_available(State::Concrete);
}
void AsyncValue::set_object(Object* object) {
  if (available()) return;  // set once; also shields the shared out-of-memory value
  if (object == nullptr) {
    set_error("out of memory: the BEF executor's heap is exhausted");
    return;
  }
  kind_ = ValueKind::Object;
  payload_.object = object;
  set_available(State::Concrete);
}

void AsyncValue::set_error(const char* message) {
  if (available()) return;  // set once; also shields the shared out-of-memory value
  kind_ = ValueKind::None;
  error_ = host_->copy_string(message, std::strlen(message));
  set_available(State::Error);
}

void AsyncValue::copy_from(const AsyncValue& source) {
  if (available()) return;  // set once; also shields the shared out-of-memory value
  kind_ = source.kind_;
  payload_ = source.payload_;
  if (kind_ == ValueKind::Object && payload_.object != nullptr) payload_.object->add_ref();
  if (source.error_ != nullptr) {
    error_ = host_->copy_string(source.error_, std::strlen(source.error_));
  }
  set_available(source.state_);
}

void AsyncValue::forward_from(AsyncValue* source) {
  if (source->available()) {
    copy_from(*source);
    return;
  }
  source->add_ref();
  add_ref();
  source->and_then([this, source] {
    copy_from(*source);
    source->drop_ref();
    drop_ref();
  });
}

}  // namespace tri::async
