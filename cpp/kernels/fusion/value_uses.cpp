#include "cpp/kernels/fusion/value_uses.h"

#include <cstring>

namespace tri::kernels {

Result<ValueUses> ValueUses::count(const MethodPassContext& ctx, Span<const Instruction> instructions) {
  ValueUses u;
  u.base_ = ctx.values.data();
  u.size_ = ctx.values.size();
  u.counts_ = ctx.alloc->allocate_array<uint32_t>(u.size_);
  TRI_CHECK(u.counts_ != nullptr, Error::MemoryAllocationFailed,
            "method '%s': no memory to count value uses", ctx.method_name);
  memset(u.counts_, 0, u.size_ * sizeof(uint32_t));
  for (const Instruction& in : instructions) {
    switch (in.kind) {
      case InstructionKind::KernelCall:
      case InstructionKind::DelegateCall:
        for (uint32_t a = 0; a < in.num_args; ++a) u.add(u.index(in.args[a]));
        break;
      case InstructionKind::Move:
        u.add(in.a);
        u.add(in.b);
        break;
      case InstructionKind::JumpFalse:
      case InstructionKind::Free:
        u.add(in.a);
        break;
    }
  }
  for (int32_t v : ctx.inputs) u.add(v);
  for (int32_t v : ctx.outputs) u.add(v);
  return u;
}

int64_t ValueUses::index(const EValue* v) const {
  if (v < base_ || v >= base_ + size_) return -1;
  return v - base_;
}

bool ValueUses::only_in(const EValue* v, const Instruction& in) const {
  const int64_t i = index(v);
  if (i < 0) return false;
  uint32_t here = 0;
  for (uint32_t a = 0; a < in.num_args; ++a) here += in.args[a] == v ? 1 : 0;
  return counts_[i] == here;
}

bool ValueUses::read_once_by(const EValue* v, const Instruction& producer,
                             const Instruction& reader) const {
  const int64_t i = index(v);
  if (i < 0) return false;
  uint32_t in_producer = 0, in_reader = 0;
  for (uint32_t a = 0; a < producer.num_args; ++a) in_producer += producer.args[a] == v ? 1 : 0;
  for (uint32_t a = 0; a < reader.num_args; ++a) in_reader += reader.args[a] == v ? 1 : 0;
  return in_reader == 1 && counts_[i] == in_producer + 1;
}

void ValueUses::add(int64_t i) {
  if (i >= 0 && static_cast<size_t>(i) < size_) ++counts_[i];
}

bool is_call(const Instruction& in, Span<const ResolvedOperator> ops, const char* name,
             uint32_t min_args) {
  return in.kind == InstructionKind::KernelCall && in.target < ops.size() &&
         ops[in.target].name != nullptr && strcmp(ops[in.target].name, name) == 0 &&
         in.num_args >= min_args;
}

}  // namespace tri::kernels
