#include "cpp/runtime/executor/method.h"

#include <cinttypes>

#include "cpp/runtime/executor/lazy_plan.h"
#include "cpp/runtime/platform/platform.h"

namespace tri {

const EValue& Method::input(size_t index) const {
  return plan_.values[static_cast<size_t>(plan_.inputs[index])];
}

const EValue& Method::output(size_t index) const {
  return plan_.values[static_cast<size_t>(plan_.outputs[index])];
}

Error Method::check_input_index(size_t index) const {
  TRI_CHECK(index < plan_.inputs.size(), Error::InvalidArgument,
            "method '%s' has %zu inputs; input %zu does not exist", plan_.name,
            plan_.inputs.size(), index);
  return Error::Ok;
}

Result<Tensor*> Method::prepare_input_tensor(size_t index,
                                             Span<const SizesType> sizes) {
  TRI_TRY(check_input_index(index));
  const EValue& slot = input(index);
  TRI_CHECK(slot.is_tensor(), Error::InvalidType,
            "input %zu of method '%s' is %s, not a Tensor", index, plan_.name,
            tag_name(slot.tag));
  Tensor* tensor = slot.payload.as_tensor;
  TRI_TRY_CONTEXT(tensor->resize(sizes), "input %zu of method '%s'", index,
                  plan_.name);
  return tensor;
}

Error Method::set_input_scalar(size_t index, const EValue& value) {
  TRI_TRY(check_input_index(index));
  EValue& slot = plan_.values[static_cast<size_t>(plan_.inputs[index])];
  TRI_CHECK(slot.tag == value.tag, Error::InvalidType,
            "input %zu of method '%s' is %s, got %s", index, plan_.name,
            tag_name(slot.tag), tag_name(value.tag));
  TRI_CHECK(value.is_scalar(), Error::InvalidType,
            "input %zu of method '%s': only Int, Double and Bool inputs are "
            "set by value", index, plan_.name);
  slot = value;
  return Error::Ok;
}

namespace {

// A tensor with elements but no memory (neither planned nor an input, or
// released by a FreeCall) would make any kernel write through a null
// pointer; hostile programs can declare such values, so they are refused.
// Per-shape planning leaves the tensors an instruction writes first
// (`pending`) to be placed when its kernel sizes them, and a view for the
// kernel that returns it to point (KernelEntry::returns_view). An empty
// tensor with no memory passes only if a kernel cannot grow it into writing
// through the null pointer (a fuzzed bundled program did): its shape is
// static, or its binder places it when it is sized.
Error check_has_memory(const Tensor* t, size_t arg, Span<const LazyTensor> pending,
                       bool returns_view) {
  if (t == nullptr || t->data() != nullptr) return Error::Ok;
  if (t->nbytes() == 0 && (t->dynamism() == ShapeDynamism::Static || t->binder() != nullptr)) {
    return Error::Ok;
  }
  for (const LazyTensor& lazy : pending) {
    if (lazy.tensor == t && (!lazy.view || returns_view)) return Error::Ok;
  }
  return fail(Error::InvalidProgram,
              "argument %zu: tensor has no memory (not memory-planned, not an "
              "input, or freed)",
              arg);
}

Error check_args_have_memory(const Instruction& instr, Span<const LazyTensor> pending,
                             bool returns_view) {
  for (uint32_t i = 0; i < instr.num_args; ++i) {
    const EValue& v = *instr.args[i];
    if (v.is_tensor()) {
      TRI_TRY(check_has_memory(v.payload.as_tensor, i, pending, returns_view));
    } else if (v.tag == Tag::TensorList || v.tag == Tag::OptionalTensorList) {
      const BoxedTensorList& list = v.payload.as_tensor_list;
      for (size_t k = 0; k < list.size; ++k) {
        if (list.items[k]->is_tensor()) {
          TRI_TRY(check_has_memory(list.items[k]->payload.as_tensor, i, pending, returns_view));
        }
      }
    }
  }
  return Error::Ok;
}

}  // namespace

Error Method::run_instruction(size_t pc, size_t* next_pc, InstructionTiming* timing) {
  const Instruction& instr = plan_.instructions[pc];
  *next_pc = pc + 1;
  switch (instr.kind) {
    case InstructionKind::KernelCall: {
      const ResolvedOperator& op = plan_.operators[instr.target];
      KernelContext context;
      context.temp = temp_;
      context.user_data = op.kernel.user_data;
      KernelArgs args(instr.args, instr.num_args);
      if (plan_.binder != nullptr && op.kernel.scratch != nullptr) {
        // Planned per shape: the scratch this call needs at this run's
        // shapes (outs not sized yet keep their last sizes).
        TRI_CHECK(temp_ != nullptr, Error::InvalidState,
                  "instruction %zu (%s): a method planned per shape needs a scratch allocator", pc,
                  op.name);
        const size_t need = op.kernel.scratch(args);
        if (need > temp_->capacity()) {
          TRI_TRY_CONTEXT(plan_.binder->reserve_scratch(need, *temp_), "instruction %zu (%s)", pc,
                          op.name);
        }
      }
      if (temp_ != nullptr) {
        temp_->reset();
      }
      TRI_TRY_CONTEXT(check_args_have_memory(instr, pending(), op.kernel.returns_view),
                      "instruction %zu (%s)", pc, op.name);
      TRI_TRY_CONTEXT(op.kernel.fn(context, args), "instruction %zu (%s)", pc,
                      op.name);
      return Error::Ok;
    }
    case InstructionKind::DelegateCall: {
      const DelegateInstance& d = plan_.delegates[instr.target];
      KernelContext context;
      context.temp = temp_;
      if (timing != nullptr) {
        context.node_nanoseconds = timing->node_nanoseconds;
        context.num_node_timings = timing->node_nanoseconds != nullptr ? timing->num_nodes : 0;
      }
      if (temp_ != nullptr) {
        temp_->reset();
      }
      TRI_TRY_CONTEXT(check_args_have_memory(instr, pending(), false), "instruction %zu (delegate %" PRIu32
                      ", %s)", pc, instr.target, d.backend_id);
      TRI_TRY_CONTEXT(
          d.backend->execute(d.handle, context,
                             Span<EValue*>(instr.args, instr.num_args)),
          "instruction %zu (delegate %" PRIu32 ", %s)", pc, instr.target,
          d.backend_id);
      return Error::Ok;
    }
    case InstructionKind::Move:
      plan_.values[static_cast<size_t>(instr.b)] =
          plan_.values[static_cast<size_t>(instr.a)];
      return Error::Ok;
    case InstructionKind::JumpFalse: {
      const EValue& cond = plan_.values[static_cast<size_t>(instr.a)];
      bool value = false;
      if (cond.is_bool()) {
        value = cond.to_bool();
      } else if (cond.is_tensor() &&
                 cond.to_tensor().scalar_type() == ScalarType::Bool &&
                 cond.to_tensor().numel() == 1 &&
                 cond.to_tensor().data() != nullptr) {
        value = *cond.to_tensor().data_ptr<const bool>();
      } else {
        return fail(Error::InvalidType,
                    "instruction %zu (JumpFalse): condition value %" PRId32
                    " is %s, expected Bool",
                    pc, instr.a, tag_name(cond.tag));
      }
      if (!value) {
        *next_pc = static_cast<size_t>(instr.b);
      }
      return Error::Ok;
    }
    case InstructionKind::Free: {
      // Only tensors the runtime gave no planned memory are freed; clearing
      // the pointer makes a later use fail loudly rather than read stale data.
      EValue& v = plan_.values[static_cast<size_t>(instr.a)];
      if (v.is_tensor()) {
        v.to_tensor().set_data(nullptr, 0);
      }
      return Error::Ok;
    }
  }
  return fail(Error::Internal, "instruction %zu has an unknown kind", pc);
}

Error Method::bind_lazy(size_t pc, size_t* next) {
  pending_begin_ = *next;
  const Instruction& instr = plan_.instructions[pc];
  const bool separate_outs = instr.kind == InstructionKind::KernelCall && returns_separate_outs(instr);
  while (*next < plan_.lazy.size() && plan_.lazy[*next].first == pc) {
    Tensor& t = *plan_.lazy[*next].tensor;
    const bool view = plan_.lazy[*next].view;
    if (!view && t.dynamism() == ShapeDynamism::Static) {
      // A static shape is known before the kernel runs; binding it here
      // does not rely on the kernel sizing its out.
      if (t.nbytes() > 0) TRI_TRY(plan_.binder->bind(t, t.nbytes()));
    } else if (!view && separate_outs) {
      // Emptied, with memory: the kernel sizes it if it is one of its outs,
      // and reads no element if the call passed it where an input goes
      // (plan_lazy_tensors refuses lazy tensors named anywhere else).
      const SizesType empty[kTensorDimLimit] = {};
      TRI_TRY(t.resize(Span<const SizesType>(empty, static_cast<size_t>(t.dim()))));
    }
    ++*next;
  }
  pending_end_ = *next;
  return Error::Ok;
}

Error Method::finish_lazy(size_t pc, size_t* released) {
  for (size_t i = pending_begin_; i < pending_end_; ++i) {
    const Tensor& t = *plan_.lazy[i].tensor;
    TRI_CHECK(t.data() != nullptr || t.nbytes() == 0, Error::Internal,
              "instruction %zu (%s) wrote a tensor of %zu bytes without sizing it first "
              "(planning per shape needs each kernel to size its outs)",
              pc, instruction_name(pc), t.nbytes());
  }
  pending_begin_ = pending_end_ = 0;
  while (*released < plan_.lazy_by_last.size()) {
    LazyTensor& lazy = plan_.lazy[plan_.lazy_by_last[*released]];
    if (lazy.last != pc) break;
    if (lazy.view) {
      lazy.tensor->set_data(nullptr, 0);
    } else {
      plan_.binder->release(*lazy.tensor);
    }
    ++*released;
  }
  return Error::Ok;
}

Error Method::execute(const ExecuteOptions& options, bool* finished) {
  cursor_ = RunCursor();
  // Inputs the plan left without memory must have been bound by the caller.
  for (size_t i = 0; i < plan_.inputs.size(); ++i) {
    const EValue& v = input(i);
    TRI_CHECK(!v.is_tensor() || v.to_tensor().data() != nullptr ||
                  v.to_tensor().nbytes() == 0,
              Error::InvalidState, "input %zu of method '%s' was not set", i,
              plan_.name);
  }
  // Per-shape planning: the last run's tensors (its outputs among them) go
  // back, so each run places its own from an empty arena, and the same
  // shapes land where they did before.
  if (plan_.binder != nullptr) {
    plan_.binder->release_all();
    for (LazyTensor& lazy : plan_.lazy) lazy.tensor->set_data(nullptr, 0);
  }
  cursor_.active = true;
  return run_from_cursor(options, finished);
}

Error Method::resume(const ExecuteOptions& options, bool* finished) {
  TRI_CHECK(cursor_.active, Error::InvalidState,
            "method '%s' has no suspended run to resume", plan_.name);
  return run_from_cursor(options, finished);
}

Error Method::run_from_cursor(const ExecuteOptions& options, bool* finished) {
  if (finished != nullptr) *finished = false;
  const size_t end = plan_.instructions.size();
  const bool profiling = !options.timings.empty();
  if (profiling && options.timings.size() != end) {
    cursor_ = RunCursor();
    return fail(Error::InvalidArgument, "method '%s': %zu timing slots for %zu instructions",
                plan_.name, options.timings.size(), end);
  }
  TensorBinder* const binder = plan_.binder;
  const uint64_t slice_start = options.slice_ns != 0 ? now_ns() : 0;
  // A copy in locals for the loop; cursor_ gets it back when the slice ends.
  RunCursor at = cursor_;
  // Any failure ends the run.
  cursor_ = RunCursor();
  while (at.pc < end) {
    TRI_CHECK(at.executed < options.max_instructions, Error::LimitExceeded,
              "method '%s' ran %" PRIu64
              " instructions without finishing, the limit (maxInstructionsPerRun; a jump loops?)",
              plan_.name, at.executed);
    const size_t pc = at.pc;
    size_t next = 0;
    const uint64_t start = profiling ? now_ns() : 0;
    if (binder != nullptr) {
      TRI_TRY_CONTEXT(bind_lazy(pc, &at.next_lazy), "method '%s', instruction %zu (%s)",
                      plan_.name, pc, instruction_name(pc));
    }
    TRI_TRY_CONTEXT(run_instruction(pc, &next, profiling ? &options.timings[pc] : nullptr),
                    "method '%s'", plan_.name);
    if (binder != nullptr) {
      TRI_TRY_CONTEXT(finish_lazy(pc, &at.released), "method '%s'", plan_.name);
    }
    if (profiling) {
      options.timings[pc].nanoseconds += now_ns() - start;
      ++options.timings[pc].calls;
    }
    at.pc = next;
    ++at.executed;
    if (options.slice_ns != 0 && at.pc < end && now_ns() - slice_start >= options.slice_ns) {
      cursor_ = at;
      return Error::Ok;
    }
  }
  if (finished != nullptr) *finished = true;
  return Error::Ok;
}

size_t Method::delegate_num_nodes(size_t pc) const {
  if (pc >= plan_.instructions.size()) return 0;
  const Instruction& instr = plan_.instructions[pc];
  if (instr.kind != InstructionKind::DelegateCall) return 0;
  const DelegateInstance& d = plan_.delegates[instr.target];
  return d.backend->num_nodes(d.handle);
}

Method::SourceRange Method::instruction_source(size_t pc) const {
  if (pc >= plan_.instructions.size()) return {};
  return {plan_.instructions[pc].source, plan_.instructions[pc].source_count};
}

const char* Method::instruction_name(size_t pc) const {
  if (pc >= plan_.instructions.size()) return "?";
  const Instruction& instr = plan_.instructions[pc];
  switch (instr.kind) {
    case InstructionKind::KernelCall:
      return plan_.operators[instr.target].name;
    case InstructionKind::DelegateCall:
      return plan_.delegates[instr.target].backend_id;
    case InstructionKind::Move:
      return "move";
    case InstructionKind::JumpFalse:
      return "jump_false";
    case InstructionKind::Free:
      return "free";
  }
  return "?";
}

void Method::destroy() {
  for (DelegateInstance& d : plan_.delegates) {
    if (d.backend != nullptr && d.handle != nullptr) {
      d.backend->destroy(d.handle);
      d.handle = nullptr;
    }
  }
}

}  // namespace tri
