// Running a kernel of the shared library (cpp/kernels) on delegate values:
// the XNNPACK nodes whose math ATen's out variants already implement (with
// their SIMD paths) call them through the registry, resolved once at load.
#pragma once

#include "cpp/delegates/xnnpack/xnn_ops.h"
#include "cpp/runtime/core/evalue.h"

namespace tri::xnnpack {

// Resolves `name` (e.g. "aten::sigmoid.out") into node.kernel.
Error bind_library_kernel(Node& node, const char* name);

// Calls node.kernel with `args` (KernelCall layout: inputs, outs, returned
// value).
Error call_library_kernel(const Node& node, RunContext& ctx, EValue* args, size_t n);

inline EValue string_value(const char* text, size_t size) {
  EValue e;
  e.tag = Tag::String;
  e.payload.as_string.data = text;
  e.payload.as_string.size = size;
  return e;
}

}  // namespace tri::xnnpack
