// Maps an ExecutionPlan's value table into EValues: scalars and lists by
// value or by slot, tensors bound to their memory (constants in the file,
// planned buffers, external data, or nothing yet for run-time inputs).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/named_data_map.h"
#include "cpp/runtime/executor/program.h"

namespace executorch_flatbuffer {
struct ExecutionPlan;
struct Tensor;
}

namespace tri::pte {

class PteProgram;

// Sets `out`'s type, shape and layout from `t` (no data).
Error parse_tensor_shape(const executorch_flatbuffer::Tensor* t, Tensor* out);

struct ValueTableContext {
  const PteProgram* program = nullptr;
  const executorch_flatbuffer::ExecutionPlan* plan = nullptr;
  MemoryManager* memory = nullptr;
  const NamedDataMap* external = nullptr;
  const char* method = "";
  // Sizing (method_builder.h): allocate as a real build does, but bind no
  // planned memory and copy no data.
  bool sizing = false;
  // A plan by lifetimes (pte_lifetime_plan.h): every planned tensor's
  // offset in planned buffer 1, by value index; null: the file's plan.
  const uint64_t* lifetime_offsets = nullptr;
  // Planning per shape (pte_lifetime_plan.h): planned tensors get no memory
  // here; the method's inputs are bound by the caller, the rest by
  // memory->binder as the run sizes them.
  bool per_shape = false;
  // Per value, whether it is a view a kernel points at its base (per shape).
  const uint8_t* views = nullptr;
};

// Builds every value of the plan into `values` (already allocated, one per
// entry of plan->values()).
Error parse_values(const ValueTableContext& context, Span<EValue> values);

// The declared kind/type/shape of value `index`, for method signatures.
Result<ValueInfo> describe_value(const executorch_flatbuffer::ExecutionPlan* plan,
                                 int32_t index);

}  // namespace tri::pte
