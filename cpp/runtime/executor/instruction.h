// The instructions of a loaded method, resolved at load time so the run loop
// only indexes: a kernel call carries its function pointer and its argument
// slots, never a name to look up.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/backend/backend.h"
#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri {

enum class InstructionKind : uint8_t {
  KernelCall,
  DelegateCall,
  Move,
  JumpFalse,
  Free,
};

struct Instruction {
  InstructionKind kind = InstructionKind::KernelCall;
  // KernelCall: operator index; DelegateCall: delegate index.
  uint32_t target = 0;
  // Move: from, to. JumpFalse: condition value, destination. Free: value.
  int32_t a = 0;
  int32_t b = 0;
  // KernelCall / DelegateCall arguments, resolved to value slots.
  EValue** args = nullptr;
  uint32_t num_args = 0;
  // The file's instructions this one runs, [source, source + source_count):
  // itself, or the whole chain a load-time pass fused into it. Profiles
  // report it, so a tool can put each time on the file's own instructions.
  uint32_t source = 0;
  uint32_t source_count = 1;
};

struct ResolvedOperator {
  // A copy of the registry's entry, taken at load: registering or removing a
  // kernel later never changes a method that is already built.
  KernelEntry kernel;
  // "aten::add.out", for messages.
  const char* name = nullptr;
};

struct DelegateInstance {
  const Backend* backend = nullptr;
  void* handle = nullptr;
  const char* backend_id = nullptr;
};

}  // namespace tri
