// The delegate interface: a backend takes over a subgraph that the exporter
// lowered for it (the "processed" blob of a DelegateCall), in four steps like
// ExecuTorch's: is_available, init (once per loaded method), execute (per
// call), destroy.
#pragma once

#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/named_data_map.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri {

struct CompileSpec {
  const char* key = nullptr;
  ByteSpan value;
};

struct BackendInitContext {
  // Lives as long as the method: the backend's handle and state go here.
  MemoryAllocator* method_allocator = nullptr;
  // Weights referenced by key (the program's named data and external files).
  const NamedDataMap* named_data = nullptr;
  const char* method_name = nullptr;
};

class Backend {
 public:
  virtual bool is_available() const = 0;
  // Returns the backend's handle for this delegate instance.
  virtual Result<void*> init(BackendInitContext& context, ByteSpan processed,
                             Span<const CompileSpec> compile_specs) const = 0;
  virtual Error execute(void* handle, KernelContext& context,
                        Span<EValue*> args) const = 0;
  virtual void destroy(void* handle) const = 0;

 protected:
  ~Backend() = default;
};

constexpr size_t kMaxRegisteredBackends = 16;

// `id` is the name programs use, e.g. "XnnpackBackend"; it must stay valid.
Error register_backend(const char* id, const Backend* backend);
const Backend* find_backend(const char* id);
void clear_backend_registry();

}  // namespace tri
