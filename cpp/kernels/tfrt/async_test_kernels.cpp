// TFRT's asynchronous test kernels (lib/test_kernels: async_kernels.cc,
// async_test_kernels.cc) and test native functions: they return values that
// become available only when the work queue runs a task, which is what the
// executor tests use to check scheduling order and error propagation.
#include <cinttypes>

#include "cpp/kernels/tfrt/kernel_util.h"

namespace tri::tfrt_kernels {
namespace {

// Sets `result` from a task on the work queue: TFRT's EnqueueWork.
template <typename T>
void set_later(HostContext& host, AsyncValue* result, T value) {
  result->add_ref();
  host.enqueue([result, value] {
    if constexpr (std::is_same<T, bool>::value) {
      result->set_i1(value);
    } else if constexpr (std::is_same<T, int32_t>::value) {
      result->set_i32(value);
    } else {
      result->set_i64(value);
    }
    result->drop_ref();
  });
}

void async_add_i32(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  int32_t a, b;
  if (!read_argument(frame, 0, &a) || !read_argument(frame, 1, &b)) return;
  AsyncValue* result = frame.host().make_unavailable();
  frame.set_result(0, result);
  set_later(frame.host(), result, static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b)));
}

void async_constant_i32(KernelFrame& frame) {
  if (!check_arity(frame, 0, 1, 1)) return;
  int32_t v;
  if (!read_attribute(frame, 0, &v)) return;
  AsyncValue* result = frame.host().make_unavailable();
  frame.set_result(0, result);
  set_later(frame.host(), result, v);
}

void async_constant_i1(KernelFrame& frame) {
  if (!check_arity(frame, 0, 1, 1)) return;
  bool v;
  if (!read_attribute(frame, 0, &v)) return;
  AsyncValue* result = frame.host().make_unavailable();
  frame.set_result(0, result);
  set_later(frame.host(), result, v);
}

// async_copy.i32 %x: the copy becomes available from a task.
void async_copy_i32(KernelFrame& frame) {
  if (!check_arity(frame, 1, 1)) return;
  int32_t v;
  if (!read_argument(frame, 0, &v)) return;
  AsyncValue* result = frame.host().make_unavailable();
  frame.set_result(0, result);
  set_later(frame.host(), result, v);
}

// async_copy_2.i32: the copy comes from a task that a task enqueues, so it
// is available two queue steps later.
void async_copy_2_i32(KernelFrame& frame) {
  if (!check_arity(frame, 1, 1)) return;
  int32_t v;
  if (!read_argument(frame, 0, &v)) return;
  HostContext* host = &frame.host();
  AsyncValue* result = host->make_unavailable();
  frame.set_result(0, result);
  result->add_ref();
  host->enqueue([host, result, v] {
    set_later(*host, result, v);
    result->drop_ref();
  });
}

// as_chain %x -> a chain available once a task has run.
void as_chain(KernelFrame& frame) {
  if (!check_arity(frame, 1, 1)) return;
  AsyncValue* result = frame.host().make_unavailable();
  frame.set_result(0, result);
  result->add_ref();
  frame.host().enqueue([result] {
    result->set_chain();
    result->drop_ref();
  });
}

// Reports an error for `result` from a task: the diagnostic at the kernel's
// location, and the value becomes that error (TFRT's frame.ReportError from
// a copied frame).
void report_error_later(HostContext& host, async::SourceLocation location, AsyncValue* result,
                        const char* message) {
  result->add_ref();
  HostContext* h = &host;
  host.enqueue([h, location, result, message] {
    h->emit_diagnostic(async::Diagnostic{message, location});
    result->set_error(message);
    result->drop_ref();
  });
}

void report_error_async(KernelFrame& frame) {
  if (!check_arity(frame, 0, 1)) return;
  AsyncValue* result = frame.host().make_unavailable();
  frame.set_result(0, result);
  report_error_later(frame.host(), frame.location(), result, "something bad happened asynchronously");
}

// report_error_{concrete,indirect}_async %in: `in` from a task when it is 0,
// else an error reported from that task.
void report_error_if_nonzero_async(KernelFrame& frame) {
  if (!check_arity(frame, 1, 1)) return;
  int32_t in;
  if (!read_argument(frame, 0, &in)) return;
  AsyncValue* result = frame.host().make_unavailable();
  frame.set_result(0, result);
  if (in == 0) {
    set_later(frame.host(), result, in);
  } else {
    report_error_later(frame.host(), frame.location(), result, "something bad happened asynchronously");
  }
}

// do.async args... { region }: the region runs later, from a task.
void do_async(KernelFrame& frame) {
  if (frame.num_functions() != 1) {
    check_arity(frame, frame.num_arguments(), frame.num_results(), 0, 1);
    return;
  }
  HostContext& host = frame.host();
  async::FunctionCaller* caller = &frame.caller();
  const uint32_t body = frame.function(0);
  const uint32_t n_args = frame.num_arguments();
  const uint32_t n_results = frame.num_results();
  if (caller->num_arguments(body) != n_args || caller->num_results(body) != n_results) {
    frame.report_error("tfrt_test.do.async: the region takes %u values and returns %u",
                       caller->num_arguments(body), caller->num_results(body));
    return;
  }
  AsyncValue** saved = static_cast<AsyncValue**>(host.allocate(sizeof(AsyncValue*) * (size_t{n_args} + n_results + 1)));
  if (saved == nullptr) {
    frame.report_error("out of memory");
    return;
  }
  for (uint32_t i = 0; i < n_args; ++i) {
    saved[i] = frame.argument(i);
    saved[i]->add_ref();
  }
  for (uint32_t i = 0; i < n_results; ++i) {
    saved[n_args + i] = host.make_unavailable();
    saved[n_args + i]->add_ref();
    frame.set_result(i, saved[n_args + i]);
  }
  HostContext* h = &host;
  host.enqueue([h, caller, body, saved, n_args, n_results] {
    AsyncValue* inline_results[16];
    AsyncValue** results = n_results <= 16 ? inline_results
                                           : static_cast<AsyncValue**>(h->allocate(sizeof(AsyncValue*) * n_results));
    if (results != nullptr) {
      caller->call(body, Span<AsyncValue* const>(saved, n_args), Span<AsyncValue*>(results, n_results));
    }
    for (uint32_t i = 0; i < n_results; ++i) {
      AsyncValue* placeholder = saved[n_args + i];
      if (results != nullptr) {
        placeholder->forward_from(results[i]);
        results[i]->drop_ref();
      } else {
        placeholder->set_error("out of memory");
      }
      placeholder->drop_ref();
    }
    for (uint32_t i = 0; i < n_args; ++i) saved[i]->drop_ref();
    if (results != inline_results) h->free(results);
    h->free(saved);
  });
}

// usleep %us and blocking.usleep %us -> !tfrt.chain: TFRT sleeps on its
// blocking-work pool and then prints. With one thread and nothing to
// overlap, the task prints without sleeping; the order of output is the
// same.
void usleep_kernel(KernelFrame& frame) {
  if (frame.num_arguments() != 1) {
    check_arity(frame, 1, frame.num_results());
    return;
  }
  int32_t us;
  if (!read_argument(frame, 0, &us)) return;
  AsyncValue* done = nullptr;
  if (frame.num_results() > 0) {
    done = frame.host().make_unavailable();
    set_all_results(frame, done);
    done->add_ref();
  }
  HostContext* h = &frame.host();
  frame.host().enqueue([h, us, done] {
    h->print("Slept for %" PRId32 " microseconds\n", us);
    if (done != nullptr) {
      done->set_chain();
      done->drop_ref();
    }
  });
}

void native_add(HostContext& host, Span<AsyncValue* const> args, Span<AsyncValue*> results) {
  if (args.size() != 2 || results.size() != 1 || args[0]->kind() != async::ValueKind::I32 ||
      args[1]->kind() != async::ValueKind::I32) {
    for (AsyncValue*& r : results) r = host.make_error("native_add takes two i32 and returns one");
    return;
  }
  results[0] = host.make_i32(static_cast<int32_t>(static_cast<uint32_t>(args[0]->i32()) + static_cast<uint32_t>(args[1]->i32())));
}

void native_async_add(HostContext& host, Span<AsyncValue* const> args, Span<AsyncValue*> results) {
  if (args.size() != 2 || results.size() != 1 || args[0]->kind() != async::ValueKind::I32 ||
      args[1]->kind() != async::ValueKind::I32) {
    for (AsyncValue*& r : results) r = host.make_error("native_async_add takes two i32 and returns one");
    return;
  }
  results[0] = host.make_unavailable();
  set_later(host, results[0], static_cast<int32_t>(static_cast<uint32_t>(args[0]->i32()) + static_cast<uint32_t>(args[1]->i32())));
}

void native_error(HostContext& host, Span<AsyncValue* const>, Span<AsyncValue*> results) {
  for (AsyncValue*& r : results) r = host.make_error("something bad happened");
}

const async::KernelEntry kKernels[] = {
    {"tfrt_test.async_add.i32", &async_add_i32},
    {"tfrt_test.async_constant.i32", &async_constant_i32},
    {"tfrt_test.async_constant.i1", &async_constant_i1},
    {"tfrt_test.async_copy.i32", &async_copy_i32},
    {"tfrt_test.async_copy.with_delay.i32", &async_copy_i32},
    {"tfrt_test.async_copy_2.i32", &async_copy_2_i32},
    {"tfrt_test.as_chain", &as_chain},
    {"tfrt_test.report_error_async", &report_error_async},
    {"tfrt_test.report_error_concrete_async", &report_error_if_nonzero_async},
    {"tfrt_test.report_error_indirect_async", &report_error_if_nonzero_async},
    {"tfrt_test.do.async", &do_async},
    {"tfrt_test.usleep", &usleep_kernel},
    {"tfrt_test.blocking.usleep", &usleep_kernel},
};

const async::NativeFunctionEntry kNativeFunctions[] = {
    {"native_add", &native_add},
    {"native_async_add", &native_async_add},
    {"native_error", &native_error},
};

}  // namespace

void register_async_test_kernels() {
  async::register_kernels(kKernels);
  async::register_native_functions(kNativeFunctions);
}

}  // namespace tri::tfrt_kernels
