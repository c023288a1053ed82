// A .pte method's memory plan made again by the core lifetime planner
// (lifetime_planner.h), as the .pt2 front end plans its intermediates, for
// methods where that provably runs the same program.
//
// Why: the file's plan (ExecuTorch's, or our writer's) puts a tensor over
// bytes that the step before just wrote or read. On two threads a kernel
// whose split differs from the last writer's then writes lines the other
// core holds, and on this VM's slow state that cost mobilenet_v2 about a
// millisecond (×1.52 against ×1.68 on two threads, docs/performance.md).
// The lifetime planner places the largest buffers first and lets an
// element-wise op write over the input it consumes, which is what the .pt2
// path already measured best with. And a view_copy (or squeeze, unsqueeze,
// clone...) whose input dies there sits on the input's bytes, so it copies
// nothing: the exporter plans every view as a copy, and the transformer
// layer's eleven cost 0.1 ms of its 7 on one thread.
//
// Safe only when every planned tensor is a plain activation, so a method is
// re-planned only if (otherwise NotSupported says which rule failed, and the
// file's plan stays):
// - every planned tensor lives in planned buffer 1, inside it, and carries
//   no initial data (data_buffer_idx, extra_tensor_info: state kept across
//   runs);
// - every instruction is a KernelCall (no delegates, whose arguments do not
//   say which they write; no jumps or moves, whose lifetimes are not a span);
// - every planned tensor that is not a method input is first named by a
//   kernel as its out (the value also appears as the returned alias), so
//   nothing is read before this run writes it;
// - no two tensors live at the same step share bytes in the file's plan
//   (a deliberate alias, e.g. an elided view, must stay one);
// - no kernel returns a view, a tensor with no memory of its own
//   (executorch_prim::et_view): this planner would let its base die at the
//   view's birth.
//
// The same rules, views allowed, say whether a method may be planned at each
// run's shapes instead (check_replannable): its planned tensors then get no
// memory at load, and the core's per-shape schedule (runtime/executor/
// lazy_plan.h) binds them as the run's kernels size them, keeping a view's
// base alive as long as the view. That is how a bounded-dynamic method whose
// file plan (made at the upper bound) is over max_planned_bytes still runs.
#pragma once

#include <cstdint>

#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"

namespace executorch_flatbuffer {
struct ExecutionPlan;
}

namespace tri::pte {

// Planned tensors a method may have and still be re-planned: the alias
// check and the planner are quadratic in it.
constexpr size_t kMaxLifetimePlannedTensors = 8192;

// Fills `offsets` (one entry per value; planned tensors get their offset in
// the single new buffer, other values 0) and returns that buffer's size, at
// most `max_bytes`. `scratch` holds working arrays: kLifetimePlanScratchFixed
// bytes and kLifetimePlanScratchPerValue per value are enough.
constexpr size_t kLifetimePlanScratchPerValue = 160;
constexpr size_t kLifetimePlanScratchFixed = 4096;
Result<uint64_t> plan_by_lifetimes(const executorch_flatbuffer::ExecutionPlan* plan,
                                   Span<uint64_t> offsets, MemoryAllocator scratch,
                                   uint64_t max_bytes);

// Whether the method may be planned per shape instead (method.h's
// LazyTensor; the host binds its tensors as each run sizes them): the same
// rules, except that views are allowed, because the per-shape schedule
// keeps a view's base alive for the view's uses. Same scratch as above.
// `views` (one per value) comes back 1 for each view a kernel returns
// (executorch_prim::et_view, planned by ExecuTorch at its base's bytes):
// planned per shape, those get no memory, and their kernel points them at
// their base.
Error check_replannable(const executorch_flatbuffer::ExecutionPlan* plan,
                        MemoryAllocator scratch, Span<uint8_t> views);

}  // namespace tri::pte
