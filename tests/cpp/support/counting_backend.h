// A backend for delegate-lifecycle tests: counts its live handles and its
// memory queries, and fails init on a blob that reads "fail". It asks for
// 100 bytes at init and 1000 bytes of scratch per byte of blob.
#pragma once

#include "cpp/runtime/backend/backend.h"

namespace tri::testing {

class CountingBackend final : public Backend {
 public:
  static constexpr size_t kInitBytes = 100;

  bool is_available() const override { return true; }
  Result<BackendMemoryNeeds> memory_needs(BackendInitContext& context, ByteSpan processed,
                                          Span<const CompileSpec> specs) const override;
  Result<void*> init(BackendInitContext& context, ByteSpan processed,
                     Span<const CompileSpec> specs) const override;
  Error execute(void*, KernelContext&, Span<EValue*>) const override { return Error::Ok; }
  void destroy(void*) const override { --live; }

  void reset_counts() {
    live = 0;
    queries = 0;
    last_num_specs = 0;
  }

  mutable int live = 0;
  mutable int queries = 0;
  // memory_needs saw a method allocator (it must not allocate from one).
  mutable bool queried_with_allocator = false;
  mutable size_t last_num_specs = 0;
};

// The one instance, registered under `id` on first use.
CountingBackend& counting_backend(const char* id);

}  // namespace tri::testing
