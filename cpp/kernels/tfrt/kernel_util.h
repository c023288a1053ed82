// Helpers shared by the TFRT-style async kernels: typed argument reads,
// value construction, and attribute reads that turn a bad attribute into a
// kernel error instead of undefined behaviour.
#pragma once

#include <cstdint>

#include "cpp/runtime/async/kernel_frame.h"

namespace tri::tfrt_kernels {

using async::AsyncValue;
using async::HostContext;
using async::KernelFrame;

template <typename T>
struct ValueTraits;
template <>
struct ValueTraits<bool> {
  static bool get(const AsyncValue* v) { return v->i1(); }
  static AsyncValue* make(HostContext& h, bool x) { return h.make_i1(x); }
  static constexpr async::ValueKind kKind = async::ValueKind::I1;
};
template <>
struct ValueTraits<int32_t> {
  static int32_t get(const AsyncValue* v) { return v->i32(); }
  static AsyncValue* make(HostContext& h, int32_t x) { return h.make_i32(x); }
  static constexpr async::ValueKind kKind = async::ValueKind::I32;
};
template <>
struct ValueTraits<int64_t> {
  static int64_t get(const AsyncValue* v) { return v->i64(); }
  static AsyncValue* make(HostContext& h, int64_t x) { return h.make_i64(x); }
  static constexpr async::ValueKind kKind = async::ValueKind::I64;
};
template <>
struct ValueTraits<float> {
  static float get(const AsyncValue* v) { return v->f32(); }
  static AsyncValue* make(HostContext& h, float x) { return h.make_f32(x); }
  static constexpr async::ValueKind kKind = async::ValueKind::F32;
};
template <>
struct ValueTraits<double> {
  static double get(const AsyncValue* v) { return v->f64(); }
  static AsyncValue* make(HostContext& h, double x) { return h.make_f64(x); }
  static constexpr async::ValueKind kKind = async::ValueKind::F64;
};

const char* value_kind_name(async::ValueKind kind);

// Checks the kernel's arity and that argument i holds a T; reports a kernel
// error naming the mismatch otherwise. Files can wire any register to any
// kernel, so kernels never trust types.
bool check_arity(KernelFrame& frame, uint32_t arguments, uint32_t results, uint32_t attributes = 0,
                 uint32_t functions = 0);
bool check_kind(KernelFrame& frame, uint32_t i, async::ValueKind kind);

template <typename T>
bool read_argument(KernelFrame& frame, uint32_t i, T* out) {
  if (!check_kind(frame, i, ValueTraits<T>::kKind)) return false;
  *out = ValueTraits<T>::get(frame.argument(i));
  return true;
}

// Attribute i as a scalar of T (bool reads one byte).
template <typename T>
bool read_attribute(KernelFrame& frame, uint32_t i, T* out) {
  Result<T> value = frame.attributes().scalar<T>(frame.attribute_offset(i));
  if (!value.ok()) {
    frame.report_error("%s", last_error_message());
    return false;
  }
  *out = *value;
  return true;
}
template <>
inline bool read_attribute<bool>(KernelFrame& frame, uint32_t i, bool* out) {
  Result<bool> value = frame.attributes().boolean(frame.attribute_offset(i));
  if (!value.ok()) {
    frame.report_error("%s", last_error_message());
    return false;
  }
  *out = *value;
  return true;
}

// Sets every result to `value` (one reference each; consumes the caller's).
void set_all_results(KernelFrame& frame, AsyncValue* value);

// Registration of each kernel group (one per source file).
void register_basic_kernels();
void register_control_flow_kernels();
void register_test_kernels();    // tfrt_test.*, tfrt_tutorial.*, native functions
void register_tensor_kernels();  // tfrt_dht.*, ts.* (tensor/)

}  // namespace tri::tfrt_kernels
