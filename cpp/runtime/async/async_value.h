// AsyncValue: a reference-counted cell that is unavailable, holds a concrete
// value, or holds an error, like TFRT's. Kernels of the BEF executor take
// and produce them; callers wait on them with and_then().
//
// Scalars are stored in place; anything larger (strings, tensors, shapes,
// counters) is an Object with its own reference count, so copying a value
// into a forwarding placeholder shares the object instead of duplicating it.
#pragma once

#include <cstdint>

#include "cpp/runtime/async/task.h"

namespace tri::async {

class HostContext;

enum class ValueKind : uint8_t { None, Chain, I1, I32, I64, F32, F64, Object };

// The base of every non-scalar payload. Freed from the host's heap when its
// last reference goes.
class Object {
 public:
  explicit Object(uint16_t type_id) : type_id_(type_id) {}
  virtual ~Object() = default;
  // Objects live in the host's heap and are destroyed by drop_ref(), never
  // by `delete`. Declaring this keeps the virtual destructor's deleting
  // variant off the global operator delete, which the runtime must not use.
  static void operator delete(void*) {}
  uint16_t type_id() const { return type_id_; }
  void add_ref() { ++refs_; }
  void drop_ref(HostContext& host);

 private:
  uint32_t refs_ = 1;
  uint16_t type_id_;
};

// Typed access to an Object payload: T declares `static constexpr uint16_t
// kTypeId`; the id check replaces RTTI, which the runtime is built without.
template <typename T>
T* object_cast(Object* object) {
  return object != nullptr && object->type_id() == T::kTypeId ? static_cast<T*>(object) : nullptr;
}

class AsyncValue {
 public:
  enum class State : uint8_t { Unavailable, Concrete, Error };

  explicit AsyncValue(HostContext& host) : host_(&host) {}
  AsyncValue(const AsyncValue&) = delete;
  AsyncValue& operator=(const AsyncValue&) = delete;

  State state() const { return state_; }
  bool available() const { return state_ != State::Unavailable; }
  bool is_error() const { return state_ == State::Error; }
  bool is_concrete() const { return state_ == State::Concrete; }
  ValueKind kind() const { return kind_; }
  HostContext& host() const { return *host_; }

  void add_ref(uint32_t count = 1) { refs_ += count; }
  void drop_ref();
  uint32_t refs() const { return refs_; }

  // Readers; valid when concrete with the matching kind.
  bool i1() const { return payload_.i1; }
  int32_t i32() const { return payload_.i32; }
  int64_t i64() const { return payload_.i64; }
  float f32() const { return payload_.f32; }
  double f64() const { return payload_.f64; }
  Object* object() const { return kind_ == ValueKind::Object ? payload_.object : nullptr; }
  template <typename T>
  T* get() const { return object_cast<T>(object()); }
  const char* error_message() const { return error_ != nullptr ? error_ : ""; }

  // Writers: each makes an unavailable value available and runs its waiters.
  void set_chain();
  void set_i1(bool v);
  void set_i32(int32_t v);
  void set_i64(int64_t v);
  void set_f32(float v);
  void set_f64(double v);
  // Takes over one reference to `object`.
  void set_object(Object* object);
  // Copies `message` into the host's heap.
  void set_error(const char* message);
  // Makes this value a copy of `source` (sharing its object or error) once
  // `source` is available: TFRT's IndirectAsyncValue::ForwardTo.
  void forward_from(AsyncValue* source);

  // Runs `f` now if available, else when the value becomes available. Later
  // waiters run first, as in TFRT's waiter list.
  template <typename F>
  void and_then(F&& f);

 private:
  friend class HostContext;
  void set_available(State state);
  void copy_from(const AsyncValue& source);
  void enqueue_waiter(Task* task);

  HostContext* host_;
  uint32_t refs_ = 1;
  State state_ = State::Unavailable;
  ValueKind kind_ = ValueKind::None;
  union {
    bool i1;
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
    Object* object;
  } payload_{};
  char* error_ = nullptr;
  Task* waiters_ = nullptr;
};

}  // namespace tri::async

#include "cpp/runtime/async/host_context.h"

namespace tri::async {

template <typename F>
void AsyncValue::and_then(F&& f) {
  if (available()) {
    f();
    return;
  }
  enqueue_waiter(make_task(host_->heap(), std::forward<F>(f)));
}

}  // namespace tri::async
