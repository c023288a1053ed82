// The operator registry: "namespace::name.overload" -> out-variant kernel.
// Both the .pte and .pt2 front ends resolve every operator here at load time,
// so a missing operator is reported before anything runs.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/kernel/kernel_args.h"

namespace tri {

struct KernelContext {
  // Scratch for this call only; reset between instructions.
  MemoryAllocator* temp = nullptr;
  // Whatever the registration supplied (e.g. the JS function of a custom op).
  const void* user_data = nullptr;
  // A profiled delegate call: a backend that runs nodes of its own adds
  // each one's wall time to node_nanoseconds[i] (i < num_node_timings, in
  // the order of Backend::node_info). Null when not profiling.
  uint64_t* node_nanoseconds = nullptr;
  size_t num_node_timings = 0;
};

// Arguments follow ExecuTorch's KernelCall layout: the schema's inputs in
// order, then the out tensors, then the returned values (which alias outs).
using KernelFn = Error (*)(KernelContext& context, KernelArgs& args);

// Bytes of KernelContext::temp a kernel takes for these arguments, at their
// planned sizes (for bounded tensors, their upper bounds). Methods size the
// scratch arena at load from the largest instruction, so a kernel with this
// function never runs short of scratch. Arguments it cannot make sense of
// count 0: the kernel itself reports them when it runs.
using KernelScratchFn = size_t (*)(KernelArgs& args);

struct KernelEntry {
  // Full schema name, e.g. "aten::add.out" (no overload: "aten::foo").
  const char* name = nullptr;
  KernelFn fn = nullptr;
  // Expected number of KernelCall arguments; -1 when it varies.
  int32_t num_args = -1;
  const void* user_data = nullptr;
  // Kernels that use KernelContext::temp say how much; nullptr: none.
  KernelScratchFn scratch = nullptr;
  // Out tensors the kernel writes, when the kernel declares them (-1: it
  // does not; its num_args or the kernel itself checks the call). A call
  // then passes them right before its one returned value, which is the out
  // tensor or, for several, a TensorList of them; the load checks that.
  int32_t num_outs = -1;
  // The kernel points its returned value at its input's bytes instead of
  // writing it (executorch_prim::et_view): only then may that value come to
  // the call with no memory of its own.
  bool returns_view = false;
};

constexpr size_t kMaxRegisteredKernels = 2048;

// Adds a kernel. Registering a name again replaces the earlier kernel when
// `replace` is set and fails otherwise. The name must stay valid.
Error register_kernel(const KernelEntry& entry, bool replace = false);
Error register_kernels(Span<const KernelEntry> entries);

// Removes the kernel `full_name`; NotFound when none is registered. Methods
// built earlier keep running it: they hold a copy of its entry.
Error unregister_kernel(const char* full_name);

// Looks up "<op_name>.<overload>" (or "<op_name>" when overload is empty).
const KernelEntry* find_kernel(const char* op_name, const char* overload);
const KernelEntry* find_kernel(const char* full_name);

size_t num_registered_kernels();
const KernelEntry& registered_kernel(size_t index);

// Removes every kernel (tests).
void clear_kernel_registry();

}  // namespace tri
