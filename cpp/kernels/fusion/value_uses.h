// What the load-time passes of this folder ask of a method's value table:
// how often each value appears anywhere (instruction arguments, moves,
// frees, jumps, inputs and outputs), so that a pass rewrites only what no
// other part of the method can see.
#pragma once

#include <cstdint>

#include "cpp/runtime/core/result.h"
#include "cpp/runtime/executor/method_pass.h"

namespace tri::kernels {

class ValueUses {
 public:
  // Counts in ctx.alloc (one uint32_t per value).
  static Result<ValueUses> count(const MethodPassContext& ctx, Span<const Instruction> instructions);

  // The value's slot, or -1 for an EValue outside the table.
  int64_t index(const EValue* v) const;

  // True when every use of `v` is an argument of `in`.
  bool only_in(const EValue* v, const Instruction& in) const;

  // True when `v`'s uses are its producer's arguments and one read by `reader`.
  bool read_once_by(const EValue* v, const Instruction& producer, const Instruction& reader) const;

 private:
  void add(int64_t i);

  const EValue* base_ = nullptr;
  size_t size_ = 0;
  uint32_t* counts_ = nullptr;
};

// A KernelCall of operator `name` with at least `min_args` arguments.
bool is_call(const Instruction& in, Span<const ResolvedOperator> ops, const char* name,
             uint32_t min_args);

}  // namespace tri::kernels
