// The delegate interface: a backend takes over a subgraph that the exporter
// lowered for it (the "processed" blob of a DelegateCall), in four steps like
// ExecuTorch's: is_available, init (once per loaded method), execute (per
// call), destroy. Before init, memory_needs tells the caller how much memory
// the instance will take, so that the host can allocate it exactly: the
// runtime itself never allocates.
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
  // Lives as long as the method: the backend's handle and state go here
  // (nullptr in memory_needs, which must not allocate from it).
  MemoryAllocator* method_allocator = nullptr;
  // Working memory for init and memory_needs only: reset afterwards.
  MemoryAllocator* scratch = nullptr;
  // Weights referenced by key (the program's named data and external files).
  const NamedDataMap* named_data = nullptr;
  const char* method_name = nullptr;
};

// What one delegate instance needs, known before init.
struct BackendMemoryNeeds {
  // Taken from the method allocator by init (plan, packed weights).
  size_t init_bytes = 0;
  // Needed from KernelContext::temp by each execute (activations, scratch).
  size_t execute_bytes = 0;
};

// One node of a delegate's own graph, for inspection tools (`trident
// inspect`). Shapes are the ones the graph declares.
struct DelegateValueInfo {
  const char* dtype = "";
  uint8_t rank = 0;
  int32_t dims[kTensorDimLimit] = {};
  // "input", "output" (the delegate call's arguments), "constant" or
  // "internal".
  const char* kind = "internal";
  // Input or output: its position among the call's arguments.
  int32_t external = -1;
  // Constant: the key of its named data ("" for data inside the blob), its
  // bytes as the program stores them, and their element type where one of
  // the runtime's fits (Byte for packed or quantized sub-byte kinds).
  const char* key = "";
  const uint8_t* data = nullptr;
  size_t nbytes = 0;
  ScalarType storage = ScalarType::Byte;
};

// What one delegate instance holds of the program's weights, for a model's
// memory report: the bytes of weights it packed into its own layout (inside
// what init took from the method allocator), and the bytes of the program's
// constants (its blob's or named data) that it read to pack them, while it
// still points at them (0 once its sources are forgotten).
struct DelegateWeightInfo {
  size_t packed_bytes = 0;
  size_t source_bytes = 0;
};

struct DelegateNodeInfo {
  const char* type = "";
  uint8_t num_inputs = 0;
  uint8_t num_outputs = 0;
  DelegateValueInfo inputs[8];
  DelegateValueInfo outputs[4];
  // The values' indices (Backend::value_info), in the same order.
  uint32_t input_ids[8] = {};
  uint32_t output_ids[4] = {};
};

class Backend {
 public:
  virtual bool is_available() const = 0;
  // Checks the blob and reports the memory that init and execute will take.
  // Fails as init would for a blob it cannot run.
  virtual Result<BackendMemoryNeeds> memory_needs(
      BackendInitContext& context, ByteSpan processed,
      Span<const CompileSpec> compile_specs) const = 0;
  // Returns the backend's handle for this delegate instance. The blob's bytes
  // outlive the handle, unless the backend runs without its sources (below)
  // and the host frees them after calling forget_sources().
  virtual Result<void*> init(BackendInitContext& context, ByteSpan processed,
                             Span<const CompileSpec> compile_specs) const = 0;
  // True when, once init has returned, execute and every query below read
  // nothing of the blob or the named data it was given: what it needs at run
  // it packed or copied into its own memory. The host may then free those
  // bytes (weights held once, not as the file stores them and packed).
  virtual bool runs_without_sources() const { return false; }
  // The host is about to free the blob and named data: drop any pointer into
  // them kept for inspection (value_info's data then comes back null).
  virtual void forget_sources(void* handle) const {}
  virtual Error execute(void* handle, KernelContext& context,
                        Span<EValue*> args) const = 0;
  virtual void destroy(void* handle) const = 0;

  // The delegate instance's graph, node by node, for backends that have one
  // (0 nodes otherwise).
  virtual size_t num_nodes(void* handle) const { return 0; }
  virtual Result<DelegateNodeInfo> node_info(void* handle, size_t index) const {
    return fail(Error::NotSupported, "this backend does not describe its nodes");
  }
  // Its weights, packed and as the program stores them (all 0 for backends
  // that pack nothing).
  virtual DelegateWeightInfo weight_info(void* handle) const { return {}; }
  // Its values (what node_info's ids index).
  virtual size_t num_values(void* handle) const { return 0; }
  virtual Result<DelegateValueInfo> value_info(void* handle, size_t index) const {
    return fail(Error::NotSupported, "this backend does not describe its values");
  }

 protected:
  ~Backend() = default;
};

constexpr size_t kMaxRegisteredBackends = 16;

// `id` is the name programs use, e.g. "XnnpackBackend"; it must stay valid.
Error register_backend(const char* id, const Backend* backend);
const Backend* find_backend(const char* id);
void clear_backend_registry();

}  // namespace tri
