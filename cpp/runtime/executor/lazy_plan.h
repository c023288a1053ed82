// Per-shape planning's schedule: when each tensor a front end left to the run
// (a tensor with a TensorBinder, tensor.h) is bound and released, worked out
// from the method's instructions as they will run, after the load-time
// passes have rewritten them. A front end only says which tensors are lazy;
// this is the same for every format.
//
// A tensor lives from the first instruction that names it (which must name
// it only as an out: a kernel reading it there would read through a null
// pointer) to the last. A view (a kernel's returned tensor that has no memory of its own,
// e.g. executorch_prim::et_view) shares its inputs' bytes, so they live as
// long as it, and its own views. Outputs live until the next run starts.
#pragma once

#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/executor/instruction.h"
#include "cpp/runtime/executor/method.h"

namespace tri {

struct LazySchedule {
  Span<LazyTensor> lazy;             // by first
  Span<const uint32_t> lazy_by_last; // indices into lazy
};

// Empty when no tensor has a binder. NotSupported when one does and the
// method is not straight-line kernel calls (jumps, moves, frees and delegate
// calls do not say what they write), or when a call names a lazy tensor
// before any writes it. Working arrays come from `alloc`.
Result<LazySchedule> plan_lazy_tensors(Span<EValue> values, Span<const Instruction> instructions,
                                       Span<const int32_t> inputs, Span<const int32_t> outputs,
                                       MemoryAllocator& alloc);

// Whether a call's returned value is a list of tensors passed as separate
// outs (e.g. values and indices) rather than one out argument: the kernel,
// not the call, says how many of those arguments it writes, so a hostile
// call can list an input among them.
bool returns_separate_outs(const Instruction& instr);

}  // namespace tri
