// TFRT's control-flow kernels (lib/basic_kernels/control_flow_kernels.cc):
// chains, calls, conditionals and loops over the program's functions. The
// executor is strict, so every operand is available when a kernel runs; a
// loop's later iterations may still wait on values that bodies produce
// asynchronously, and resume from and_then callbacks or work-queue tasks.
#include <cstring>

#include "cpp/kernels/tfrt/kernel_util.h"

namespace tri::tfrt_kernels {
namespace {

using async::FunctionCaller;

void new_chain(KernelFrame& frame) {
  if (!check_arity(frame, 0, 1)) return;
  frame.set_result(0, frame.host().make_chain());
}

// All operands are available by the time this runs, which is the point.
void merge_chains(KernelFrame& frame) {
  if (frame.num_results() != 1) {
    check_arity(frame, frame.num_arguments(), 1);
    return;
  }
  frame.set_result(0, frame.host().make_chain());
}

// alias.value %chain, %value -> %value
void alias_value(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  frame.argument(1)->add_ref();
  frame.set_result(0, frame.argument(1));
}

bool check_signature(KernelFrame& frame, uint32_t function, uint32_t arguments, uint32_t results) {
  FunctionCaller& caller = frame.caller();
  if (caller.num_arguments(function) == arguments && caller.num_results(function) == results) {
    return true;
  }
  frame.report_error("function %u takes %u arguments and returns %u results; the kernel passes %u "
                     "and expects %u",
                     function, caller.num_arguments(function), caller.num_results(function),
                     arguments, results);
  return false;
}

// Calls `function` with arguments [first, end) of the frame; its results
// become the kernel's results.
void call_with(KernelFrame& frame, uint32_t function, uint32_t first_argument) {
  const uint32_t num_args = frame.num_arguments() - first_argument;
  if (!check_signature(frame, function, num_args, frame.num_results())) return;
  AsyncValue* results[16];
  AsyncValue** out = results;
  if (frame.num_results() > 16) {
    out = static_cast<AsyncValue**>(frame.host().allocate(sizeof(AsyncValue*) * frame.num_results()));
    if (out == nullptr) {
      frame.report_error("out of memory");
      return;
    }
  }
  frame.caller().call(function, frame.arguments().subspan(first_argument, num_args),
                      Span<AsyncValue*>(out, frame.num_results()));
  for (uint32_t i = 0; i < frame.num_results(); ++i) frame.set_result(i, out[i]);
  if (out != results) frame.host().free(out);
}

void call(KernelFrame& frame) {
  if (frame.num_functions() != 1 || frame.num_attributes() != 0) {
    check_arity(frame, frame.num_arguments(), frame.num_results(), 0, 1);
    return;
  }
  call_with(frame, frame.function(0), 0);
}

// tfrt.if / tfrt.cond %cond, args... with functions (then, else).
void if_kernel(KernelFrame& frame) {
  if (frame.num_functions() != 2 || frame.num_arguments() < 1) {
    check_arity(frame, frame.num_arguments() < 1 ? 1 : frame.num_arguments(), frame.num_results(), 0, 2);
    return;
  }
  bool condition;
  if (!read_argument(frame, 0, &condition)) return;
  call_with(frame, frame.function(condition ? 0 : 1), 1);
}

// tfrt.case %index, args... with N branch functions; an index out of range
// selects the last branch (FORMAT-NOTES §10).
void case_kernel(KernelFrame& frame) {
  if (frame.num_functions() == 0 || frame.num_arguments() < 1) {
    frame.report_error("tfrt.case needs a branch index and at least one branch");
    return;
  }
  int32_t index;
  if (!read_argument(frame, 0, &index)) return;
  const uint32_t branches = frame.num_functions();
  const uint32_t branch = index < 0 || static_cast<uint32_t>(index) >= branches
                              ? branches - 1
                              : static_cast<uint32_t>(index);
  call_with(frame, frame.function(branch), 1);
}

// Loop state shared by tfrt.while and tfrt.repeat.i32 iterations that
// resume asynchronously: the body, the current loop values, and the
// placeholders the kernel returned.
struct Loop {
  HostContext* host;
  FunctionCaller* caller;
  uint32_t body;
  uint32_t num_values;
  AsyncValue** values;   // num_values current loop values (owned references)
  AsyncValue** results;  // num_values placeholders (owned references)
  AsyncValue* condition; // tfrt.while: the next condition (owned)
  int32_t remaining;     // tfrt.repeat.i32: iterations left
};

Loop* make_loop(KernelFrame& frame, uint32_t body, uint32_t first_value) {
  HostContext& host = frame.host();
  Loop* loop = static_cast<Loop*>(host.allocate(sizeof(Loop)));
  const uint32_t n = frame.num_arguments() - first_value;
  AsyncValue** arrays = static_cast<AsyncValue**>(host.allocate(sizeof(AsyncValue*) * (2 * size_t{n} + 1)));
  if (loop == nullptr || arrays == nullptr) {
    host.free(loop);
    host.free(arrays);
    frame.report_error("out of memory");
    return nullptr;
  }
  *loop = Loop{&host, &frame.caller(), body, n, arrays, arrays + n, nullptr, 0};
  for (uint32_t i = 0; i < n; ++i) {
    loop->values[i] = frame.argument(first_value + i);
    loop->values[i]->add_ref();
    loop->results[i] = host.make_unavailable();
    loop->results[i]->add_ref();
    frame.set_result(i, loop->results[i]);
  }
  return loop;
}

void finish_loop(Loop* loop, AsyncValue* error) {
  for (uint32_t i = 0; i < loop->num_values; ++i) {
    loop->results[i]->forward_from(error != nullptr ? error : loop->values[i]);
    loop->results[i]->drop_ref();
    loop->values[i]->drop_ref();
  }
  if (loop->condition != nullptr) loop->condition->drop_ref();
  HostContext& host = *loop->host;
  host.free(loop->values);
  host.free(loop);
}

// Runs the body once: values ← body(values) minus the last result, which
// (for tfrt.while) becomes the next condition.
void run_body(Loop* loop, bool has_condition) {
  const uint32_t n = loop->num_values + (has_condition ? 1 : 0);
  AsyncValue* inline_results[16];
  AsyncValue** results = inline_results;
  if (n > 16) {
    results = static_cast<AsyncValue**>(loop->host->allocate(sizeof(AsyncValue*) * n));
    if (results == nullptr) return;
  }
  loop->caller->call(loop->body, Span<AsyncValue* const>(loop->values, loop->num_values),
                     Span<AsyncValue*>(results, n));
  for (uint32_t i = 0; i < loop->num_values; ++i) {
    loop->values[i]->drop_ref();
    loop->values[i] = results[i];
  }
  if (has_condition) {
    if (loop->condition != nullptr) loop->condition->drop_ref();
    loop->condition = results[loop->num_values];
  }
  if (results != inline_results) loop->host->free(results);
}

// tfrt.while: iterate while the body's last result is true. A condition that
// is not yet available resumes the loop from a work-queue task, like TFRT,
// so long asynchronous loops do not grow the stack.
void while_step(Loop* loop) {
  for (;;) {
    AsyncValue* condition = loop->condition;
    if (!condition->available()) {
      condition->and_then([loop] { loop->host->enqueue([loop] { while_step(loop); }); });
      return;
    }
    if (condition->is_error()) {
      finish_loop(loop, condition);
      return;
    }
    if (condition->kind() != async::ValueKind::I1) {
      AsyncValue* error = loop->host->make_error("tfrt.while: the body's last result is not an i1");
      finish_loop(loop, error);
      error->drop_ref();
      return;
    }
    if (!condition->i1()) {
      finish_loop(loop, nullptr);
      return;
    }
    if (!loop->host->charge()) {
      AsyncValue* error = loop->host->make_error("tfrt.while: the run exceeded its kernel budget");
      finish_loop(loop, error);
      error->drop_ref();
      return;
    }
    run_body(loop, true);
  }
}

// tfrt.while %cond, args... @body; parallel_iterations is a scheduling hint
// that a single-threaded queue has no use for: iterations run in order.
void while_kernel(KernelFrame& frame) {
  if (frame.num_functions() != 1 || frame.num_arguments() < 1 ||
      frame.num_results() + 1 != frame.num_arguments()) {
    frame.report_error("tfrt.while takes a condition and N values, returns N values, and names a body");
    return;
  }
  if (!check_kind(frame, 0, async::ValueKind::I1)) return;
  const uint32_t body = frame.function(0);
  if (!check_signature(frame, body, frame.num_results(), frame.num_results() + 1)) return;
  Loop* loop = make_loop(frame, body, 1);
  if (loop == nullptr) return;
  loop->condition = frame.argument(0);
  loop->condition->add_ref();
  while_step(loop);
}

// tfrt.repeat.i32 %count, args... { body }: the body runs `count` times in
// blocks of 32; between blocks the loop waits for the first loop value.
constexpr int32_t kRepeatBlock = 32;

void repeat_block(Loop* loop) {
  int32_t block = loop->num_values == 0 ? loop->remaining : kRepeatBlock;
  while (loop->remaining > 0 && block-- > 0) {
    if (!loop->host->charge()) {
      AsyncValue* error = loop->host->make_error("tfrt.repeat.i32: the run exceeded its kernel budget");
      finish_loop(loop, error);
      error->drop_ref();
      return;
    }
    run_body(loop, false);
    --loop->remaining;
  }
  if (loop->remaining == 0) {
    finish_loop(loop, nullptr);
    return;
  }
  loop->values[0]->and_then([loop] { repeat_block(loop); });
}

void repeat_kernel(KernelFrame& frame) {
  if (frame.num_functions() != 1 || frame.num_arguments() < 1 ||
      frame.num_results() + 1 != frame.num_arguments()) {
    frame.report_error("tfrt.repeat.i32 takes a count and N values, returns N values, and has a body");
    return;
  }
  int32_t count;
  if (!read_argument(frame, 0, &count)) return;
  const uint32_t body = frame.function(0);
  if (!check_signature(frame, body, frame.num_results(), frame.num_results())) return;
  Loop* loop = make_loop(frame, body, 1);
  if (loop == nullptr) return;
  loop->remaining = count < 0 ? 0 : count;
  repeat_block(loop);
}

// tfrt.once @f(args): f runs once per run; later calls share its results.
void once_kernel(KernelFrame& frame) {
  if (frame.num_functions() != 1) {
    check_arity(frame, frame.num_arguments(), frame.num_results(), 0, 1);
    return;
  }
  const uint32_t function = frame.function(0);
  Span<AsyncValue* const> cached = frame.caller().once_results(function);
  if (cached.empty() && frame.num_results() > 0) {
    call_with(frame, function, 0);
    for (uint32_t i = 0; i < frame.num_results(); ++i) {
      if (frame.result(i) == nullptr) return;
    }
    AsyncValue* results[16];
    if (frame.num_results() > 16) return;  // served uncached
    for (uint32_t i = 0; i < frame.num_results(); ++i) results[i] = frame.result(i);
    frame.caller().set_once_results(function, Span<AsyncValue* const>(results, frame.num_results()));
    return;
  }
  if (cached.size() != frame.num_results()) {
    call_with(frame, function, 0);
    return;
  }
  for (uint32_t i = 0; i < frame.num_results(); ++i) {
    cached[i]->add_ref();
    frame.set_result(i, cached[i]);
  }
}

const async::KernelEntry kKernels[] = {
    {"tfrt.new.chain", &new_chain},
    {"tfrt.merge.chains", &merge_chains},
    {"tfrt.alias.value", &alias_value},
    {"tfrt.call", &call},
    {"tfrt.if", &if_kernel},
    {"tfrt.cond", &if_kernel},
    {"tfrt.case", &case_kernel},
    {"tfrt.while", &while_kernel},
    {"tfrt.repeat.i32", &repeat_kernel},
    {"tfrt.once", &once_kernel},
};

}  // namespace

void register_parallel_kernels();

void register_control_flow_kernels() {
  async::register_kernels(kKernels);
  register_parallel_kernels();
}

}  // namespace tri::tfrt_kernels
