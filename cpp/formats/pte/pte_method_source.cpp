#include "cpp/formats/pte/pte_method_source.h"

#include "cpp/formats/pte/pte_program.h"
#include "cpp/formats/pte/pte_values.h"
#include "cpp/formats/pte/schema/program_generated.h"

namespace tri::pte {
namespace {

namespace fb = executorch_flatbuffer;

template <typename T>
size_t count(const flatbuffers::Vector<T>* v) {
  return v ? v->size() : 0;
}

Span<const int32_t> as_span(const flatbuffers::Vector<int32_t>* v) {
  return v ? Span<const int32_t>(v->data(), v->size()) : Span<const int32_t>();
}

// Programs have one chain (ExecuTorch never wrote more; PteProgram::load
// refuses more).
const flatbuffers::Vector<flatbuffers::Offset<fb::Instruction>>* instructions_of(
    const fb::ExecutionPlan* plan) {
  const auto* chains = plan->chains();
  if (chains == nullptr || chains->size() == 0 || chains->Get(0) == nullptr) return nullptr;
  return chains->Get(0)->instructions();
}

}  // namespace

PteMethodSource::PteMethodSource(const PteProgram& program, size_t method)
    : program_(program), method_(method), plan_(program.plan(method)) {}

const char* PteMethodSource::name() const { return program_.method_name(method_); }

size_t PteMethodSource::num_values() const { return count(plan_->values()); }

Error PteMethodSource::build_values(const ValueBuildContext& context, Span<EValue> values) const {
  ValueTableContext ctx;
  ctx.program = &program_;
  ctx.plan = plan_;
  ctx.memory = context.memory;
  ctx.external = context.external;
  ctx.method = name();
  ctx.sizing = context.sizing;
  ctx.lifetime_offsets = program_.lifetime_offsets(method_);
  ctx.per_shape = program_.plans_per_shape(method_);
  ctx.views = program_.per_shape_views(method_);
  return parse_values(ctx, values);
}

Span<const int32_t> PteMethodSource::inputs() const { return as_span(plan_->inputs()); }

Span<const int32_t> PteMethodSource::outputs() const { return as_span(plan_->outputs()); }

size_t PteMethodSource::num_planned_buffers() const {
  return program_.num_planned_buffers(method_);
}

size_t PteMethodSource::num_operators() const { return count(plan_->operators()); }

Result<OperatorRef> PteMethodSource::operator_at(size_t index) const {
  const fb::Operator* op = plan_->operators()->Get(static_cast<flatbuffers::uoffset_t>(index));
  TRI_CHECK(op != nullptr && op->name() != nullptr, Error::InvalidProgram,
            "method '%s': operator %zu has no name", name(), index);
  OperatorRef ref;
  ref.name = op->name()->c_str();
  ref.overload = op->overload() ? op->overload()->c_str() : "";
  return ref;
}

size_t PteMethodSource::num_delegates() const { return count(plan_->delegates()); }

Result<DelegateRef> PteMethodSource::delegate_at(size_t index) const {
  const fb::BackendDelegate* d = plan_->delegates()->Get(static_cast<flatbuffers::uoffset_t>(index));
  TRI_CHECK(d != nullptr && d->id() != nullptr, Error::InvalidProgram,
            "delegate %zu has no backend id", index);
  const fb::BackendDelegateDataReference* processed = d->processed();
  TRI_CHECK(processed != nullptr, Error::InvalidProgram, "delegate %zu has no processed data",
            index);
  DelegateRef ref;
  ref.backend_id = d->id()->c_str();
  TRI_ASSIGN_OR_RETURN(ref.processed,
                       program_.delegate_data(static_cast<uint32_t>(processed->location()),
                                              processed->index()));
  ref.num_compile_specs = count(d->compile_specs());
  return ref;
}

Result<CompileSpec> PteMethodSource::compile_spec_at(size_t delegate, size_t index) const {
  const fb::BackendDelegate* d =
      plan_->delegates()->Get(static_cast<flatbuffers::uoffset_t>(delegate));
  const fb::CompileSpec* spec = d->compile_specs()->Get(static_cast<flatbuffers::uoffset_t>(index));
  TRI_CHECK(spec != nullptr, Error::InvalidProgram, "delegate %zu: compile spec %zu is missing",
            delegate, index);
  CompileSpec out;
  out.key = spec->key() ? spec->key()->c_str() : "";
  out.value = spec->value() ? ByteSpan(spec->value()->data(), spec->value()->size()) : ByteSpan();
  return out;
}

const NamedDataMap* PteMethodSource::named_data() const { return &program_.named_data(); }

size_t PteMethodSource::num_instructions() const { return count(instructions_of(plan_)); }

Result<InstructionRef> PteMethodSource::instruction_at(size_t index) const {
  const fb::Instruction* in =
      instructions_of(plan_)->Get(static_cast<flatbuffers::uoffset_t>(index));
  TRI_CHECK(in != nullptr, Error::InvalidProgram, "missing instruction");
  // The verifier accepts a union type without its table.
  TRI_CHECK(in->instr_args_type() == fb::InstructionArguments::NONE || in->instr_args() != nullptr,
            Error::InvalidProgram, "the instruction's %s table is missing",
            fb::EnumNameInstructionArguments(in->instr_args_type()));
  InstructionRef ref;
  switch (in->instr_args_type()) {
    case fb::InstructionArguments::KernelCall: {
      const fb::KernelCall* call = in->instr_args_as_KernelCall();
      ref.kind = InstructionKind::KernelCall;
      ref.target = call->op_index();
      ref.args = as_span(call->args());
      return ref;
    }
    case fb::InstructionArguments::DelegateCall: {
      const fb::DelegateCall* call = in->instr_args_as_DelegateCall();
      ref.kind = InstructionKind::DelegateCall;
      ref.target = call->delegate_index();
      ref.args = as_span(call->args());
      return ref;
    }
    case fb::InstructionArguments::MoveCall: {
      const fb::MoveCall* call = in->instr_args_as_MoveCall();
      ref.kind = InstructionKind::Move;
      ref.a = call->move_from();
      ref.b = call->move_to();
      return ref;
    }
    case fb::InstructionArguments::JumpFalseCall: {
      const fb::JumpFalseCall* call = in->instr_args_as_JumpFalseCall();
      ref.kind = InstructionKind::JumpFalse;
      ref.a = call->cond_value_index();
      ref.b = call->destination_instruction();
      return ref;
    }
    case fb::InstructionArguments::FreeCall:
      ref.kind = InstructionKind::Free;
      ref.a = in->instr_args_as_FreeCall()->value_index();
      return ref;
    default:
      return fail(Error::InvalidProgram, "instruction of unknown type %d",
                  static_cast<int>(in->instr_args_type()));
  }
}

}  // namespace tri::pte
