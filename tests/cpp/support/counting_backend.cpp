#include "tests/cpp/support/counting_backend.h"

#include <cstring>

namespace tri::testing {

Result<BackendMemoryNeeds> CountingBackend::memory_needs(BackendInitContext& context,
                                                         ByteSpan processed,
                                                         Span<const CompileSpec>) const {
  ++queries;
  if (context.method_allocator != nullptr) queried_with_allocator = true;
  BackendMemoryNeeds needs;
  needs.init_bytes = kInitBytes;
  needs.execute_bytes = 1000 * processed.size();
  return needs;
}

Result<void*> CountingBackend::init(BackendInitContext& context, ByteSpan processed,
                                    Span<const CompileSpec> specs) const {
  if (processed.size() == 4 && memcmp(processed.data(), "fail", 4) == 0) {
    return fail(Error::DelegateInvalidCompatibility, "this blob says fail");
  }
  last_num_specs = specs.size();
  void* handle = context.method_allocator->allocate(kInitBytes);
  if (handle == nullptr) return fail(Error::MemoryAllocationFailed, "no memory");
  ++live;
  return handle;
}

CountingBackend& counting_backend(const char* id) {
  static CountingBackend backend;
  if (find_backend(id) == nullptr) (void)register_backend(id, &backend);
  return backend;
}

}  // namespace tri::testing
