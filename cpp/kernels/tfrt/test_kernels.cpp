// TFRT's simple test kernels (lib/test_kernels: simple_kernels.cc,
// simple_test_kernels.cc, atomic_test_kernels.cc, tutorial_kernels.cc): the
// kernels TFRT's executor tests are written with. Names, results, messages
// and print formats follow TFRT's.
#include <cinttypes>
#include <cstring>

#include "cpp/kernels/tfrt/kernel_util.h"
#include "cpp/runtime/async/object_types.h"
#include "cpp/runtime/async/string_object.h"

namespace tri::tfrt_kernels {
namespace {

using async::StringObject;

void print_hello(KernelFrame& frame) {
  frame.host().print("hello host executor!\n");
  if (frame.num_results() > 0) set_all_results(frame, frame.host().make_chain());
}

bool read_string(KernelFrame& frame, uint32_t i, const StringObject** out) {
  *out = frame.argument(i)->get<StringObject>();
  if (*out != nullptr) return true;
  frame.report_error("argument %u is not a string", i);
  return false;
}

AsyncValue* make_string(HostContext& host, const char* data, size_t size) {
  AsyncValue* value = host.make_unavailable();
  value->set_object(StringObject::make(host, data, size));
  return value;
}

// get_string {value = "..."} -> !tfrt.string
void get_string(KernelFrame& frame) {
  if (!check_arity(frame, 0, 1, 1)) return;
  Result<async::StringAttr> text = frame.attributes().string(frame.attribute_offset(0));
  if (!text.ok()) {
    frame.report_error("%s", last_error_message());
    return;
  }
  frame.set_result(0, make_string(frame.host(), text->data, text->size));
}

// print_string %string, %chain -> %chain
void print_string(KernelFrame& frame) {
  if (frame.num_arguments() < 1) {
    check_arity(frame, 2, 1);
    return;
  }
  const StringObject* s;
  if (!read_string(frame, 0, &s)) return;
  frame.host().print("string = %.*s\n", static_cast<int>(s->size()), s->data());
  if (frame.num_results() > 0) set_all_results(frame, frame.host().make_chain());
}

void append_string(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  const StringObject *a, *b;
  if (!read_string(frame, 0, &a) || !read_string(frame, 1, &b)) return;
  HostContext& host = frame.host();
  char* joined = static_cast<char*>(host.allocate(a->size() + b->size() + 1));
  if (joined == nullptr) {
    frame.report_error("out of memory");
    return;
  }
  std::memcpy(joined, a->data(), a->size());
  std::memcpy(joined + a->size(), b->data(), b->size());
  frame.set_result(0, make_string(host, joined, a->size() + b->size()));
  host.free(joined);
}

// count3.<int> %x -> x+1, x+2, x+3
template <typename T>
void count3(KernelFrame& frame) {
  if (!check_arity(frame, 1, 3)) return;
  T x;
  if (!read_argument(frame, 0, &x)) return;
  using U = std::make_unsigned_t<T>;
  for (uint32_t i = 0; i < 3; ++i) {
    frame.set_result(i, ValueTraits<T>::make(frame.host(), static_cast<T>(static_cast<U>(x) + i + 1)));
  }
}

// copy.with_delay: TFRT sleeps a random 1-10 ms on the caller's thread to
// play a badly behaved kernel; with one thread there is nothing for the
// delay to overlap, so the copy is immediate.
void copy_value(KernelFrame& frame) {
  if (!check_arity(frame, 1, 1)) return;
  frame.argument(0)->add_ref();
  frame.set_result(0, frame.argument(0));
}

// identity %chain, %value -> %value
void identity(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  frame.argument(1)->add_ref();
  frame.set_result(0, frame.argument(1));
}

// multi_arg_result a, b, ... -> a, b, ...
void multi_arg_result(KernelFrame& frame) {
  if (frame.num_arguments() != frame.num_results()) {
    check_arity(frame, frame.num_results(), frame.num_results());
    return;
  }
  for (uint32_t i = 0; i < frame.num_results(); ++i) {
    frame.argument(i)->add_ref();
    frame.set_result(i, frame.argument(i));
  }
}

void fail(KernelFrame& frame) { frame.report_error("something bad happened"); }

// partial_fail -> (1, error)
void partial_fail(KernelFrame& frame) {
  if (!check_arity(frame, 0, 2)) return;
  frame.set_result(0, frame.host().make_i32(1));
  frame.report_error("something bad happened");
}

// flat {value = [["string", [a : i32, b : i32]], [c : f32]]}
//   -> (!tfrt.string, i32, i32, f32): the leaves of a nested aggregate.
void flat(KernelFrame& frame) {
  if (!check_arity(frame, 0, 4, 1)) return;
  const async::AttributeReader& attrs = frame.attributes();
  auto bad = [&frame] { frame.report_error("tfrt_test.flat expects [[\"string\", [i32, i32]], [f32]]"); };
  Result<async::AggregateAttr> outer = attrs.aggregate(frame.attribute_offset(0));
  if (!outer.ok() || outer->count != 2) return bad();
  uint8_t tag = 0;
  Result<uint32_t> first = attrs.aggregate_element(*outer, 0, &tag);
  if (!first.ok() || tag != static_cast<uint8_t>(async::AttributeType::Aggregate)) return bad();
  Result<async::AggregateAttr> inner = attrs.aggregate(*first);
  if (!inner.ok() || inner->count != 2) return bad();
  Result<uint32_t> text_at = attrs.aggregate_element(*inner, 0, &tag);
  if (!text_at.ok() || tag != static_cast<uint8_t>(async::AttributeType::String)) return bad();
  Result<async::StringAttr> text = attrs.string(*text_at);
  Result<uint32_t> ints_at = attrs.aggregate_element(*inner, 1, &tag);
  if (!text.ok() || !ints_at.ok() || tag != (static_cast<uint8_t>(async::AttributeType::I32) | async::kArrayAttributeFlag)) {
    return bad();
  }
  Result<async::ArrayAttr> ints = attrs.array(*ints_at, 4);
  Result<uint32_t> floats_at = attrs.aggregate_element(*outer, 1, &tag);
  if (!ints.ok() || ints->count != 2 || !floats_at.ok() ||
      tag != (static_cast<uint8_t>(async::AttributeType::F32) | async::kArrayAttributeFlag)) {
    return bad();
  }
  Result<async::ArrayAttr> floats = attrs.array(*floats_at, 4);
  if (!floats.ok() || floats->count != 1) return bad();
  int32_t i0, i1;
  float f;
  std::memcpy(&i0, ints->data, 4);
  std::memcpy(&i1, ints->data + 4, 4);
  std::memcpy(&f, floats->data, 4);
  HostContext& host = frame.host();
  frame.set_result(0, make_string(host, text->data, text->size));
  frame.set_result(1, host.make_i32(i0));
  frame.set_result(2, host.make_i32(i1));
  frame.set_result(3, host.make_f32(f));
}

// An integer counter kernels share by reference (TFRT's std::atomic<int32_t>;
// one thread needs no atomics).
class AtomicI32 final : public async::Object {
 public:
  static constexpr uint16_t kTypeId = async::kAtomicI32Object;
  AtomicI32() : Object(kTypeId) {}
  int32_t value = 0;
};

AtomicI32* read_counter(KernelFrame& frame) {
  AtomicI32* counter = frame.num_arguments() > 0 ? frame.argument(0)->get<AtomicI32>() : nullptr;
  if (counter == nullptr) frame.report_error("argument 0 is not a !test.atomic.i32 counter");
  return counter;
}

void atomic_create(KernelFrame& frame) {
  if (!check_arity(frame, 0, 1)) return;
  AsyncValue* value = frame.host().make_unavailable();
  value->set_object(frame.host().make_object<AtomicI32>());
  frame.set_result(0, value);
}

// atomic.inc.i32 %counter[, %chain] -> !tfrt.chain
void atomic_inc(KernelFrame& frame) {
  AtomicI32* counter = read_counter(frame);
  if (counter == nullptr) return;
  counter->value = static_cast<int32_t>(static_cast<uint32_t>(counter->value) + 1);
  set_all_results(frame, frame.host().make_chain());
}

// atomic.add.i32 %counter, %value[, %chain] -> !tfrt.chain
void atomic_add(KernelFrame& frame) {
  AtomicI32* counter = read_counter(frame);
  int32_t value;
  if (counter == nullptr || frame.num_arguments() < 2 || !read_argument(frame, 1, &value)) {
    if (counter != nullptr && frame.num_arguments() < 2) frame.report_error("atomic.add.i32 needs a value");
    return;
  }
  counter->value = static_cast<int32_t>(static_cast<uint32_t>(counter->value) + static_cast<uint32_t>(value));
  set_all_results(frame, frame.host().make_chain());
}

// atomic.get.i32 %counter[, %chain] -> (i32, !tfrt.chain)
void atomic_get(KernelFrame& frame) {
  AtomicI32* counter = read_counter(frame);
  if (counter == nullptr) return;
  if (frame.num_results() != 2) {
    check_arity(frame, frame.num_arguments(), 2);
    return;
  }
  frame.set_result(0, frame.host().make_i32(counter->value));
  frame.set_result(1, frame.host().make_chain());
}

class Coordinate final : public async::Object {
 public:
  static constexpr uint16_t kTypeId = async::kCoordinateObject;
  Coordinate(int32_t x, int32_t y) : Object(kTypeId), x(x), y(y) {}
  int32_t x, y;
};

void create_coordinate(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  int32_t x, y;
  if (!read_argument(frame, 0, &x) || !read_argument(frame, 1, &y)) return;
  AsyncValue* value = frame.host().make_unavailable();
  value->set_object(frame.host().make_object<Coordinate>(x, y));
  frame.set_result(0, value);
}

// print_coordinate %coordinate[, %chain] -> !tfrt.chain
void print_coordinate(KernelFrame& frame) {
  const Coordinate* c = frame.num_arguments() > 0 ? frame.argument(0)->get<Coordinate>() : nullptr;
  if (c == nullptr) {
    frame.report_error("argument 0 is not a coordinate");
    return;
  }
  frame.host().print("(%" PRId32 ", %" PRId32 ")\n", c->x, c->y);
  set_all_results(frame, frame.host().make_chain());
}

const async::KernelEntry kKernels[] = {
    {"tfrt_test.print_hello", &print_hello},
    {"tfrt_test.get_string", &get_string},
    {"tfrt_test.print_string", &print_string},
    {"tfrt_test.append_string", &append_string},
    {"tfrt_test.count3.i32", &count3<int32_t>},
    {"tfrt_test.count3.i64", &count3<int64_t>},
    {"tfrt_test.copy.with_delay.i32", &copy_value},
    {"tfrt_test.copy.with_delay.i64", &copy_value},
    {"tfrt_test.identity", &identity},
    {"tfrt_test.multi_arg_result", &multi_arg_result},
    {"tfrt_test.fail", &fail},
    {"tfrt_test.partial_fail", &partial_fail},
    {"tfrt_test.flat", &flat},
    {"tfrt_test.atomic.create.i32", &atomic_create},
    {"tfrt_test.atomic.inc.i32", &atomic_inc},
    {"tfrt_test.atomic.add.i32", &atomic_add},
    {"tfrt_test.atomic.get.i32", &atomic_get},
    {"tfrt_tutorial.create_coordinate", &create_coordinate},
    {"tfrt_tutorial.print_coordinate", &print_coordinate},
};

}  // namespace

void register_simple_test_kernels() { async::register_kernels(kKernels); }

}  // namespace tri::tfrt_kernels
