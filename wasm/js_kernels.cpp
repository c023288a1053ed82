// Kernels written in JavaScript (`registerKernel` in the JS API). Each is
// registered under its name with one C++ trampoline; a call describes its
// arguments as JSON (tensors by address, so JS makes typed-array views on
// the wasm memory and writes the outs in place) and calls the module's
// `tridentRunJsKernel(name, argsJson)`, which returns "" or an error message.
#include "wasm/js_kernels.h"

#include <emscripten/val.h>

#include <deque>
#include <string>

#include <nlohmann/json.hpp>

#include "cpp/host/value_json.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri::wasm {
namespace {

struct JsKernel {
  std::string name;
};

// Registry entries point at these names, so they never move.
std::deque<JsKernel>& js_kernels() {
  static std::deque<JsKernel> kernels;
  return kernels;
}

Error call_js_kernel(KernelContext& context, KernelArgs& args) {
  const JsKernel& kernel = *static_cast<const JsKernel*>(context.user_data);
  nlohmann::json described = nlohmann::json::array();
  for (size_t i = 0; i < args.size(); ++i) {
    const EValue& value = args.at(i);
    if (value.is_tensor() && !value.to_tensor().is_contiguous()) {
      return fail(Error::NotSupported,
                  "JS kernel %s: argument %zu is not stored contiguously; JS kernels take "
                  "contiguous tensors (convert it with _to_dim_order_copy first)",
                  kernel.name.c_str(), i);
    }
    described.push_back(host::value_json(value, /*with_pointer=*/true));
  }
  const emscripten::val run = emscripten::val::module_property("tridentRunJsKernel");
  if (run.isUndefined()) {
    return fail(Error::InvalidState, "JS kernel %s: the JS side is not attached",
                kernel.name.c_str());
  }
  const std::string error =
      run(emscripten::val(kernel.name), emscripten::val(described.dump())).as<std::string>();
  if (!error.empty()) {
    return fail(Error::Internal, "JS kernel %s: %s", kernel.name.c_str(), error.c_str());
  }
  return Error::Ok;
}

}  // namespace

int register_js_kernel(const std::string& name) {
  for (const JsKernel& k : js_kernels()) {
    if (k.name == name) return 0;  // the JS side swaps the function itself
  }
  js_kernels().push_back(JsKernel{name});
  const JsKernel& k = js_kernels().back();
  const Error err = register_kernel(KernelEntry{k.name.c_str(), &call_js_kernel, -1, &k},
                                    /*replace=*/true);
  return static_cast<int>(err);
}

}  // namespace tri::wasm
