#include "cpp/runtime/kernel/operator_registry.h"

#include <cstring>

namespace tri {
namespace {

// A fixed table: the registry must not allocate, and a linear scan of a few
// hundred names happens once per operator at load time, never while running.
KernelEntry g_kernels[kMaxRegisteredKernels];
size_t g_num_kernels = 0;

bool name_matches(const char* key, const char* op_name, const char* overload) {
  const size_t op_len = strlen(op_name);
  if (strncmp(key, op_name, op_len) != 0) {
    return false;
  }
  if (overload == nullptr || overload[0] == '\0') {
    return key[op_len] == '\0';
  }
  return key[op_len] == '.' && strcmp(key + op_len + 1, overload) == 0;
}

KernelEntry* find_mutable(const char* full_name) {
  for (size_t i = 0; i < g_num_kernels; ++i) {
    if (strcmp(g_kernels[i].name, full_name) == 0) {
      return &g_kernels[i];
    }
  }
  return nullptr;
}

}  // namespace

Error register_kernel(const KernelEntry& entry, bool replace) {
  TRI_CHECK(entry.name != nullptr && entry.fn != nullptr, Error::InvalidArgument,
            "a kernel needs a name and a function");
  KernelEntry* existing = find_mutable(entry.name);
  if (existing != nullptr) {
    TRI_CHECK(replace, Error::InvalidState, "kernel '%s' is already registered",
              entry.name);
    *existing = entry;
    return Error::Ok;
  }
  TRI_CHECK(g_num_kernels < kMaxRegisteredKernels, Error::LimitExceeded,
            "kernel registry is full (%zu kernels)", kMaxRegisteredKernels);
  g_kernels[g_num_kernels++] = entry;
  return Error::Ok;
}

Error register_kernels(Span<const KernelEntry> entries) {
  for (const KernelEntry& entry : entries) {
    TRI_TRY(register_kernel(entry));
  }
  return Error::Ok;
}

Error unregister_kernel(const char* full_name) {
  KernelEntry* entry = full_name == nullptr ? nullptr : find_mutable(full_name);
  TRI_CHECK(entry != nullptr, Error::NotFound, "no kernel '%s' is registered",
            full_name == nullptr ? "(null)" : full_name);
  // Order carries no meaning: the last entry takes the freed place.
  *entry = g_kernels[--g_num_kernels];
  return Error::Ok;
}

const KernelEntry* find_kernel(const char* op_name, const char* overload) {
  for (size_t i = 0; i < g_num_kernels; ++i) {
    if (name_matches(g_kernels[i].name, op_name, overload)) {
      return &g_kernels[i];
    }
  }
  return nullptr;
}

const KernelEntry* find_kernel(const char* full_name) {
  return find_mutable(full_name);
}

size_t num_registered_kernels() { return g_num_kernels; }
const KernelEntry& registered_kernel(size_t index) { return g_kernels[index]; }
void clear_kernel_registry() { g_num_kernels = 0; }

}  // namespace tri
