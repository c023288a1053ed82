// tfrt.parallel_for.i32 and tfrt.parallel_call.i32 (TFRT's
// parallel_kernels.cc): a body runs on each fixed-size block of
// [start, end) with (block_start, block_end, args...), and the kernel's one
// result is a chain that becomes available when every block's chain is.
// Blocks run one after another here: the host has one thread, and a block's
// asynchronous work still overlaps through the work queue.
#include "cpp/kernels/tfrt/kernel_util.h"

namespace tri::tfrt_kernels {
namespace {

struct Join {
  HostContext* host;
  AsyncValue* done;
  uint32_t pending;
};

void finish_one(Join* join) {
  if (--join->pending != 0) return;
  join->done->set_chain();
  join->done->drop_ref();
  join->host->free(join);
}

void parallel_for(KernelFrame& frame) {
  if (frame.num_functions() != 1 || frame.num_arguments() < 3 || frame.num_results() != 1) {
    frame.report_error("parallel_for.i32 takes start, end, block size and values, returns one chain, and has a body");
    return;
  }
  int32_t start, end, block;
  if (!read_argument(frame, 0, &start) || !read_argument(frame, 1, &end) || !read_argument(frame, 2, &block)) return;
  if (block <= 0) {
    frame.report_error("parallel_for.i32: block size %d is not positive", block);
    return;
  }
  HostContext& host = frame.host();
  const uint32_t body = frame.function(0);
  const uint32_t n_values = frame.num_arguments() - 3;
  if (frame.caller().num_arguments(body) != n_values + 2 || frame.caller().num_results(body) != 1) {
    frame.report_error("parallel_for.i32: the body must take (start, end, %u values) and return one chain", n_values);
    return;
  }
  Join* join = static_cast<Join*>(host.allocate(sizeof(Join)));
  AsyncValue** args = static_cast<AsyncValue**>(host.allocate(sizeof(AsyncValue*) * (size_t{n_values} + 2)));
  if (join == nullptr || args == nullptr) {
    host.free(join);
    host.free(args);
    frame.report_error("out of memory");
    return;
  }
  *join = Join{&host, host.make_unavailable(), 1};
  join->done->add_ref();
  frame.set_result(0, join->done);
  for (uint32_t i = 0; i < n_values; ++i) args[2 + i] = frame.argument(3 + i);
  for (int64_t s = start; s < end; s += block) {
    if (!host.charge()) break;
    const int64_t e = s + block < end ? s + block : end;
    args[0] = host.make_i32(static_cast<int32_t>(s));
    args[1] = host.make_i32(static_cast<int32_t>(e));
    AsyncValue* chain = nullptr;
    frame.caller().call(body, Span<AsyncValue* const>(args, n_values + 2), Span<AsyncValue*>(&chain, 1));
    args[0]->drop_ref();
    args[1]->drop_ref();
    ++join->pending;
    chain->and_then([join, chain] {
      chain->drop_ref();
      finish_one(join);
    });
  }
  host.free(args);
  finish_one(join);
}

}  // namespace

void register_parallel_kernels() {
  static const async::KernelEntry kKernels[] = {
      {"tfrt.parallel_for.i32", &parallel_for},
      {"tfrt.parallel_call.i32", &parallel_for},
  };
  async::register_kernels(kKernels);
}

}  // namespace tri::tfrt_kernels
