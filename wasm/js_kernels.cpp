// Kernels written in JavaScript (`registerKernel` in the JS API). Each is
// registered under its name with one C++ trampoline; a call describes its
// arguments as value records (cpp/host/value_descriptor.h: tensors by
// address, so JS makes typed-array views on the wasm memory and writes the
// outs in place) and calls the module's `tridentRunJsKernel(id, records,
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

// One registerKernel() call. Each gets its own record and id, so that a
// method built while it was registered keeps calling the same JS function
// after a later registration of the name or its removal.
struct JsKernel {
  std::string name;
  double id;
};

// Registry entries and built methods point at these names, so they never
// move and are never freed (one per registerKernel() call).
std::deque<JsKernel>& js_kernels() {
  static std::deque<JsKernel> kernels;
  return kernels;
}

// The built-in kernels that JS kernels replaced, to put back on removal.
std::vector<KernelEntry>& displaced_builtins() {
  static std::vector<KernelEntry> entries;
  return entries;
}

const KernelEntry* displaced_builtin(const std::string& name) {
  for (const KernelEntry& e : displaced_builtins()) {
    if (name == e.name) return &e;
  }
  return nullptr;
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
  // Only numbers cross; only an error's message is copied back.
  const emscripten::val error =
      run(emscripten::val(kernel.id),
          emscripten::val(static_cast<double>(reinterpret_cast<uintptr_t>(records))),
          emscripten::val(static_cast<double>(args.size())));
  if (error.isString()) {
    return fail(Error::Internal, "JS kernel %s: %s", kernel.name.c_str(),
                error.as<std::string>().c_str());
  }
  return Error::Ok;
}

bool is_js_entry(const KernelEntry* entry) { return entry != nullptr && entry->fn == &call_js_kernel; }

}  // namespace

int register_js_kernel(const std::string& name, double id, int outs) {
  const KernelEntry* existing = find_kernel(name.c_str());
  if (existing != nullptr && !is_js_entry(existing) && displaced_builtin(name) == nullptr) {
    displaced_builtins().push_back(*existing);
  }
  js_kernels().push_back(JsKernel{name, id});
  const JsKernel& k = js_kernels().back();
  KernelEntry entry{k.name.c_str(), &call_js_kernel, -1, &k};
  entry.num_outs = outs;
  return static_cast<int>(register_kernel(entry, /*replace=*/true));
}

int unregister_js_kernel(const std::string& name) {
  if (!is_js_entry(find_kernel(name.c_str()))) return static_cast<int>(Error::NotFound);
  if (const KernelEntry* builtin = displaced_builtin(name)) {
    return static_cast<int>(register_kernel(*builtin, /*replace=*/true));
  }
  return static_cast<int>(unregister_kernel(name.c_str()));
}

bool has_builtin_kernel(const std::string& name) {
  const KernelEntry* entry = find_kernel(name.c_str());
  return displaced_builtin(name) != nullptr || (entry != nullptr && !is_js_entry(entry));
}

}  // namespace tri::wasm
