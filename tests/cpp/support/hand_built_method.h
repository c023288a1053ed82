// Test-only helpers for methods built by hand over a value table the test
// owns: instructions, a run that returns the first output's values, and
// the context a method pass sees.
#pragma once

#include <cstdint>
#include <vector>

#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/executor/instruction.h"
#include "cpp/runtime/executor/method_pass.h"

namespace tri::testing {

struct HandBuiltMethod {
  std::vector<EValue> values;
  std::vector<int32_t> inputs, outputs;
  // What the method runs now (a pass may replace them).
  Span<Instruction> instructions;
  Span<ResolvedOperator> operators;
};

// The registered kernel `full_name`, resolved as a method's load resolves it
// (an empty entry when none is registered, for the test to report).
ResolvedOperator resolved(const char* full_name);

// A KernelCall of operator `op` over `args` (which must outlive it).
Instruction kernel_call(uint32_t op, std::vector<EValue*>& args);

// Runs the method once (expecting success) and returns output 0's values.
std::vector<double> run_first_output(HandBuiltMethod& method, MemoryAllocator* temp);

// The context of a pass over `method`, allocating from `alloc`.
MethodPassContext pass_context(HandBuiltMethod& method, MemoryAllocator* alloc, bool sizing,
                               const PlannedMemory* planned = nullptr);

}  // namespace tri::testing
