// PteProgram::load_method: turns one ExecutionPlan into a Method. Everything
// the interpreter needs is resolved here — operators to kernels, delegates to
// initialized backends, argument indices to value slots — so that a missing
// operator or backend, or an index out of range, fails at load time.
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "cpp/formats/pte/pte_program.h"
#include "cpp/formats/pte/pte_values.h"
#include "cpp/formats/pte/schema/program_generated.h"
#include "cpp/runtime/backend/backend.h"

namespace tri::pte {
namespace {

namespace fb = executorch_flatbuffer;

constexpr size_t kSlack = kDefaultAlignment;

const flatbuffers::Vector<flatbuffers::Offset<fb::Instruction>>* instructions_of(
    const fb::ExecutionPlan* plan) {
  const auto* chains = plan->chains();
  if (chains == nullptr || chains->size() == 0) {
    return nullptr;
  }
  return chains->Get(0)->instructions();
}

template <typename T>
size_t count(const flatbuffers::Vector<T>* v) {
  return v ? v->size() : 0;
}

// "aten::add" + "out" -> "aten::add.out", copied into the method allocator.
const char* join_name(MemoryAllocator& alloc, const flatbuffers::String* name_string,
                      const flatbuffers::String* overload_string) {
  const char* name = name_string->c_str();
  const size_t a = name_string->size();
  const char* overload = overload_string ? overload_string->c_str() : "";
  const size_t b = overload_string ? overload_string->size() : 0;
  char* out = static_cast<char*>(alloc.allocate(a + b + 2, 1));
  if (out == nullptr) {
    return nullptr;
  }
  memcpy(out, name, a);
  if (b > 0) {
    out[a] = '.';
    memcpy(out + a + 1, overload, b);
    out[a + 1 + b] = '\0';
  } else {
    out[a] = '\0';
  }
  return out;
}

// Every operator the method uses must be registered; one error lists all the
// missing ones.
Error check_operators(const fb::ExecutionPlan* plan, const char* method) {
  char missing[512];
  size_t used = 0;
  size_t num_missing = 0;
  const auto* operators = plan->operators();
  for (size_t i = 0; i < count(operators); ++i) {
    const fb::Operator* op = operators->Get(static_cast<flatbuffers::uoffset_t>(i));
    TRI_CHECK(op != nullptr && op->name() != nullptr, Error::InvalidProgram,
              "method '%s': operator %zu has no name", method, i);
    const char* overload = op->overload() ? op->overload()->c_str() : "";
    if (find_kernel(op->name()->c_str(), overload) != nullptr) {
      continue;
    }
    const int n = snprintf(missing + used, sizeof(missing) - used, "%s%s%s%s",
                           num_missing ? ", " : "", op->name()->c_str(),
                           overload[0] ? "." : "", overload);
    if (n > 0 && used + static_cast<size_t>(n) < sizeof(missing)) {
      used += static_cast<size_t>(n);
    }
    ++num_missing;
  }
  TRI_CHECK(num_missing == 0, Error::OperatorMissing,
            "method '%s' uses %zu operator%s not registered in this build: %s",
            method, num_missing, num_missing == 1 ? "" : "s", missing);
  return Error::Ok;
}

Error resolve_operators(const fb::ExecutionPlan* plan, const char* method,
                        MemoryAllocator& alloc, Span<ResolvedOperator> ops) {
  TRI_TRY(check_operators(plan, method));
  for (size_t i = 0; i < ops.size(); ++i) {
    const fb::Operator* op = plan->operators()->Get(static_cast<flatbuffers::uoffset_t>(i));
    const char* overload = op->overload() ? op->overload()->c_str() : "";
    ops[i].name = join_name(alloc, op->name(), op->overload());
    TRI_CHECK(ops[i].name != nullptr, Error::MemoryAllocationFailed,
              "method allocator exhausted");
    ops[i].kernel = find_kernel(op->name()->c_str(), overload);
  }
  return Error::Ok;
}

Error check_backends(const fb::ExecutionPlan* plan, const char* method) {
  const auto* delegates = plan->delegates();
  for (size_t i = 0; i < count(delegates); ++i) {
    const fb::BackendDelegate* d = delegates->Get(static_cast<flatbuffers::uoffset_t>(i));
    TRI_CHECK(d != nullptr && d->id() != nullptr, Error::InvalidProgram,
              "method '%s': delegate %zu has no backend id", method, i);
    const Backend* backend = find_backend(d->id()->c_str());
    TRI_CHECK(backend != nullptr, Error::NotFound,
              "method '%s': delegate %zu needs backend '%s', which is not "
              "registered in this build",
              method, i, d->id()->c_str());
    TRI_CHECK(backend->is_available(), Error::NotSupported,
              "method '%s': backend '%s' is registered but not available",
              method, d->id()->c_str());
  }
  return Error::Ok;
}

// The processed blob and compile specs of delegate `index`; the specs array
// comes from `alloc`.
Error delegate_inputs(const PteProgram& program, const fb::ExecutionPlan* plan,
                      const char* method, size_t index, MemoryAllocator& alloc,
                      ByteSpan* processed, Span<const CompileSpec>* specs) {
  const fb::BackendDelegate* d =
      plan->delegates()->Get(static_cast<flatbuffers::uoffset_t>(index));
  const fb::BackendDelegateDataReference* ref = d->processed();
  TRI_CHECK(ref != nullptr, Error::InvalidProgram,
            "method '%s': delegate %zu has no processed data", method, index);
  Result<ByteSpan> data = program.delegate_data(
      static_cast<uint32_t>(ref->location()), ref->index());
  if (!data.ok()) {
    return add_context(data.error(), "method '%s', delegate %zu", method, index);
  }
  *processed = *data;
  const auto* fb_specs = d->compile_specs();
  const size_t num_specs = count(fb_specs);
  CompileSpec* spec_array = alloc.allocate_array<CompileSpec>(num_specs);
  TRI_CHECK(spec_array != nullptr, Error::MemoryAllocationFailed,
            "method allocator exhausted");
  for (size_t s = 0; s < num_specs; ++s) {
    const fb::CompileSpec* spec = fb_specs->Get(static_cast<flatbuffers::uoffset_t>(s));
    TRI_CHECK(spec != nullptr, Error::InvalidProgram,
              "method '%s': delegate %zu: compile spec %zu is missing", method, index, s);
    spec_array[s].key = spec->key() ? spec->key()->c_str() : "";
    spec_array[s].value = spec->value()
                              ? ByteSpan(spec->value()->data(), spec->value()->size())
                              : ByteSpan();
  }
  *specs = Span<const CompileSpec>(spec_array, num_specs);
  return Error::Ok;
}

void destroy_delegates(Span<DelegateInstance> delegates) {
  for (DelegateInstance& d : delegates) {
    if (d.backend != nullptr && d.handle != nullptr) {
      d.backend->destroy(d.handle);
      d.handle = nullptr;
    }
  }
}

// Initializes every delegate in order. If one fails, the ones already
// initialized are destroyed before the error is returned, so a failed load
// leaves no backend state behind.
Error init_delegates(const PteProgram& program, const fb::ExecutionPlan* plan,
                     const char* method, MemoryAllocator& alloc,
                     MemoryAllocator* scratch, const NamedDataMap* named_data,
                     Span<DelegateInstance> out) {
  for (size_t i = 0; i < out.size(); ++i) {
    const fb::BackendDelegate* d = plan->delegates()->Get(static_cast<flatbuffers::uoffset_t>(i));
    ByteSpan processed;
    Span<const CompileSpec> specs;
    Error err = delegate_inputs(program, plan, method, i, alloc, &processed, &specs);
    if (err == Error::Ok) {
      out[i].backend = find_backend(d->id()->c_str());
      out[i].backend_id = d->id()->c_str();
      BackendInitContext context;
      context.method_allocator = &alloc;
      context.scratch = scratch;
      context.named_data = named_data;
      context.method_name = method;
      Result<void*> handle = out[i].backend->init(context, processed, specs);
      if (scratch != nullptr) scratch->reset();
      if (handle.ok()) {
        out[i].handle = *handle;
        continue;
      }
      err = add_context(handle.error(), "method '%s': initializing delegate %zu (%s)",
                        method, i, out[i].backend_id);
    }
    destroy_delegates(out);
    return err;
  }
  return Error::Ok;
}

Error resolve_args(const flatbuffers::Vector<int32_t>* args, Span<EValue> values,
                   MemoryAllocator& alloc, Instruction* out) {
  const size_t n = count(args);
  out->args = alloc.allocate_array<EValue*>(n);
  TRI_CHECK(out->args != nullptr, Error::MemoryAllocationFailed,
            "method allocator exhausted");
  for (size_t i = 0; i < n; ++i) {
    const int32_t index = args->Get(static_cast<flatbuffers::uoffset_t>(i));
    TRI_CHECK(index >= 0 && static_cast<size_t>(index) < values.size(),
              Error::InvalidProgram,
              "argument %zu refers to value %" PRId32 " (the table has %zu)",
              i, index, values.size());
    out->args[i] = &values[static_cast<size_t>(index)];
  }
  out->num_args = static_cast<uint32_t>(n);
  return Error::Ok;
}

Error check_value_index(int32_t index, size_t num_values, const char* what) {
  TRI_CHECK(index >= 0 && static_cast<size_t>(index) < num_values,
            Error::InvalidProgram, "%s refers to value %" PRId32
            " (the table has %zu)", what, index, num_values);
  return Error::Ok;
}

Error build_instruction(const fb::Instruction* in, size_t num_instructions,
                        Span<EValue> values, Span<ResolvedOperator> ops,
                        Span<DelegateInstance> delegates,
                        MemoryAllocator& alloc, Instruction* out) {
  TRI_CHECK(in != nullptr, Error::InvalidProgram, "missing instruction");
  // The verifier accepts a union type without its table.
  TRI_CHECK(in->instr_args_type() == fb::InstructionArguments::NONE ||
                in->instr_args() != nullptr,
            Error::InvalidProgram, "the instruction's %s table is missing",
            fb::EnumNameInstructionArguments(in->instr_args_type()));
  switch (in->instr_args_type()) {
    case fb::InstructionArguments::KernelCall: {
      const fb::KernelCall* call = in->instr_args_as_KernelCall();
      const int32_t op = call->op_index();
      TRI_CHECK(op >= 0 && static_cast<size_t>(op) < ops.size(),
                Error::InvalidProgram,
                "KernelCall names operator %" PRId32 " (the method has %zu)",
                op, ops.size());
      out->kind = InstructionKind::KernelCall;
      out->target = static_cast<uint32_t>(op);
      TRI_TRY(resolve_args(call->args(), values, alloc, out));
      const KernelEntry* kernel = ops[static_cast<size_t>(op)].kernel;
      TRI_CHECK(kernel->num_args < 0 ||
                    static_cast<uint32_t>(kernel->num_args) == out->num_args,
                Error::InvalidProgram,
                "%s takes %" PRId32 " arguments, the call passes %" PRIu32,
                ops[static_cast<size_t>(op)].name, kernel->num_args,
                out->num_args);
      return Error::Ok;
    }
    case fb::InstructionArguments::DelegateCall: {
      const fb::DelegateCall* call = in->instr_args_as_DelegateCall();
      const int32_t d = call->delegate_index();
      TRI_CHECK(d >= 0 && static_cast<size_t>(d) < delegates.size(),
                Error::InvalidProgram,
                "DelegateCall names delegate %" PRId32 " (the method has %zu)",
                d, delegates.size());
      out->kind = InstructionKind::DelegateCall;
      out->target = static_cast<uint32_t>(d);
      return resolve_args(call->args(), values, alloc, out);
    }
    case fb::InstructionArguments::MoveCall: {
      const fb::MoveCall* call = in->instr_args_as_MoveCall();
      TRI_TRY(check_value_index(call->move_from(), values.size(), "MoveCall source"));
      TRI_TRY(check_value_index(call->move_to(), values.size(), "MoveCall destination"));
      out->kind = InstructionKind::Move;
      out->a = call->move_from();
      out->b = call->move_to();
      return Error::Ok;
    }
    case fb::InstructionArguments::JumpFalseCall: {
      const fb::JumpFalseCall* call = in->instr_args_as_JumpFalseCall();
      TRI_TRY(check_value_index(call->cond_value_index(), values.size(),
                                "JumpFalseCall condition"));
      const int32_t dest = call->destination_instruction();
      TRI_CHECK(dest >= 0 && static_cast<size_t>(dest) <= num_instructions,
                Error::InvalidProgram,
                "JumpFalseCall jumps to instruction %" PRId32
                " (the method has %zu)",
                dest, num_instructions);
      out->kind = InstructionKind::JumpFalse;
      out->a = call->cond_value_index();
      out->b = dest;
      return Error::Ok;
    }
    case fb::InstructionArguments::FreeCall: {
      const fb::FreeCall* call = in->instr_args_as_FreeCall();
      TRI_TRY(check_value_index(call->value_index(), values.size(), "FreeCall"));
      out->kind = InstructionKind::Free;
      out->a = call->value_index();
      return Error::Ok;
    }
    default:
      return fail(Error::InvalidProgram, "instruction of unknown type %d",
                  static_cast<int>(in->instr_args_type()));
  }
}

Error check_io(const flatbuffers::Vector<int32_t>* io, size_t num_values,
               const char* method, const char* what) {
  for (size_t i = 0; i < count(io); ++i) {
    const int32_t index = io->Get(static_cast<flatbuffers::uoffset_t>(i));
    TRI_CHECK(index >= 0 && static_cast<size_t>(index) < num_values,
              Error::InvalidProgram,
              "method '%s': %s %zu refers to value %" PRId32
              " (the table has %zu)",
              method, what, i, index, num_values);
  }
  return Error::Ok;
}

Span<const int32_t> as_span(const flatbuffers::Vector<int32_t>* v) {
  return v ? Span<const int32_t>(v->data(), v->size()) : Span<const int32_t>();
}

}  // namespace

Error PteProgram::check_dependencies(size_t method) const {
  TRI_CHECK(method < num_methods(), Error::InvalidArgument,
            "method %zu out of range", method);
  TRI_TRY(check_operators(plan(method), method_name(method)));
  return check_backends(plan(method), method_name(method));
}

Result<MethodMemoryNeeds> PteProgram::memory_needs(size_t method,
                                                   MemoryAllocator& scratch) const {
  TRI_CHECK(method < num_methods(), Error::InvalidArgument,
            "method %zu out of range", method);
  const fb::ExecutionPlan* p = plan(method);
  size_t bytes = value_table_bytes(p);
  const size_t num_ops = count(p->operators());
  bytes += num_ops * sizeof(ResolvedOperator) + 2 * kSlack;
  for (size_t i = 0; i < num_ops; ++i) {
    const fb::Operator* op = p->operators()->Get(static_cast<flatbuffers::uoffset_t>(i));
    bytes += (op && op->name() ? op->name()->size() : 0) +
             (op && op->overload() ? op->overload()->size() : 0) + 2;
  }
  const auto* instrs = instructions_of(p);
  bytes += count(instrs) * sizeof(Instruction) + 2 * kSlack;
  for (size_t i = 0; i < count(instrs); ++i) {
    const fb::Instruction* in = instrs->Get(static_cast<flatbuffers::uoffset_t>(i));
    const flatbuffers::Vector<int32_t>* args = nullptr;
    if (in == nullptr || in->instr_args() == nullptr) {
      continue;
    }
    if (in->instr_args_type() == fb::InstructionArguments::KernelCall) {
      args = in->instr_args_as_KernelCall()->args();
    } else if (in->instr_args_type() == fb::InstructionArguments::DelegateCall) {
      args = in->instr_args_as_DelegateCall()->args();
    }
    bytes += (count(args) + 1) * sizeof(EValue*) + kSlack;
  }
  const size_t num_delegates = count(p->delegates());
  bytes += num_delegates * sizeof(DelegateInstance) + 2 * kSlack;
  bytes += sizeof(NamedDataMapChain) + 2 * sizeof(NamedDataMap*) + 4 * kSlack;
  for (size_t i = 0; i < num_delegates; ++i) {
    const fb::BackendDelegate* d = p->delegates()->Get(static_cast<flatbuffers::uoffset_t>(i));
    bytes += (count(d ? d->compile_specs() : nullptr) + 1) * sizeof(CompileSpec) + kSlack;
  }
  // Each delegate says what its init takes from the method allocator and
  // what its execute takes from scratch; scratch is shared by instructions,
  // so the method needs the largest.
  MethodMemoryNeeds needs;
  TRI_TRY(check_backends(p, method_name(method)));
  for (size_t i = 0; i < num_delegates; ++i) {
    ByteSpan processed;
    Span<const CompileSpec> specs;
    TRI_TRY(delegate_inputs(*this, p, method_name(method), i, scratch, &processed, &specs));
    const fb::BackendDelegate* d = p->delegates()->Get(static_cast<flatbuffers::uoffset_t>(i));
    const Backend* backend = find_backend(d->id()->c_str());
    BackendInitContext context;
    context.scratch = &scratch;
    context.named_data = &named_data_;
    context.method_name = method_name(method);
    Result<BackendMemoryNeeds> delegate = backend->memory_needs(context, processed, specs);
    scratch.reset();
    if (!delegate.ok()) {
      return add_context(delegate.error(), "method '%s': delegate %zu (%s)",
                         method_name(method), i, d->id()->c_str());
    }
    bytes += delegate->init_bytes + kSlack;
    needs.temp_bytes = needs.temp_bytes > delegate->execute_bytes ? needs.temp_bytes
                                                                  : delegate->execute_bytes;
  }
  needs.method_bytes = bytes;
  return needs;
}

Result<Method> PteProgram::load_method(size_t method, MemoryManager& memory,
                                       const MethodLoadOptions& options) const {
  TRI_CHECK(method < num_methods(), Error::InvalidArgument,
            "method %zu out of range", method);
  TRI_CHECK(memory.method != nullptr, Error::InvalidArgument,
            "a method allocator is required");
  const fb::ExecutionPlan* p = plan(method);
  const char* name = method_name(method);
  MemoryAllocator& alloc = *memory.method;

  const auto* chains = p->chains();
  TRI_CHECK(count(chains) <= 1, Error::NotSupported,
            "method '%s' has %zu chains (only single-chain programs exist)",
            name, count(chains));
  const size_t num_planned = num_planned_buffers(method);
  TRI_CHECK(num_planned == 0 ||
                (memory.planned != nullptr &&
                 memory.planned->num_buffers() >= num_planned),
            Error::InvalidArgument,
            "method '%s' needs %zu planned buffers, %zu were provided", name,
            num_planned, memory.planned ? memory.planned->num_buffers() : 0);

  // Cheap checks first, so a program that cannot run fails before any
  // memory is touched.
  const size_t num_ops = count(p->operators());
  Span<ResolvedOperator> ops(alloc.allocate_array<ResolvedOperator>(num_ops),
                             num_ops);
  TRI_CHECK(ops.data() != nullptr, Error::MemoryAllocationFailed,
            "method allocator exhausted");
  TRI_TRY(resolve_operators(p, name, alloc, ops));
  TRI_TRY(check_backends(p, name));

  const size_t num_values = count(p->values());
  Span<EValue> values(alloc.allocate_array<EValue>(num_values), num_values);
  TRI_CHECK(values.data() != nullptr, Error::MemoryAllocationFailed,
            "method allocator exhausted (value table of %zu)", num_values);
  TRI_TRY(check_io(p->inputs(), num_values, name, "input"));
  TRI_TRY(check_io(p->outputs(), num_values, name, "output"));

  ValueTableContext ctx;
  ctx.program = this;
  ctx.plan = p;
  ctx.memory = &memory;
  ctx.external = options.external_data;
  ctx.method = name;
  TRI_TRY(parse_values(ctx, values));

  // Delegates see the program's named data first, then external files.
  const NamedDataMap** maps = alloc.allocate_array<const NamedDataMap*>(2);
  TRI_CHECK(maps != nullptr, Error::MemoryAllocationFailed,
            "method allocator exhausted");
  maps[0] = &named_data_;
  maps[1] = options.external_data;
  NamedDataMapChain* chain = static_cast<NamedDataMapChain*>(
      alloc.allocate(sizeof(NamedDataMapChain), alignof(NamedDataMapChain)));
  TRI_CHECK(chain != nullptr, Error::MemoryAllocationFailed,
            "method allocator exhausted");
  new (chain) NamedDataMapChain(maps, 2);

  const size_t num_delegates = count(p->delegates());
  Span<DelegateInstance> delegates(
      alloc.allocate_array<DelegateInstance>(num_delegates), num_delegates);
  TRI_CHECK(delegates.data() != nullptr, Error::MemoryAllocationFailed,
            "method allocator exhausted");
  TRI_TRY(init_delegates(*this, p, name, alloc, memory.temp, chain, delegates));

  const auto* instrs = instructions_of(p);
  const size_t num_instrs = count(instrs);
  Span<Instruction> instructions(alloc.allocate_array<Instruction>(num_instrs),
                                 num_instrs);
  TRI_CHECK(instructions.data() != nullptr, Error::MemoryAllocationFailed,
            "method allocator exhausted");
  for (size_t i = 0; i < num_instrs; ++i) {
    const Error err = build_instruction(
        instrs->Get(static_cast<flatbuffers::uoffset_t>(i)), num_instrs, values,
        ops, delegates, alloc, &instructions[i]);
    if (err != Error::Ok) {
      destroy_delegates(delegates);
      return add_context(err, "method '%s', instruction %zu", name, i);
    }
  }

  MethodPlan method_plan;
  method_plan.name = name;
  method_plan.values = values;
  method_plan.instructions = instructions;
  method_plan.inputs = as_span(p->inputs());
  method_plan.outputs = as_span(p->outputs());
  method_plan.operators = ops;
  method_plan.delegates = delegates;
  return Method(method_plan, memory.temp);
}

}  // namespace tri::pte
