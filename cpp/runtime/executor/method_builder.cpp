#include "cpp/runtime/executor/method_builder.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "cpp/runtime/backend/backend.h"
#include "cpp/runtime/executor/lazy_plan.h"
#include "cpp/runtime/executor/method_pass.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri {
namespace {

// What a delegate's init may lose to alignment beyond what it reports, and
// what the method allocator's start may lose compared with the trial's.
constexpr size_t kSlack = 64;

// Allocations of one build: from the method allocator, or while sizing from
// the trial allocator (same calls, same order, so the same bytes).
template <typename T>
Result<Span<T>> allocate_span(MemoryAllocator& alloc, size_t n, const char* what) {
  T* items = alloc.allocate_array<T>(n);
  TRI_CHECK(items != nullptr, Error::MemoryAllocationFailed,
            "method allocator exhausted (%s: %zu entries)", what, n);
  return Span<T>(items, n);
}

// "aten::add" + "out" -> "aten::add.out", copied into `alloc`.
Result<const char*> join_name(MemoryAllocator& alloc, const OperatorRef& op) {
  const size_t a = strlen(op.name);
  const size_t b = strlen(op.overload);
  char* out = static_cast<char*>(alloc.allocate(a + b + 2, 1));
  TRI_CHECK(out != nullptr, Error::MemoryAllocationFailed,
            "method allocator exhausted (operator names)");
  memcpy(out, op.name, a);
  out[a] = '\0';
  if (b > 0) {
    out[a] = '.';
    memcpy(out + a + 1, op.overload, b);
    out[a + 1 + b] = '\0';
  }
  return static_cast<const char*>(out);
}

// Every operator must be registered; one error lists all the missing ones.
Error check_operators(const MethodSource& source) {
  char missing[512];
  missing[0] = '\0';
  size_t used = 0;
  size_t num_missing = 0;
  for (size_t i = 0; i < source.num_operators(); ++i) {
    TRI_ASSIGN_OR_RETURN(const OperatorRef op, source.operator_at(i));
    if (find_kernel(op.name, op.overload) != nullptr) continue;
    const int n = snprintf(missing + used, sizeof(missing) - used, "%s%s%s%s",
                           num_missing ? ", " : "", op.name, op.overload[0] ? "." : "",
                           op.overload);
    if (n > 0 && used + static_cast<size_t>(n) < sizeof(missing)) {
      used += static_cast<size_t>(n);
    }
    ++num_missing;
  }
  TRI_CHECK(num_missing == 0, Error::OperatorMissing,
            "method '%s' uses %zu operator%s not registered in this build: %s", source.name(),
            num_missing, num_missing == 1 ? "" : "s", missing);
  return Error::Ok;
}

Result<const Backend*> available_backend(const MethodSource& source, size_t index,
                                         const DelegateRef& d) {
  const Backend* backend = find_backend(d.backend_id);
  TRI_CHECK(backend != nullptr, Error::BackendMissing,
            "method '%s': delegate %zu needs backend '%s', which is not registered in this build",
            source.name(), index, d.backend_id);
  TRI_CHECK(backend->is_available(), Error::NotSupported,
            "method '%s': backend '%s' is registered but not available", source.name(),
            d.backend_id);
  return backend;
}

Error check_backends(const MethodSource& source) {
  for (size_t i = 0; i < source.num_delegates(); ++i) {
    Result<DelegateRef> d = source.delegate_at(i);
    if (!d.ok()) return add_context(d.error(), "method '%s', delegate %zu", source.name(), i);
    TRI_TRY(available_backend(source, i, *d).error());
  }
  return Error::Ok;
}

Error check_value_index(int64_t index, size_t num_values, const char* what) {
  TRI_CHECK(index >= 0 && static_cast<uint64_t>(index) < num_values, Error::InvalidProgram,
            "%s refers to value %" PRId64 " (the table has %zu)", what, index, num_values);
  return Error::Ok;
}

Error check_io(Span<const int32_t> io, size_t num_values, const char* method, const char* what) {
  for (size_t i = 0; i < io.size(); ++i) {
    TRI_CHECK(io[i] >= 0 && static_cast<size_t>(io[i]) < num_values, Error::InvalidProgram,
              "method '%s': %s %zu refers to value %" PRId32 " (the table has %zu)", method,
              what, i, io[i], num_values);
  }
  return Error::Ok;
}

// What the core relies on from every front end's value table, checked again
// here so that a loader's bug is an error and not a memory error: each tensor
// slot holds a tensor; a tensor with memory has room for its sizes, and
// memory that starts in a planned buffer ends inside it.
Error check_tensor(const Tensor* t, const PlannedMemory* planned, uint64_t max_elements,
                   size_t value) {
  TRI_CHECK(t != nullptr, Error::InvalidProgram, "value %zu is a tensor with no tensor", value);
  TRI_CHECK(t->numel() <= max_elements, Error::LimitExceeded,
            "value %zu: a tensor of %zu elements is over the limit of %" PRIu64
            " (maxTensorElements)",
            value, t->numel(), max_elements);
  if (t->data() == nullptr) return Error::Ok;  // an input, or memory bound later
  TRI_CHECK(t->capacity_bytes() >= t->nbytes(), Error::InvalidProgram,
            "value %zu: a tensor of %zu bytes has memory for %zu", value, t->nbytes(),
            t->capacity_bytes());
  TRI_CHECK(planned == nullptr || !planned->contains(t->data()) ||
                planned->contains(t->data(), t->capacity_bytes()),
            Error::InvalidProgram, "value %zu: its %zu bytes run past the end of its planned buffer",
            value, t->capacity_bytes());
  return Error::Ok;
}

Error check_values(Span<const EValue> values, const PlannedMemory* planned,
                   uint64_t max_elements) {
  for (size_t v = 0; v < values.size(); ++v) {
    const EValue& value = values[v];
    if (value.tag == Tag::Tensor) {
      TRI_TRY(check_tensor(value.payload.as_tensor, planned, max_elements, v));
    } else if (value.tag == Tag::TensorList || value.tag == Tag::OptionalTensorList) {
      const BoxedTensorList& list = value.payload.as_tensor_list;
      TRI_CHECK(list.size == 0 || list.items != nullptr, Error::InvalidProgram,
                "value %zu: a list of %zu tensors with no items", v, list.size);
      for (size_t k = 0; k < list.size; ++k) {
        const EValue* item = list.items[k];
        TRI_CHECK(item != nullptr, Error::InvalidProgram, "value %zu: list item %zu is missing", v,
                  k);
        if (item->tag == Tag::Tensor) {
          TRI_TRY(check_tensor(item->payload.as_tensor, planned, max_elements, v));
        }
      }
    }
  }
  return Error::Ok;
}

Error resolve_args(Span<const int32_t> args, Span<EValue> values, MemoryAllocator& alloc,
                   Instruction* out) {
  TRI_ASSIGN_OR_RETURN(Span<EValue*> slots, allocate_span<EValue*>(alloc, args.size(), "arguments"));
  for (size_t i = 0; i < args.size(); ++i) {
    TRI_CHECK(args[i] >= 0 && static_cast<size_t>(args[i]) < values.size(),
              Error::InvalidProgram, "argument %zu refers to value %" PRId32 " (the table has %zu)",
              i, args[i], values.size());
    slots[i] = &values[static_cast<size_t>(args[i])];
  }
  out->args = slots.data();
  out->num_args = static_cast<uint32_t>(args.size());
  return Error::Ok;
}

// Tensors a call returns: its last argument is the returned value, the out
// tensor itself or a TensorList of the outs (ExecuTorch's KernelCall layout).
size_t returned_tensors(const Instruction& call) {
  if (call.num_args == 0) return 0;
  const EValue& ret = *call.args[call.num_args - 1];
  if (ret.tag == Tag::Tensor) return 1;
  if (ret.tag == Tag::TensorList) return ret.payload.as_tensor_list.size;
  return 0;
}

// A kernel that declares its outs (a JS kernel's `outputs`) must be called
// with that many: one that miscounts them would take inputs for outs, or outs
// for inputs, and leave real outs unwritten without any error.
Error check_declared_outs(const ResolvedOperator& op, const Instruction& call) {
  if (op.kernel.num_outs < 0) return Error::Ok;
  const size_t declared = static_cast<size_t>(op.kernel.num_outs);
  const size_t returned = returned_tensors(call);
  TRI_CHECK(returned == declared, Error::InvalidProgram,
            "%s is registered with %zu out tensor%s, but the program's call returns %zu",
            op.name, declared, declared == 1 ? "" : "s", returned);
  TRI_CHECK(call.num_args >= declared + (declared > 0 ? 1 : 0), Error::InvalidProgram,
            "%s: the call passes %" PRIu32 " arguments, too few for %zu outs and the returned value",
            op.name, call.num_args, declared);
  return Error::Ok;
}

Error build_instruction(const InstructionRef& in, size_t num_instructions, Span<EValue> values,
                        Span<ResolvedOperator> ops, size_t num_delegates, MemoryAllocator& alloc,
                        Instruction* out) {
  out->kind = in.kind;
  switch (in.kind) {
    case InstructionKind::KernelCall: {
      TRI_CHECK(in.target >= 0 && static_cast<uint64_t>(in.target) < ops.size(),
                Error::InvalidProgram, "KernelCall names operator %" PRId64 " (the method has %zu)",
                in.target, ops.size());
      out->target = static_cast<uint32_t>(in.target);
      TRI_TRY(resolve_args(in.args, values, alloc, out));
      const ResolvedOperator& op = ops[out->target];
      TRI_CHECK(op.kernel.num_args < 0 || static_cast<uint32_t>(op.kernel.num_args) == out->num_args,
                Error::InvalidProgram, "%s takes %" PRId32 " arguments, the call passes %" PRIu32,
                op.name, op.kernel.num_args, out->num_args);
      return check_declared_outs(op, *out);
    }
    case InstructionKind::DelegateCall:
      TRI_CHECK(in.target >= 0 && static_cast<uint64_t>(in.target) < num_delegates,
                Error::InvalidProgram, "DelegateCall names delegate %" PRId64 " (the method has %zu)",
                in.target, num_delegates);
      out->target = static_cast<uint32_t>(in.target);
      return resolve_args(in.args, values, alloc, out);
    case InstructionKind::Move:
      TRI_TRY(check_value_index(in.a, values.size(), "MoveCall source"));
      TRI_TRY(check_value_index(in.b, values.size(), "MoveCall destination"));
      out->a = static_cast<int32_t>(in.a);
      out->b = static_cast<int32_t>(in.b);
      return Error::Ok;
    case InstructionKind::JumpFalse:
      TRI_TRY(check_value_index(in.a, values.size(), "JumpFalseCall condition"));
      // Jumping to the end (== num_instructions) finishes the method.
      TRI_CHECK(in.b >= 0 && static_cast<uint64_t>(in.b) <= num_instructions, Error::InvalidProgram,
                "JumpFalseCall jumps to instruction %" PRId64 " (the method has %zu)", in.b,
                num_instructions);
      out->a = static_cast<int32_t>(in.a);
      out->b = static_cast<int32_t>(in.b);
      return Error::Ok;
    case InstructionKind::Free:
      TRI_TRY(check_value_index(in.a, values.size(), "FreeCall"));
      out->a = static_cast<int32_t>(in.a);
      return Error::Ok;
  }
  return fail(Error::InvalidProgram, "instruction of unknown kind %d", static_cast<int>(in.kind));
}

// The scratch the method's kernels need: the most any one instruction takes,
// since scratch is reset between instructions. Instructions see their
// arguments at the sizes the build gave them (bounded tensors at their bound).
size_t kernel_scratch_bytes(Span<const Instruction> instructions, Span<const ResolvedOperator> ops) {
  size_t most = 0;
  for (const Instruction& instr : instructions) {
    if (instr.kind != InstructionKind::KernelCall || instr.target >= ops.size()) continue;
    const KernelEntry& kernel = ops[instr.target].kernel;
    if (kernel.scratch == nullptr) continue;
    KernelArgs args(instr.args, instr.num_args);
    const size_t bytes = kernel.scratch(args);
    if (bytes > most) most = bytes;
  }
  return most;
}

void destroy_delegates(Span<DelegateInstance> delegates) {
  for (DelegateInstance& d : delegates) {
    if (d.backend != nullptr && d.handle != nullptr) d.backend->destroy(d.handle);
    d.handle = nullptr;
  }
}

// The compile specs of delegate `index`, copied into `alloc`.
Result<Span<const CompileSpec>> compile_specs(const MethodSource& source, size_t index,
                                              const DelegateRef& d, MemoryAllocator& alloc) {
  TRI_ASSIGN_OR_RETURN(Span<CompileSpec> specs,
                       allocate_span<CompileSpec>(alloc, d.num_compile_specs, "compile specs"));
  for (size_t s = 0; s < specs.size(); ++s) {
    TRI_ASSIGN_OR_RETURN(specs[s], source.compile_spec_at(index, s));
  }
  return Span<const CompileSpec>(specs.data(), specs.size());
}

// One delegate: while sizing, what it will need; otherwise its handle.
Error prepare_delegate(const MethodSource& source, size_t index, MemoryAllocator& alloc,
                       MemoryAllocator* scratch, const NamedDataMap* named_data,
                       MethodMemoryNeeds* needs, DelegateInstance* out) {
  TRI_ASSIGN_OR_RETURN(const DelegateRef d, source.delegate_at(index));
  TRI_ASSIGN_OR_RETURN(const Backend* backend, available_backend(source, index, d));
  TRI_ASSIGN_OR_RETURN(const Span<const CompileSpec> specs, compile_specs(source, index, d, alloc));
  BackendInitContext context;
  context.scratch = scratch;
  context.named_data = named_data;
  context.method_name = source.name();
  if (needs != nullptr) {
    Result<BackendMemoryNeeds> delegate = backend->memory_needs(context, d.processed, specs);
    if (scratch != nullptr) scratch->reset();
    TRI_TRY(delegate.error());
    needs->method_bytes += delegate->init_bytes + kSlack;
    if (delegate->execute_bytes > needs->temp_bytes) needs->temp_bytes = delegate->execute_bytes;
    return Error::Ok;
  }
  context.method_allocator = &alloc;
  out->backend = backend;
  out->backend_id = d.backend_id;
  Result<void*> handle = backend->init(context, d.processed, specs);
  if (scratch != nullptr) scratch->reset();
  TRI_TRY(handle.error());
  out->handle = *handle;
  return Error::Ok;
}

// The binder of a sizing build, which runs nothing.
class RefusingBinder final : public TensorBinder {
 public:
  Error bind(Tensor&, size_t) override {
    return fail(Error::InvalidState, "a method built to size it cannot run");
  }
  void release(Tensor&) override {}
  void release_all() override {}
  Error reserve_scratch(size_t, MemoryAllocator&) override {
    return fail(Error::InvalidState, "a method built to size it cannot run");
  }
};

// The one build. `needs` non-null means sizing: memory.method is the trial
// allocator, nothing is bound to planned memory and delegates only report
// what they need.
Result<MethodPlan> build(const MethodSource& source, MemoryManager& memory,
                         const MethodLoadOptions& options, MethodMemoryNeeds* needs) {
  const bool sizing = needs != nullptr;
  const char* name = source.name();
  TRI_CHECK(memory.method != nullptr, Error::InvalidArgument, "a method allocator is required");
  MemoryAllocator& alloc = *memory.method;
  if (!sizing) {
    const size_t planned = source.num_planned_buffers();
    const size_t given = memory.planned ? memory.planned->num_buffers() : 0;
    TRI_CHECK(planned == 0 || given >= planned, Error::InvalidArgument,
              "method '%s' needs %zu planned buffers, %zu were provided", name, planned, given);
  }

  // Cheap checks first, so a method that cannot run fails before any memory
  // is touched.
  TRI_TRY(check_operators(source));
  TRI_TRY(check_backends(source));
  TRI_ASSIGN_OR_RETURN(Span<ResolvedOperator> ops,
                       allocate_span<ResolvedOperator>(alloc, source.num_operators(), "operators"));
  for (size_t i = 0; i < ops.size(); ++i) {
    TRI_ASSIGN_OR_RETURN(const OperatorRef op, source.operator_at(i));
    TRI_ASSIGN_OR_RETURN(ops[i].name, join_name(alloc, op));
    // check_operators() found every one.
    ops[i].kernel = *find_kernel(op.name, op.overload);
  }

  TRI_ASSIGN_OR_RETURN(Span<EValue> values,
                       allocate_span<EValue>(alloc, source.num_values(), "value table"));
  TRI_TRY(check_io(source.inputs(), values.size(), name, "input"));
  TRI_TRY(check_io(source.outputs(), values.size(), name, "output"));
  ValueBuildContext value_context;
  value_context.memory = &memory;
  value_context.external = options.external_data;
  value_context.sizing = sizing;
  TRI_TRY(source.build_values(value_context, values));
  if (!sizing) {
    TRI_TRY_CONTEXT(check_values(values, memory.planned, options.max_tensor_elements),
                    "method '%s'", name);
  }

  const size_t num_instructions = source.num_instructions();
  const size_t num_delegates = source.num_delegates();
  TRI_ASSIGN_OR_RETURN(Span<Instruction> instructions,
                       allocate_span<Instruction>(alloc, num_instructions, "instructions"));
  for (size_t i = 0; i < num_instructions; ++i) {
    Result<InstructionRef> in = source.instruction_at(i);
    Error err = in.error();
    if (err == Error::Ok) {
      err = build_instruction(*in, num_instructions, values, ops, num_delegates, alloc,
                              &instructions[i]);
    }
    TRI_TRY_CONTEXT(err, "method '%s', instruction %zu", name, i);
    instructions[i].source = static_cast<uint32_t>(i);
    instructions[i].source_count = 1;
  }

  if (options.optimize) {
    bool has_jumps = false;
    for (const Instruction& instr : instructions) {
      has_jumps = has_jumps || instr.kind == InstructionKind::JumpFalse;
    }
    // Passes renumber instructions, which jump targets would not follow.
    if (!has_jumps) {
      MethodPassContext pass_context;
      pass_context.method_name = name;
      pass_context.values = values;
      pass_context.inputs = source.inputs();
      pass_context.outputs = source.outputs();
      pass_context.alloc = &alloc;
      pass_context.sizing = sizing;
      pass_context.planned = sizing ? nullptr : memory.planned;
      TRI_TRY_CONTEXT(run_method_passes(pass_context, &instructions, &ops), "method '%s'", name);
    }
  }

  // Per-shape planning: when the front end's lazy tensors are bound and
  // released, from the instructions as they will run.
  TRI_ASSIGN_OR_RETURN(const LazySchedule lazy,
                       plan_lazy_tensors(values, instructions, source.inputs(), source.outputs(),
                                         alloc));
  TRI_CHECK(lazy.lazy.empty() || memory.binder != nullptr, Error::InvalidArgument,
            "method '%s' places tensors per shape but was given no TensorBinder", name);

  // Kernels never run short of scratch: sizing reports what they take, and
  // a build given less refuses to load rather than fail at run time.
  // A method planned per shape sizes it at each run's shapes instead
  // (Method::run_instruction, TensorBinder::reserve_scratch).
  const size_t kernel_scratch = lazy.lazy.empty() ? kernel_scratch_bytes(instructions, ops) : 0;
  if (sizing) {
    if (kernel_scratch > needs->temp_bytes) needs->temp_bytes = kernel_scratch;
  } else {
    const size_t given = memory.temp != nullptr ? memory.temp->capacity() : 0;
    TRI_CHECK(kernel_scratch <= given, Error::MemoryAllocationFailed,
              "method '%s' needs %zu bytes of kernel scratch memory, %zu were given", name,
              kernel_scratch, given);
  }

  // Delegates see the method's own named data first, then external files.
  TRI_ASSIGN_OR_RETURN(Span<const NamedDataMap*> maps,
                       allocate_span<const NamedDataMap*>(alloc, 2, "named data"));
  size_t num_maps = 0;
  if (source.named_data() != nullptr) maps[num_maps++] = source.named_data();
  if (options.external_data != nullptr) maps[num_maps++] = options.external_data;
  TRI_ASSIGN_OR_RETURN(Span<NamedDataMapChain> chain,
                       allocate_span<NamedDataMapChain>(alloc, 1, "named data"));
  chain[0] = NamedDataMapChain(maps.data(), num_maps);

  // Last, so that everything above is already checked when a backend starts
  // work, and so the sizing trial's allocations precede all of the
  // delegates' own.
  TRI_ASSIGN_OR_RETURN(Span<DelegateInstance> delegates,
                       allocate_span<DelegateInstance>(alloc, num_delegates, "delegates"));
  for (size_t i = 0; i < num_delegates; ++i) {
    const Error err = prepare_delegate(source, i, alloc, memory.temp, &chain[0], needs,
                                       &delegates[i]);
    if (err != Error::Ok) {
      // A failed load leaves no backend state behind.
      destroy_delegates(delegates);
      DelegateRef d;
      Result<DelegateRef> ref = source.delegate_at(i);
      if (ref.ok()) d = *ref;
      return add_context(err, "method '%s': %s delegate %zu (%s)", name,
                         sizing ? "sizing" : "initializing", i, d.backend_id);
    }
  }

  MethodPlan plan;
  plan.name = name;
  plan.values = values;
  plan.instructions = instructions;
  plan.inputs = source.inputs();
  plan.outputs = source.outputs();
  plan.operators = ops;
  plan.delegates = delegates;
  if (!lazy.lazy.empty()) {
    plan.lazy = lazy.lazy;
    plan.lazy_by_last = lazy.lazy_by_last;
    plan.binder = memory.binder;
  }
  return plan;
}

}  // namespace

Error check_method_dependencies(const MethodSource& source) {
  TRI_TRY(check_operators(source));
  return check_backends(source);
}

Result<MethodMemoryNeeds> size_method(const MethodSource& source, MemoryAllocator& trial,
                                      MemoryAllocator& scratch, const MethodLoadOptions& options) {
  trial.reset();
  // A front end that plans per shape marks its lazy tensors with the binder
  // it is given, so the trial makes the same schedule a real build does.
  RefusingBinder refusing;
  MemoryManager memory;
  memory.method = &trial;
  memory.temp = &scratch;
  memory.binder = &refusing;
  MethodMemoryNeeds needs;
  // On failure the trial is left as it is, so exhausted() tells the caller
  // whether more room would help.
  TRI_TRY(build(source, memory, options, &needs).error());
  needs.method_bytes += trial.used() + kSlack;
  trial.reset();
  return needs;
}

Result<Method> build_method(const MethodSource& source, MemoryManager& memory,
                            const MethodLoadOptions& options) {
  TRI_ASSIGN_OR_RETURN(const MethodPlan plan, build(source, memory, options, nullptr));
  return Method(plan, memory.temp);
}

}  // namespace tri
