#include "tests/cpp/support/hand_built_method.h"

#include <gtest/gtest.h>

#include "cpp/runtime/executor/method.h"
#include "tests/cpp/support/tensor_factory.h"

namespace tri::testing {

ResolvedOperator resolved(const char* full_name) {
  ResolvedOperator op;
  if (const KernelEntry* entry = find_kernel(full_name)) op.kernel = *entry;
  op.name = full_name;
  return op;
}

Instruction kernel_call(uint32_t op, std::vector<EValue*>& args) {
  Instruction in;
  in.kind = InstructionKind::KernelCall;
  in.target = op;
  in.args = args.data();
  in.num_args = static_cast<uint32_t>(args.size());
  return in;
}

std::vector<double> run_first_output(HandBuiltMethod& method, MemoryAllocator* temp) {
  MethodPlan plan;
  plan.name = "forward";
  plan.values = Span<EValue>(method.values.data(), method.values.size());
  plan.instructions = method.instructions;
  plan.inputs = Span<const int32_t>(method.inputs.data(), method.inputs.size());
  plan.outputs = Span<const int32_t>(method.outputs.data(), method.outputs.size());
  plan.operators = method.operators;
  Method m(plan, temp);
  EXPECT_EQ(m.execute(), Error::Ok) << last_error_message();
  return TensorFactory::values(m.output(0).to_tensor());
}

MethodPassContext pass_context(HandBuiltMethod& method, MemoryAllocator* alloc, bool sizing,
                               const PlannedMemory* planned) {
  MethodPassContext ctx;
  ctx.method_name = "forward";
  ctx.values = Span<EValue>(method.values.data(), method.values.size());
  ctx.inputs = Span<const int32_t>(method.inputs.data(), method.inputs.size());
  ctx.outputs = Span<const int32_t>(method.outputs.data(), method.outputs.size());
  ctx.alloc = alloc;
  ctx.sizing = sizing;
  ctx.planned = planned;
  return ctx;
}

}  // namespace tri::testing
