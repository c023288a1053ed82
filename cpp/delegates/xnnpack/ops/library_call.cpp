#include "cpp/delegates/xnnpack/ops/library_call.h"

#include "cpp/runtime/kernel/kernel_args.h"

namespace tri::xnnpack {

Error bind_library_kernel(Node& node, const char* name) {
  const KernelEntry* kernel = find_kernel(name);
  TRI_CHECK(kernel != nullptr, Error::OperatorMissing,
            "%s runs %s, which is not registered in this build", node_type_name(node.type), name);
  node.kernel = *kernel;
  return Error::Ok;
}

Error call_library_kernel(const Node& node, RunContext& ctx, EValue* args, size_t n) {
  EValue* slots[8];
  for (size_t i = 0; i < n && i < 8; ++i) slots[i] = &args[i];
  KernelArgs kernel_args(slots, n);
  KernelContext context = *ctx.kernel_context;
  context.user_data = node.kernel.user_data;
  TRI_TRY_CONTEXT(node.kernel.fn(context, kernel_args), "%s", node.kernel.name);
  return Error::Ok;
}

}  // namespace tri::xnnpack
