// Load-time rewrites of a method's instructions (operator fusion). The core
// runs them and knows no operator; the kernel library registers them, since
// which kernels fuse is kernel knowledge. Every format's methods go through
// them, in build_method and size_method alike, after the instructions
// resolve and before delegates initialize, so what a pass allocates is
// counted in the method's memory needs like everything else.
#pragma once

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/executor/instruction.h"

namespace tri {

struct MethodPassContext {
  const char* method_name = "";
  Span<EValue> values;
  Span<const int32_t> inputs;
  Span<const int32_t> outputs;
  // Where a pass takes memory (new argument lists, values, constants).
  MemoryAllocator* alloc = nullptr;
  // Sizing: allocate as a real build would, but tensors' planned memory is
  // not bound and constants may not be readable: compute nothing from data.
  bool sizing = false;
  // The method's planned buffers (null while sizing, or when it has none).
  const PlannedMemory* planned = nullptr;

  // True for a tensor whose data the program holds and no run writes
  // through the plan: bound, and outside every planned buffer (constants,
  // external data). While sizing, planned tensors are not bound yet, so the
  // same tensors answer true in both builds.
  bool is_constant_tensor(const EValue& v) const;
};

// A pass may replace the instruction and operator lists (with spans it
// allocated), never grow the value table. Instruction indices change, so a
// pass must leave methods with jumps alone.
using MethodPass = Error (*)(const MethodPassContext& context, Span<Instruction>* instructions,
                             Span<ResolvedOperator>* operators);

constexpr size_t kMaxMethodPasses = 4;

// Adds `pass` (once; registering it again is a no-op). LimitExceeded past
// kMaxMethodPasses.
Error register_method_pass(MethodPass pass);

// Runs every registered pass in registration order.
Error run_method_passes(const MethodPassContext& context, Span<Instruction>* instructions,
                        Span<ResolvedOperator>* operators);

// Removes every pass (tests).
void clear_method_passes();

}  // namespace tri
