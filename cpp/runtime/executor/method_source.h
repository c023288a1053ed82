// What a format front end tells the method builder about one method, in
// format-neutral terms: its operators by name, its delegates by backend id
// and blob, its instructions with value indices, and a way to fill its value
// table. The builder (method_builder.h) does the rest — resolution, checks,
// delegate init and cleanup, sizing — once for every format.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/backend/backend.h"
#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/named_data_map.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/executor/instruction.h"

namespace tri {

struct OperatorRef {
  // "aten::add" and "out" ("" for none); both NUL-terminated and living as
  // long as the program.
  const char* name = "";
  const char* overload = "";
};

struct DelegateRef {
  const char* backend_id = "";  // lives as long as the program
  ByteSpan processed;
  size_t num_compile_specs = 0;
};

// Indices exactly as the file has them; the builder checks every one.
struct InstructionRef {
  InstructionKind kind = InstructionKind::KernelCall;
  // KernelCall: operator index; DelegateCall: delegate index.
  int64_t target = 0;
  // Move: from, to. JumpFalse: condition value, destination instruction.
  // Free: value.
  int64_t a = 0;
  int64_t b = 0;
  // KernelCall / DelegateCall arguments: value indices.
  Span<const int32_t> args;
};

struct ValueBuildContext {
  // `method` holds the values' bookkeeping (tensors, list boxes). `planned`
  // is null while sizing.
  MemoryManager* memory = nullptr;
  const NamedDataMap* external = nullptr;
  // Sizing (method_builder.h): allocate exactly as a real build would, but
  // bind no planned memory and copy no data.
  bool sizing = false;
};

class MethodSource {
 public:
  virtual const char* name() const = 0;

  virtual size_t num_values() const = 0;
  // Fills `values` (one per value; allocated by the builder). Values may
  // point at each other (lists hold slots), and tensors at constants, planned
  // memory or external data, as the format says.
  virtual Error build_values(const ValueBuildContext& context, Span<EValue> values) const = 0;
  virtual Span<const int32_t> inputs() const = 0;
  virtual Span<const int32_t> outputs() const = 0;
  // Buffers the method's planned tensors live in (MemoryManager::planned).
  virtual size_t num_planned_buffers() const = 0;

  virtual size_t num_operators() const = 0;
  virtual Result<OperatorRef> operator_at(size_t index) const = 0;

  virtual size_t num_delegates() const = 0;
  virtual Result<DelegateRef> delegate_at(size_t index) const = 0;
  // Spec `index` of delegate `delegate`; key and value live as long as the
  // program.
  virtual Result<CompileSpec> compile_spec_at(size_t delegate, size_t index) const = 0;
  // Data delegates look up by key before any external file (a .pte's named
  // data); nullptr for none.
  virtual const NamedDataMap* named_data() const { return nullptr; }

  virtual size_t num_instructions() const = 0;
  virtual Result<InstructionRef> instruction_at(size_t index) const = 0;

 protected:
  ~MethodSource() = default;
};

}  // namespace tri
