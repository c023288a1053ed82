// One ExecutionPlan of a .pte file, as the method builder reads it: the
// flatbuffer's operators, delegates and instructions handed over as they are
// (the builder checks every index), and its value table filled by
// pte_values.cpp.
#pragma once

#include <cstddef>

#include "cpp/runtime/executor/method_source.h"

namespace executorch_flatbuffer {
struct ExecutionPlan;
}

namespace tri::pte {

class PteProgram;

class PteMethodSource final : public MethodSource {
 public:
  PteMethodSource(const PteProgram& program, size_t method);

  const char* name() const override;
  size_t num_values() const override;
  Error build_values(const ValueBuildContext& context, Span<EValue> values) const override;
  Span<const int32_t> inputs() const override;
  Span<const int32_t> outputs() const override;
  size_t num_planned_buffers() const override;
  size_t num_operators() const override;
  Result<OperatorRef> operator_at(size_t index) const override;
  size_t num_delegates() const override;
  Result<DelegateRef> delegate_at(size_t index) const override;
  Result<CompileSpec> compile_spec_at(size_t delegate, size_t index) const override;
  const NamedDataMap* named_data() const override;
  size_t num_instructions() const override;
  Result<InstructionRef> instruction_at(size_t index) const override;

 private:
  const PteProgram& program_;
  size_t method_;
  const executorch_flatbuffer::ExecutionPlan* plan_;
};

}  // namespace tri::pte
