#include "cpp/runtime/executor/method_pass.h"

namespace tri {
namespace {

MethodPass g_passes[kMaxMethodPasses] = {};
size_t g_num_passes = 0;

}  // namespace

bool MethodPassContext::is_constant_tensor(const EValue& v) const {
  if (!v.is_tensor()) return false;
  const void* data = v.to_tensor().data();
  return data != nullptr && (planned == nullptr || !planned->contains(data));
}

Error register_method_pass(MethodPass pass) {
  TRI_CHECK(pass != nullptr, Error::InvalidArgument, "register_method_pass: null pass");
  for (size_t i = 0; i < g_num_passes; ++i) {
    if (g_passes[i] == pass) return Error::Ok;
  }
  TRI_CHECK(g_num_passes < kMaxMethodPasses, Error::LimitExceeded,
            "register_method_pass: at most %zu passes", kMaxMethodPasses);
  g_passes[g_num_passes++] = pass;
  return Error::Ok;
}

Error run_method_passes(const MethodPassContext& context, Span<Instruction>* instructions,
                        Span<ResolvedOperator>* operators) {
  for (size_t i = 0; i < g_num_passes; ++i) {
    TRI_TRY(g_passes[i](context, instructions, operators));
  }
  return Error::Ok;
}

void clear_method_passes() { g_num_passes = 0; }

}  // namespace tri
