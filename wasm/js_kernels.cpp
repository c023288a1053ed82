// Kernels written in JavaScript (`registerKernel` in the JS API). Each is
// registered under its name with one C++ trampoline; a call describes its
// arguments as value records (cpp/host/value_descriptor.h: tensors by
// address, so JS makes typed-array views on the wasm memory and writes the
// outs in place) and calls the module's `tridentRunJsKernel(name, records,
// count)`, which returns undefined or an error message.
#include "wasm/js_kernels.h"

#include <emscripten/val.h>

#include <deque>
#include <string>
#include <vector>

#include "cpp/host/value_descriptor.h"
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

// Kernels run on the thread that runs the method, one at a time, so one
// table serves every call; it grows to the longest argument list and then
// allocates no more.
struct KernelCallScratch {
  std::vector<const EValue*> values;
  host::ValueDescriptorTable records;
};

KernelCallScratch& call_scratch() {
  static KernelCallScratch scratch;
  return scratch;
}

Error call_js_kernel(KernelContext& context, KernelArgs& args) {
  const JsKernel& kernel = *static_cast<const JsKernel*>(context.user_data);
  KernelCallScratch& scratch = call_scratch();
  if (scratch.values.size() < args.size()) scratch.values.resize(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const EValue& value = args.at(i);
    if (value.is_tensor() && !value.to_tensor().is_contiguous()) {
      return fail(Error::NotSupported,
                  "JS kernel %s: argument %zu is not stored contiguously; JS kernels take "
                  "contiguous tensors (convert it with _to_dim_order_copy first)",
                  kernel.name.c_str(), i);
    }
    scratch.values[i] = &value;
  }
  const host::ValueDescriptor* records =
      scratch.records.fill(Span<const EValue* const>(scratch.values.data(), args.size()));
  const emscripten::val run = emscripten::val::module_property("tridentRunJsKernel");
  if (run.isUndefined()) {
    return fail(Error::InvalidState, "JS kernel %s: the JS side is not attached",
                kernel.name.c_str());
  }
  // A C string becomes a JS string without touching the heap; only an
  // error's message is copied back into it.
  const emscripten::val error =
      run(emscripten::val(kernel.name.c_str()),
          emscripten::val(static_cast<double>(reinterpret_cast<uintptr_t>(records))),
          emscripten::val(static_cast<double>(args.size())));
  if (error.isString()) {
    return fail(Error::Internal, "JS kernel %s: %s", kernel.name.c_str(),
                error.as<std::string>().c_str());
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
