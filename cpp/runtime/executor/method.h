// A loaded method: the value table, the resolved instructions and the
// interpreter loop. Every format front end builds one of these (the .pte
// front end maps the file's ExecutionPlan; the .pt2 front end lowers a graph),
// so there is one interpreter core.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/executor/instruction.h"

namespace tri {

// Per-shape planning: a tensor the front end gave no memory, placed by the
// method's TensorBinder while the run goes. It is bound before instruction
// `first` (a static shape) or when that instruction's kernel sizes it (a
// dynamic one), and released after instruction `last`; kLiveToEnd keeps it
// until the next run starts (an output). The method builder works these out
// from the instructions as they run (method_builder.cpp), so that a view's
// base lives as long as the view.
struct LazyTensor {
  static constexpr uint32_t kLiveToEnd = UINT32_MAX;
  Tensor* tensor = nullptr;
  uint32_t first = 0;
  uint32_t last = 0;
  // A view: its kernel points it at its base's bytes, so it is never bound
  // or released through the binder, only let through unplaced at `first`
  // and unpointed after `last`.
  bool view = false;
};

// Everything a front end hands to a Method. All arrays live in the method
// allocator (or the loaded file) and outlive the Method.
struct MethodPlan {
  const char* name = "";
  Span<EValue> values;
  Span<Instruction> instructions;
  Span<const int32_t> inputs;
  Span<const int32_t> outputs;
  Span<ResolvedOperator> operators;
  Span<DelegateInstance> delegates;
  // Per-shape planning (empty without): the lazy tensors by `first`, the
  // same by `last` (indices into `lazy`), and the binder that places them.
  Span<LazyTensor> lazy;
  Span<const uint32_t> lazy_by_last;
  TensorBinder* binder = nullptr;
};

// Where a run's time went, per instruction (profiling): wall time from the
// platform clock around each instruction, summed over the runs that asked.
struct InstructionTiming {
  uint64_t nanoseconds = 0;
  uint64_t calls = 0;
  // A delegate call: num_nodes slots (delegate_num_nodes()) the caller
  // provides, to which the backend adds each of its nodes' time, where it
  // times them (XNNPACK does). Null: the call is timed whole only.
  uint64_t* node_nanoseconds = nullptr;
  size_t num_nodes = 0;
};

struct ExecuteOptions {
  // Bounds the instructions one execute() may run, so a program whose jumps
  // loop forever fails instead of hanging the page.
  uint64_t max_instructions = 100000000;
  // Empty: no profiling (the run loop reads no clock). Otherwise one entry
  // per instruction (num_instructions()), added to by this run.
  Span<InstructionTiming> timings;
  // Cooperative slicing, so that a caller on a single thread (a web page)
  // can cancel a run or stay responsive: nonzero ends the call after the
  // first instruction that finishes this many nanoseconds after the call
  // began, with the run suspended between two instructions (*finished
  // false); resume() goes on from there. 0 runs to the end.
  uint64_t slice_ns = 0;
};

class Method {
 public:
  Method() = default;
  Method(const MethodPlan& plan, MemoryAllocator* temp)
      : plan_(plan), temp_(temp) {}

  const char* name() const { return plan_.name; }
  size_t num_inputs() const { return plan_.inputs.size(); }
  size_t num_outputs() const { return plan_.outputs.size(); }
  size_t num_instructions() const { return plan_.instructions.size(); }

  // The method's delegate instances (backend and handle), for inspection.
  Span<const DelegateInstance> delegates() const {
    return {plan_.delegates.data(), plan_.delegates.size()};
  }

  const EValue& input(size_t index) const;
  const EValue& output(size_t index) const;

  // What instruction `pc` runs, for profiles: the operator's name
  // ("aten::add.out"), the delegate's backend id, or "move", "jump_false",
  // "free".
  const char* instruction_name(size_t pc) const;
  // The file's instructions pc runs (Instruction::source); {0, 0} past the end.
  struct SourceRange {
    uint32_t first = 0;
    uint32_t count = 0;
  };
  SourceRange instruction_source(size_t pc) const;
  // The nodes of the delegate instruction pc calls (Backend::num_nodes);
  // 0 for other instructions and backends that do not describe theirs.
  size_t delegate_num_nodes(size_t pc) const;

  // Resizes tensor input `index` to `sizes` (checked against its dynamism and
  // bound) and returns it; the caller writes the data at mutable_data(), or,
  // when that is null (an input the plan gave no memory), binds memory with
  // set_data() first.
  Result<Tensor*> prepare_input_tensor(size_t index,
                                       Span<const SizesType> sizes);

  // Sets a non-tensor input; its kind must match the program's.
  Error set_input_scalar(size_t index, const EValue& value);

  // Starts a run. With options.slice_ns it may return with the run
  // suspended: *finished (when given) says whether it ran to the end. A
  // failed run is over, as is one that finished.
  Error execute(const ExecuteOptions& options = ExecuteOptions(), bool* finished = nullptr);
  // Goes on with a suspended run, for another slice (options.slice_ns) or to
  // the end; options.max_instructions counts from the run's start. The
  // inputs must not have changed since execute().
  Error resume(const ExecuteOptions& options, bool* finished = nullptr);
  // Drops a suspended run: the outputs are undefined until the next run.
  void abandon() { cursor_ = RunCursor(); }
  bool suspended() const { return cursor_.active; }

  // Releases delegate handles. The memory itself belongs to the caller.
  void destroy();

  // Whether this method places its tensors at each run's shapes.
  bool plans_per_shape() const { return plan_.binder != nullptr; }

 private:
  Error check_input_index(size_t index) const;
  // timing: this instruction's slot when profiling (delegates time their nodes into it).
  Error run_instruction(size_t pc, size_t* next_pc, InstructionTiming* timing = nullptr);
  // Per-shape planning around instruction pc: the lazy tensors it writes
  // first, [*begin, *end) of plan_.lazy, bound where their shape is static;
  // afterwards they must hold memory, and those it used last go back.
  // `next` and `released` are cursors into plan_.lazy and lazy_by_last.
  Error bind_lazy(size_t pc, size_t* next);
  Error finish_lazy(size_t pc, size_t* released);
  // The lazy tensors the current instruction writes first: a kernel may get
  // them without memory, and sizes them.
  Span<const LazyTensor> pending() const {
    return {plan_.lazy.data() + pending_begin_, pending_end_ - pending_begin_};
  }

  // Where a run stands between two instructions: the next one to run, how
  // many ran, and the per-shape planning cursors.
  struct RunCursor {
    bool active = false;
    size_t pc = 0;
    uint64_t executed = 0;
    size_t next_lazy = 0;
    size_t released = 0;
  };
  // Runs from cursor_ until the end, an error, or the slice's end.
  Error run_from_cursor(const ExecuteOptions& options, bool* finished);

  MethodPlan plan_;
  MemoryAllocator* temp_ = nullptr;
  RunCursor cursor_;
  size_t pending_begin_ = 0;
  size_t pending_end_ = 0;
};

}  // namespace tri
