#include "cpp/runtime/async/kernel_frame.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace tri::async {

void KernelFrame::set_result(uint32_t i, AsyncValue* value) {
  if (results_[i] != nullptr) results_[i]->drop_ref();
  results_[i] = value;
}

void KernelFrame::report_error(const char* format, ...) {
  char message[kErrorMessageCapacity];
  va_list args;
  va_start(args, format);
  std::vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  report_error_value(host_.make_error(message));
}

void KernelFrame::report_error_value(AsyncValue* error) {
  host_.emit_diagnostic(Diagnostic{error->error_message(), location_});
  for (AsyncValue*& result : results_) {
    if (result == nullptr) {
      error->add_ref();
      result = error;
    }
  }
  error->drop_ref();
}

namespace {

// Fixed capacity: the registry must not allocate, and every kernel set the
// project builds fits with room to spare.
constexpr size_t kMaxKernels = 512;
KernelEntry g_kernels[kMaxKernels];
size_t g_num_kernels = 0;
bool g_sorted = true;

constexpr size_t kMaxNativeFunctions = 64;
NativeFunctionEntry g_native[kMaxNativeFunctions];
size_t g_num_native = 0;

void sort_kernels() {
  // Insertion sort: registration is rare and the table small.
  for (size_t i = 1; i < g_num_kernels; ++i) {
    KernelEntry entry = g_kernels[i];
    size_t j = i;
    while (j > 0 && std::strcmp(g_kernels[j - 1].name, entry.name) > 0) {
      g_kernels[j] = g_kernels[j - 1];
      --j;
    }
    g_kernels[j] = entry;
  }
  g_sorted = true;
}

}  // namespace

bool register_kernels(Span<const KernelEntry> kernels) {
  if (kernels.size() > kMaxKernels - g_num_kernels) return false;
  for (const KernelEntry& entry : kernels) {
    if (find_kernel(entry.name) != nullptr) continue;  // registering twice is harmless
    g_kernels[g_num_kernels++] = entry;
    g_sorted = false;
  }
  return true;
}

KernelFn find_kernel(const char* name) {
  if (!g_sorted) sort_kernels();
  size_t lo = 0, hi = g_num_kernels;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    const int c = std::strcmp(g_kernels[mid].name, name);
    if (c == 0) return g_kernels[mid].fn;
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return nullptr;
}

size_t num_registered_kernels() { return g_num_kernels; }

bool register_native_functions(Span<const NativeFunctionEntry> functions) {
  if (functions.size() > kMaxNativeFunctions - g_num_native) return false;
  for (const NativeFunctionEntry& entry : functions) {
    if (find_native_function(entry.name) != nullptr) continue;
    g_native[g_num_native++] = entry;
  }
  return true;
}

NativeFn find_native_function(const char* name) {
  for (size_t i = 0; i < g_num_native; ++i) {
    if (std::strcmp(g_native[i].name, name) == 0) return g_native[i].fn;
  }
  return nullptr;
}

}  // namespace tri::async
