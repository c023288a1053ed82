#include "cpp/formats/bef/executor/bef_executor.h"

#include <cstring>

namespace tri::bef {

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "kernel records are read in place as little-endian words"
#endif

using async::AsyncValue;
using async::HostContext;

namespace {

// After TFRT: continuations that nest deeper than this are queued as tasks,
// so long chains of callbacks cannot overflow the stack.
constexpr int kMaxStackDepth = 100;
int g_stack_depth = 0;

struct StackGuard {
  StackGuard() { ++g_stack_depth; }
  ~StackGuard() { --g_stack_depth; }
  static bool must_enqueue() { return g_stack_depth >= kMaxStackDepth; }
};

// Up to this many arguments and results live on the C stack per kernel call.
constexpr uint32_t kInlineValues = 16;

struct Register {
  AsyncValue* value = nullptr;    // one reference while kernel uses remain
  AsyncValue* indirect = nullptr; // the caller's result placeholder, if any
  uint32_t remaining_uses = 0;    // kernel-argument uses not yet taken
};

// Kernels ready to run: an inline LIFO stack for the current stream and a
// list of kernels of other streams, both bounded by the kernel count.
struct ReadyQueue {
  uint32_t stream = 0;
  uint32_t* inline_ids = nullptr;
  uint32_t num_inline = 0;
  uint32_t* outline_ids = nullptr;
  uint32_t num_outline = 0;
};

class FunctionRun {
 public:
  static void start(BefRunner& runner, uint32_t function, Span<AsyncValue* const> arguments,
                    Span<AsyncValue*> results);

 private:
  FunctionRun(BefRunner& runner, const FunctionEntry& entry)
      : runner_(runner), host_(runner.host()), body_(entry.body) {}

  bool allocate_state();
  bool make_queue(ReadyQueue* queue, uint32_t stream);
  void free_queue(ReadyQueue* queue);
  void process_pseudo_kernel(Span<AsyncValue* const> arguments, ReadyQueue& queue);
  void process_ready_kernels(ReadyQueue& queue);
  void process_kernel(uint32_t k, ReadyQueue& queue);
  void publish(uint32_t kernel, uint32_t result_index, AsyncValue* value, ReadyQueue& queue);
  void set_register(uint32_t r, AsyncValue* value);
  void decrement_users(const KernelRecord& record, uint32_t result_index, ReadyQueue& queue);
  void switch_stream(ReadyQueue& queue);
  void enqueue_outline(ReadyQueue& queue);
  void take_register_use(uint32_t r);

  void add_ref() { ++refs_; }
  void drop_ref();

  BefRunner& runner_;
  HostContext& host_;
  const FunctionBody& body_;
  uint32_t refs_ = 1;
  Register* registers_ = nullptr;
  uint32_t* ready_counts_ = nullptr;
};

bool FunctionRun::allocate_state() {
  const uint32_t num_registers = body_.num_registers;
  const uint32_t num_kernels = static_cast<uint32_t>(body_.kernels.size());
  registers_ = static_cast<Register*>(host_.allocate(sizeof(Register) * (size_t{num_registers} + 1)));
  ready_counts_ = static_cast<uint32_t*>(host_.allocate(4 * (size_t{num_kernels} + 1)));
  if (registers_ == nullptr || ready_counts_ == nullptr) return false;
  for (uint32_t r = 0; r < num_registers; ++r) {
    registers_[r] = Register{};
    registers_[r].remaining_uses = body_.register_use_counts[r];
  }
  // Uses by the function's return are not kernel-argument uses.
  for (uint32_t r : body_.result_registers) --registers_[r].remaining_uses;
  for (uint32_t k = 0; k < num_kernels; ++k) {
    const uint32_t operands = body_.kernels[k].num_operands;
    ready_counts_[k] = operands == 0 ? 1 : operands;
  }
  return true;
}

bool FunctionRun::make_queue(ReadyQueue* queue, uint32_t stream) {
  const size_t n = body_.kernels.size();
  queue->stream = stream;
  queue->inline_ids = static_cast<uint32_t*>(host_.allocate(4 * n));
  queue->outline_ids = static_cast<uint32_t*>(host_.allocate(4 * n));
  queue->num_inline = queue->num_outline = 0;
  if (queue->inline_ids == nullptr || queue->outline_ids == nullptr) {
    free_queue(queue);
    return false;
  }
  return true;
}

void FunctionRun::free_queue(ReadyQueue* queue) {
  host_.free(queue->inline_ids);
  host_.free(queue->outline_ids);
  queue->inline_ids = queue->outline_ids = nullptr;
}

void FunctionRun::drop_ref() {
  if (--refs_ != 0) return;
  const uint32_t num_registers = body_.num_registers;
  for (uint32_t r = 0; r < num_registers; ++r) {
    Register& reg = registers_[r];
    if (reg.indirect != nullptr) {
      // Only a failed run (out of memory) ends with a result never produced;
      // the caller must not wait forever on it.
      reg.indirect->set_error("BEF function ended without producing this result");
      reg.indirect->drop_ref();
    }
    if (reg.value != nullptr && reg.remaining_uses > 0) reg.value->drop_ref();
  }
  host_.free(registers_);
  host_.free(ready_counts_);
  HostContext& host = host_;
  this->~FunctionRun();
  host.free(this);
}

void FunctionRun::take_register_use(uint32_t r) {
  Register& reg = registers_[r];
  if (reg.remaining_uses > 0 && --reg.remaining_uses == 0 && reg.value != nullptr) {
    // (A register still empty here means a hostile file triggered the
    // kernel early; set_register drops the value when it arrives.)
    reg.value->drop_ref();
    reg.value = nullptr;
  }
}

// Publishes `value` (one reference, owned) in register r. The register keeps
// it while kernel uses remain; a caller waiting on r as a result gets it
// forwarded.
void FunctionRun::set_register(uint32_t r, AsyncValue* value) {
  Register& reg = registers_[r];
  if (reg.indirect != nullptr) {
    reg.indirect->forward_from(value);
    reg.indirect->drop_ref();
    reg.indirect = nullptr;
  }
  if (reg.remaining_uses > 0) {
    reg.value = value;
  } else {
    value->drop_ref();
  }
}

void FunctionRun::decrement_users(const KernelRecord& record, uint32_t result_index,
                                  ReadyQueue& queue) {
  const uint32_t n = record.num_used_by(result_index);
  for (uint32_t u = 0; u < n; ++u) {
    const uint32_t user = record.used_by(result_index, u);
    if (--ready_counts_[user] != 0) continue;
    if (body_.kernels[user].stream_id == queue.stream) {
      queue.inline_ids[queue.num_inline++] = user;
    } else {
      queue.outline_ids[queue.num_outline++] = user;
    }
  }
}

void FunctionRun::publish(uint32_t kernel, uint32_t result_index, AsyncValue* value,
                          ReadyQueue& queue) {
  const KernelRecord record = body_.kernel(kernel);
  const uint32_t r = record.result(result_index);
  if (body_.register_use_counts[r] == 0) {
    value->drop_ref();
    return;
  }
  if (value->available() || record.num_used_by(result_index) == 0) {
    set_register(r, value);
    decrement_users(record, result_index, queue);
    return;
  }
  // The users run when the value becomes available, in a queue of their own
  // started from the callback (or from a task, when the stack is deep).
  add_ref();
  const uint32_t stream = queue.stream;
  value->and_then([this, kernel, result_index, value, stream] {
    StackGuard guard;
    auto continuation = [this, kernel, result_index, value, stream] {
      ReadyQueue queue;
      if (!make_queue(&queue, stream)) {
        value->drop_ref();
        drop_ref();
        return;
      }
      const KernelRecord record = body_.kernel(kernel);
      set_register(record.result(result_index), value);
      decrement_users(record, result_index, queue);
      process_ready_kernels(queue);
      free_queue(&queue);
      drop_ref();
    };
    if (StackGuard::must_enqueue()) {
      host_.enqueue(continuation);
    } else {
      continuation();
    }
  });
}

void FunctionRun::process_pseudo_kernel(Span<AsyncValue* const> arguments, ReadyQueue& queue) {
  const KernelRecord record = body_.kernel(0);
  decrement_users(record, 0, queue);  // the zero-operand kernels
  for (uint32_t i = 0; i < arguments.size(); ++i) {
    const uint32_t r = record.result(i + 1);
    if (body_.register_use_counts[r] == 0) continue;
    arguments[i]->add_ref();
    publish(0, i + 1, arguments[i], queue);
  }
}

void FunctionRun::switch_stream(ReadyQueue& queue) {
  if (queue.num_inline != 0 || queue.num_outline == 0) return;
  queue.stream = body_.kernels[queue.outline_ids[0]].stream_id;
  // Keep the other streams' kernels in order; move this stream's to inline.
  uint32_t kept = 0;
  for (uint32_t i = 0; i < queue.num_outline; ++i) {
    const uint32_t id = queue.outline_ids[i];
    if (body_.kernels[id].stream_id == queue.stream) {
      queue.inline_ids[queue.num_inline++] = id;
    } else {
      queue.outline_ids[kept++] = id;
    }
  }
  queue.num_outline = kept;
}

// Posts the outline kernels as one task per stream, in stream order.
void FunctionRun::enqueue_outline(ReadyQueue& queue) {
  while (queue.num_outline > 0) {
    uint32_t stream = body_.kernels[queue.outline_ids[0]].stream_id;
    for (uint32_t i = 1; i < queue.num_outline; ++i) {
      const uint32_t s = body_.kernels[queue.outline_ids[i]].stream_id;
      if (s < stream) stream = s;
    }
    ReadyQueue* task_queue = static_cast<ReadyQueue*>(host_.allocate(sizeof(ReadyQueue)));
    if (task_queue == nullptr || !make_queue(task_queue, stream)) {
      host_.free(task_queue);
      return;  // out of memory: those kernels never run; the run reports it
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < queue.num_outline; ++i) {
      const uint32_t id = queue.outline_ids[i];
      if (body_.kernels[id].stream_id == stream) {
        task_queue->inline_ids[task_queue->num_inline++] = id;
      } else {
        queue.outline_ids[kept++] = id;
      }
    }
    queue.num_outline = kept;
    add_ref();
    host_.enqueue([this, task_queue] {
      process_ready_kernels(*task_queue);
      free_queue(task_queue);
      host_.free(task_queue);
      drop_ref();
    });
  }
}

void FunctionRun::process_ready_kernels(ReadyQueue& queue) {
  switch_stream(queue);
  enqueue_outline(queue);
  while (queue.num_inline > 0) {
    const uint32_t k = queue.inline_ids[--queue.num_inline];
    process_kernel(k, queue);
    switch_stream(queue);
    enqueue_outline(queue);
  }
}

void FunctionRun::process_kernel(uint32_t k, ReadyQueue& queue) {
  const KernelRecord record = body_.kernel(k);
  const uint32_t num_args = record.num_arguments();
  const uint32_t num_results = record.num_results();
  AsyncValue* inline_values[2 * kInlineValues];
  AsyncValue** values = inline_values;
  if (num_args > kInlineValues || num_results > kInlineValues) {
    values = static_cast<AsyncValue**>(host_.allocate(sizeof(AsyncValue*) * (size_t{num_args} + num_results)));
    if (values == nullptr) return;  // out of memory; reported by the run
  }
  AsyncValue** args = values;
  AsyncValue** results = values + num_args;

  AsyncValue* error = nullptr;
  bool args_error_owned = false;
  for (uint32_t i = 0; i < num_args; ++i) {
    const uint32_t r = record.argument(i);
    AsyncValue* value = registers_[r].value;
    if (value == nullptr || !value->available()) {
      // Cannot happen in a file whose counts were validated; stay safe.
      value = host_.make_error_format("BEF kernel %u read register %u before it was ready", k, r);
    } else {
      value->add_ref();
    }
    take_register_use(r);
    args[i] = value;
    if (value->is_error() && error == nullptr) error = value;
  }
  for (uint32_t i = 0; i < num_results; ++i) results[i] = nullptr;

  const auto* words = reinterpret_cast<const uint32_t*>(body_.kernel_list + body_.kernels[k].offset);
  const uint32_t* attribute_offsets = words + kKernelHeaderWords + num_results + num_args;
  const uint32_t* functions = attribute_offsets + record.num_attributes();
  const SourceLocation location = runner_.program().location(record.location());
  if (error == nullptr && !host_.charge()) {
    error = host_.make_error_format("the run exceeded its budget of %llu kernel executions",
                                    static_cast<unsigned long long>(host_.kernel_budget()));
    args_error_owned = true;
  }
  if (error == nullptr) {
    async::KernelFrame frame(host_, runner_, runner_.program().attributes(), location);
    frame.reset(Span<AsyncValue* const>(args, num_args),
                Span<const uint32_t>(attribute_offsets, record.num_attributes()),
                Span<const uint32_t>(functions, record.num_functions()),
                Span<AsyncValue*>(results, num_results), location);
    runner_.program().kernel(record.code())(frame);
    for (uint32_t i = 0; i < num_results; ++i) {
      if (results[i] == nullptr) {
        results[i] = host_.make_error_format("kernel '%s' did not set result %u",
                                             runner_.program().file().kernel_name(record.code()), i);
      }
    }
  } else {
    for (uint32_t i = 0; i < num_results; ++i) {
      error->add_ref();
      results[i] = error;
    }
  }
  if (args_error_owned) error->drop_ref();
  for (uint32_t i = 0; i < num_args; ++i) args[i]->drop_ref();
  for (uint32_t i = 0; i < num_results; ++i) publish(k, i, results[i], queue);
  if (values != inline_values) host_.free(values);
}

void FunctionRun::start(BefRunner& runner, uint32_t function, Span<AsyncValue* const> arguments,
                        Span<AsyncValue*> results) {
  HostContext& host = runner.host();
  const FunctionEntry& entry = runner.program().file().function(function);
  void* memory = host.allocate(sizeof(FunctionRun));
  FunctionRun* run = memory == nullptr ? nullptr : new (memory) FunctionRun(runner, entry);
  if (run == nullptr || !run->allocate_state()) {
    for (AsyncValue*& result : results) {
      result = host.make_error("out of memory: the BEF executor's heap is exhausted");
    }
    if (run != nullptr) {
      host.free(run->registers_);
      host.free(run->ready_counts_);
      run->~FunctionRun();
      host.free(run);
    }
    return;
  }
  // Results are placeholders that the registers forward into when set.
  for (uint32_t i = 0; i < results.size(); ++i) {
    Register& reg = run->registers_[entry.body.result_registers[i]];
    if (reg.indirect == nullptr) reg.indirect = host.make_unavailable();
    reg.indirect->add_ref();
    results[i] = reg.indirect;
  }
  ReadyQueue queue;
  if (run->make_queue(&queue, entry.body.kernels[0].stream_id)) {
    run->process_pseudo_kernel(arguments, queue);
    run->process_ready_kernels(queue);
    run->free_queue(&queue);
  }
  run->drop_ref();
}

// A sync function (kind 2, `tfrt.sync`), as TFRT's BEFInterpreter runs it:
// no pseudo kernel and no scheduling, just the kernels in kernel-table order
// (block order) over plain values. Every kernel must complete before it
// returns; the first failure ends the function and is its every result.
void run_sync(BefRunner& runner, const FunctionEntry& entry, Span<AsyncValue* const> arguments,
              Span<AsyncValue*> results) {
  HostContext& host = runner.host();
  const FunctionBody& body = entry.body;
  AsyncValue** registers =
      static_cast<AsyncValue**>(host.allocate(sizeof(AsyncValue*) * (size_t{body.num_registers} + 1)));
  AsyncValue* failure = nullptr;
  if (registers == nullptr) {
    failure = host.make_error("out of memory: the BEF executor's heap is exhausted");
  } else {
    for (uint32_t r = 0; r < body.num_registers; ++r) registers[r] = nullptr;
    const KernelRecord pseudo = body.kernel(0);
    for (uint32_t i = 0; i < arguments.size(); ++i) {
      arguments[i]->add_ref();
      registers[pseudo.result(i + 1)] = arguments[i];
    }
  }
  for (uint32_t k = 1; failure == nullptr && k < body.kernels.size(); ++k) {
    const KernelRecord record = body.kernel(k);
    const uint32_t num_args = record.num_arguments();
    const uint32_t num_results = record.num_results();
    AsyncValue* values[2 * kInlineValues];
    if (num_args > kInlineValues || num_results > kInlineValues) {
      failure = host.make_error_format("sync kernel %u takes more than %u values", k, kInlineValues);
      break;
    }
    AsyncValue** args = values;
    AsyncValue** outs = values + num_args;
    for (uint32_t i = 0; i < num_args; ++i) {
      args[i] = registers[record.argument(i)];
      if (args[i] == nullptr || !args[i]->available()) {
        failure = host.make_error_format("sync kernel %u reads register %u before it is set", k,
                                         record.argument(i));
        break;
      }
      if (args[i]->is_error()) {
        args[i]->add_ref();
        failure = args[i];
        break;
      }
    }
    if (failure != nullptr) break;
    if (!host.charge()) {
      failure = host.make_error_format("the run exceeded its budget of %llu kernel executions",
                                       static_cast<unsigned long long>(host.kernel_budget()));
      break;
    }
    for (uint32_t i = 0; i < num_results; ++i) outs[i] = nullptr;
    const auto* words = reinterpret_cast<const uint32_t*>(body.kernel_list + body.kernels[k].offset);
    const uint32_t* attribute_offsets = words + kKernelHeaderWords + num_results + num_args;
    const SourceLocation location = runner.program().location(record.location());
    async::KernelFrame frame(host, runner, runner.program().attributes(), location);
    frame.reset(Span<AsyncValue* const>(args, num_args),
                Span<const uint32_t>(attribute_offsets, record.num_attributes()),
                Span<const uint32_t>(attribute_offsets + record.num_attributes(), record.num_functions()),
                Span<AsyncValue*>(outs, num_results), location);
    runner.program().kernel(record.code())(frame);
    for (uint32_t i = 0; i < num_results; ++i) {
      if (outs[i] == nullptr) {
        outs[i] = host.make_error_format("kernel '%s' did not set result %u",
                                         runner.program().file().kernel_name(record.code()), i);
      } else if (!outs[i]->available()) {
        outs[i]->drop_ref();
        outs[i] = host.make_error_format("kernel '%s' is asynchronous; a sync function cannot wait for it",
                                         runner.program().file().kernel_name(record.code()));
      }
      if (outs[i]->is_error() && failure == nullptr) {
        outs[i]->add_ref();
        failure = outs[i];
      }
      AsyncValue*& slot = registers[record.result(i)];
      if (slot != nullptr) slot->drop_ref();
      slot = outs[i];
    }
  }
  for (uint32_t i = 0; i < results.size(); ++i) {
    AsyncValue* value = failure != nullptr ? failure : registers[body.result_registers[i]];
    if (value == nullptr) value = failure = host.make_error("sync function result was never set");
    value->add_ref();
    results[i] = value;
  }
  if (registers != nullptr) {
    for (uint32_t r = 0; r < body.num_registers; ++r) {
      if (registers[r] != nullptr) registers[r]->drop_ref();
    }
    host.free(registers);
  }
  if (failure != nullptr) failure->drop_ref();
}

}  // namespace

BefRunner::~BefRunner() {
  while (once_ != nullptr) {
    OnceEntry* next = once_->next;
    for (AsyncValue* value : once_->results) value->drop_ref();
    host_.free(const_cast<AsyncValue**>(once_->results.data()));
    host_.free(once_);
    once_ = next;
  }
}

uint32_t BefRunner::num_arguments(uint32_t function) const {
  return static_cast<uint32_t>(program_.file().function(function).argument_types.size());
}

uint32_t BefRunner::num_results(uint32_t function) const {
  return static_cast<uint32_t>(program_.file().function(function).result_types.size());
}

void BefRunner::call(uint32_t function, Span<AsyncValue* const> arguments,
                     Span<AsyncValue*> results) {
  const FunctionEntry& entry = program_.file().function(function);
  if (arguments.size() != entry.argument_types.size() || results.size() != entry.result_types.size()) {
    for (AsyncValue*& result : results) {
      result = host_.make_error_format("function %u takes %zu arguments and returns %zu results",
                                       function, entry.argument_types.size(),
                                       entry.result_types.size());
    }
    return;
  }
  switch (entry.kind) {
    case FunctionKind::Async:
      FunctionRun::start(*this, function, arguments, results);
      return;
    case FunctionKind::Native: {
      for (AsyncValue*& result : results) result = nullptr;
      program_.native_function(function)(host_, arguments, results);
      for (AsyncValue*& result : results) {
        if (result == nullptr) result = host_.make_error("native function did not set a result");
      }
      return;
    }
    case FunctionKind::Sync:
      run_sync(*this, entry, arguments, results);
      return;
  }
}

Span<AsyncValue* const> BefRunner::once_results(uint32_t function) {
  for (OnceEntry* e = once_; e != nullptr; e = e->next) {
    if (e->function == function) return e->results;
  }
  return {};
}

void BefRunner::set_once_results(uint32_t function, Span<AsyncValue* const> results) {
  OnceEntry* entry = static_cast<OnceEntry*>(host_.allocate(sizeof(OnceEntry)));
  AsyncValue** copy = static_cast<AsyncValue**>(host_.allocate(sizeof(AsyncValue*) * (results.size() + 1)));
  if (entry == nullptr || copy == nullptr) {
    host_.free(entry);
    host_.free(copy);
    return;
  }
  for (size_t i = 0; i < results.size(); ++i) {
    results[i]->add_ref();
    copy[i] = results[i];
  }
  *entry = OnceEntry{function, Span<AsyncValue* const>(copy, results.size()), once_};
  once_ = entry;
}

}  // namespace tri::bef
