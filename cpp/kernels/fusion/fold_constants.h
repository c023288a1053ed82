// Constant folding at load, for the copy and view kernels.
//
// A `.pt2` linear layer arrives as permute_copy(weight) then mm: the
// weight is a constant, yet every run transposed it again (1.4 ms of
// resnet18's classifier; the transformer layer's `.pt2` ran 1.2 ms behind
// its `.pte`, which ExecuTorch had folded at export). This pass runs such a
// kernel once while the method loads, into memory of its own from the
// method allocator, points the output value at that memory and drops the
// instruction. It applies to a KernelCall of one of the copy kernels below
// whose one tensor input is a constant (MethodPassContext::is_constant_tensor)
// that only this instruction uses, and whose output is static in shape and
// neither a method input nor an output; a kernel that fails at load keeps
// its instruction.
#pragma once

#include "cpp/runtime/executor/method_pass.h"

namespace tri::kernels {

// The method pass (register with register_method_pass).
Error fold_constant_copies(const MethodPassContext& context, Span<Instruction>* instructions,
                           Span<ResolvedOperator>* operators);

}  // namespace tri::kernels
