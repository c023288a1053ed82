#include "cpp/kernels/fusion/fold_constants.h"

#include <cstring>

#include "cpp/kernels/fusion/value_uses.h"

namespace tri::kernels {
namespace {

// Copy kernels whose first argument is their one tensor input, whose other
// inputs are plain values (dims, sizes, dtypes), and whose arguments end
// with the out tensor and the returned alias of it. Each reads its input
// and writes its out, nothing else, and needs no scratch.
constexpr const char* kFoldable[] = {
    "aten::permute_copy.out",   "aten::t_copy.out",         "aten::transpose_copy.int_out",
    "aten::view_copy.out",      "aten::unsqueeze_copy.out", "aten::squeeze_copy.out",
    "aten::squeeze_copy.dim_out", "aten::squeeze_copy.dims_out", "aten::expand_copy.out",
    "aten::clone.out",          "aten::_to_copy.out",       "aten::alias_copy.out",
    "dim_order_ops::_to_dim_order_copy.out", "dim_order_ops::_clone_dim_order.out",
};

bool foldable_kernel(const Instruction& in, Span<const ResolvedOperator> ops) {
  if (in.kind != InstructionKind::KernelCall || in.target >= ops.size() || in.num_args < 3) {
    return false;
  }
  const ResolvedOperator& op = ops[in.target];
  if (op.kernel.fn == nullptr || op.name == nullptr ||
      op.kernel.num_args != static_cast<int32_t>(in.num_args)) {
    return false;
  }
  for (const char* name : kFoldable) {
    if (strcmp(op.name, name) == 0) return true;
  }
  return false;
}

// The instruction's out, when the instruction may fold; else null.
EValue* fold_target(const MethodPassContext& ctx, const Instruction& in,
                    Span<const ResolvedOperator> ops, const ValueUses& uses) {
  if (!foldable_kernel(in, ops)) return nullptr;
  const EValue* input = in.args[0];
  EValue* out = in.args[in.num_args - 2];
  if (in.args[in.num_args - 1] != out || out == input || !out->is_tensor() ||
      !ctx.is_constant_tensor(*input) || !uses.only_in(input, in)) {
    return nullptr;
  }
  for (uint32_t a = 1; a + 2 < in.num_args; ++a) {
    if (in.args[a]->is_tensor() || in.args[a] == out) return nullptr;
  }
  const int64_t slot = uses.index(out);
  if (slot < 0) return nullptr;
  for (int32_t v : ctx.inputs) {
    if (v == slot) return nullptr;
  }
  for (int32_t v : ctx.outputs) {
    if (v == slot) return nullptr;
  }
  const Tensor& t = out->to_tensor();
  if (t.dynamism() != ShapeDynamism::Static) return nullptr;
  return out;
}

// Runs `in` once with its out in new memory from ctx.alloc. False (out as
// it was) when the kernel fails; sizing only takes the memory.
Result<bool> fold(const MethodPassContext& ctx, const Instruction& in,
                  Span<const ResolvedOperator> ops, EValue* out, size_t index) {
  Tensor& t = out->to_tensor();
  const size_t nbytes = t.nbytes();
  void* memory = ctx.alloc->allocate(nbytes == 0 ? 1 : nbytes, kDefaultAlignment);
  TRI_CHECK(memory != nullptr, Error::MemoryAllocationFailed,
            "method '%s': no memory to fold instruction %zu", ctx.method_name, index);
  if (ctx.sizing) return true;
  void* const planned = t.mutable_data();
  const size_t planned_bytes = t.capacity_bytes();
  t.set_data(memory, nbytes);
  KernelContext kernel_context;
  kernel_context.user_data = ops[in.target].kernel.user_data;
  KernelArgs args(in.args, in.num_args);
  if (ops[in.target].kernel.fn(kernel_context, args) != Error::Ok) {
    t.set_data(planned, planned_bytes);
    return false;
  }
  return true;
}

}  // namespace

Error fold_constant_copies(const MethodPassContext& ctx, Span<Instruction>* instructions,
                           Span<ResolvedOperator>* operators) {
  Span<Instruction> ins = *instructions;
  bool any = false;
  for (const Instruction& in : ins) any = any || foldable_kernel(in, *operators);
  if (!any) return Error::Ok;
  TRI_ASSIGN_OR_RETURN(const ValueUses uses, ValueUses::count(ctx, ins));
  size_t kept = 0;
  for (size_t i = 0; i < ins.size(); ++i) {
    EValue* out = fold_target(ctx, ins[i], *operators, uses);
    if (out != nullptr) {
      TRI_ASSIGN_OR_RETURN(const bool folded, fold(ctx, ins[i], *operators, out, i));
      if (folded) continue;
    }
    ins[kept++] = ins[i];
  }
  *instructions = Span<Instruction>(ins.data(), kept);
  return Error::Ok;
}

}  // namespace tri::kernels
