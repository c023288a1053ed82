#include "cpp/delegates/xnnpack/xnnpack_backend.h"

#include "cpp/delegates/xnnpack/xnn_runtime.h"

namespace tri::xnnpack {
namespace {

constexpr size_t kBlockAlignment = 64;

GraphReadOptions read_options(const BackendInitContext& context, bool resolve) {
  GraphReadOptions options;
  options.named_data = context.named_data;
  options.resolve_constants = resolve;
  return options;
}

// The one block init takes: the graph's values and nodes (what the measuring
// build put in `persistent`), then the packed weights and init's copies, each
// 64-aligned.
size_t block_bytes(const MemoryAllocator& persistent, const Runtime& rt) {
  return persistent.used() + rt.packed_bytes + rt.owned_bytes + kBlockAlignment;
}

class XnnpackBackend final : public Backend {
 public:
  bool is_available() const override { return true; }

  // Builds the runtime once in scratch, measuring: the graph's values and
  // nodes, then the packed weights init will add.
  Result<BackendMemoryNeeds> memory_needs(BackendInitContext& context, ByteSpan processed,
                                          Span<const CompileSpec>) const override {
    TRI_CHECK(context.scratch != nullptr, Error::InvalidArgument,
              "the XNNPACK memory query needs scratch memory");
    MemoryAllocator& scratch = *context.scratch;
    const size_t left = scratch.capacity() - scratch.used();
    const size_t half = left / 2 / kBlockAlignment * kBlockAlignment;
    void* region = scratch.allocate(half, kBlockAlignment);
    TRI_CHECK(region != nullptr, Error::MemoryAllocationFailed,
              "no scratch memory to plan the XNNPACK graph");
    MemoryAllocator persistent(region, half);
    Result<Runtime*> rt =
        build_runtime(processed, read_options(context, false), persistent, scratch, false);
    if (!rt.ok()) {
      if (rt.error() == Error::MemoryAllocationFailed) {
        return add_context(rt.error(), "planning the XNNPACK graph in %zu bytes of scratch",
                           half);
      }
      return rt.error();
    }
    BackendMemoryNeeds needs;
    // The block init allocates, plus what aligning it may skip.
    needs.init_bytes = block_bytes(persistent, **rt) + kBlockAlignment - 1;
    needs.execute_bytes = execute_bytes(**rt);
    return needs;
  }

  Result<void*> init(BackendInitContext& context, ByteSpan processed,
                     Span<const CompileSpec> specs) const override {
    TRI_CHECK(context.method_allocator != nullptr && context.scratch != nullptr,
              Error::InvalidArgument, "XNNPACK init needs method and scratch memory");
    // The same measurement as memory_needs, then the same build into one
    // block of exactly that size.
    MemoryAllocator scratch = *context.scratch;
    TRI_ASSIGN_OR_RETURN(const BackendMemoryNeeds needs, memory_needs(context, processed, specs));
    *context.scratch = scratch;
    const size_t bytes = needs.init_bytes - (kBlockAlignment - 1);
    void* block = context.method_allocator->allocate(bytes, kBlockAlignment);
    TRI_CHECK(block != nullptr, Error::MemoryAllocationFailed,
              "method allocator exhausted (%zu bytes for the XNNPACK delegate)", bytes);
    MemoryAllocator persistent(block, bytes);
    TRI_ASSIGN_OR_RETURN(Runtime* rt, build_runtime(processed, read_options(context, true),
                                                    persistent, *context.scratch, true));
    return static_cast<void*>(rt);
  }

  Error execute(void* handle, KernelContext& context, Span<EValue*> args) const override {
    TRI_CHECK(handle != nullptr, Error::DelegateInvalidHandle, "XNNPACK delegate not initialized");
    return execute_runtime(*static_cast<Runtime*>(handle), context, args);
  }

  // Everything lives in the method's memory: nothing to release.
  void destroy(void*) const override {}

  // Init packs or copies all that execute reads (own_what_runs_read).
  bool runs_without_sources() const override { return true; }

  void forget_sources(void* handle) const override {
    if (handle == nullptr) return;
    for (Value& value : static_cast<Runtime*>(handle)->graph.values) {
      value.quant.scales = nullptr;  // read only while packing
      value.quant.bf16_scales = nullptr;
      if (value.kind != ValueKind::Constant || value.constant_owned) continue;
      value.constant = nullptr;
      value.tensor.set_data(nullptr, 0);
    }
  }

  size_t num_nodes(void* handle) const override {
    return handle ? static_cast<Runtime*>(handle)->graph.nodes.size() : 0;
  }

  Result<DelegateNodeInfo> node_info(void* handle, size_t index) const override {
    TRI_CHECK(handle != nullptr && index < num_nodes(handle), Error::InvalidArgument,
              "node %zu does not exist", index);
    const Graph& g = static_cast<Runtime*>(handle)->graph;
    const Node& node = g.nodes[index];
    DelegateNodeInfo info;
    info.type = node_type_name(node.type);
    for (int i = 0; i < node.num_inputs && info.num_inputs < 8; ++i) {
      if (node.inputs[i] == kInvalidId) continue;
      info.input_ids[info.num_inputs] = node.inputs[i];
      info.inputs[info.num_inputs++] = describe_value(g.values[node.inputs[i]]);
    }
    for (int i = 0; i < node.num_outputs && info.num_outputs < 4; ++i) {
      info.output_ids[info.num_outputs] = node.outputs[i];
      info.outputs[info.num_outputs++] = describe_value(g.values[node.outputs[i]]);
    }
    return info;
  }

  // Packed: what init packed for nodes with static weights. Source: the
  // constants it still points at in the program (packed ones; those read at
  // run are init's copies).
  DelegateWeightInfo weight_info(void* handle) const override {
    DelegateWeightInfo info;
    if (handle == nullptr) return info;
    const Runtime& rt = *static_cast<Runtime*>(handle);
    info.packed_bytes = rt.packed_bytes;
    for (const Value& value : rt.graph.values) {
      if (value.kind == ValueKind::Constant && !value.constant_owned && value.constant != nullptr) {
        info.source_bytes += value.constant_bytes;
      }
    }
    return info;
  }

  size_t num_values(void* handle) const override {
    return handle ? static_cast<Runtime*>(handle)->graph.values.size() : 0;
  }

  Result<DelegateValueInfo> value_info(void* handle, size_t index) const override {
    TRI_CHECK(handle != nullptr && index < num_values(handle), Error::InvalidArgument,
              "value %zu does not exist", index);
    return describe_value(static_cast<Runtime*>(handle)->graph.values[index]);
  }

 private:
  static DelegateValueInfo describe_value(const Value& value) {
    DelegateValueInfo out;
    out.dtype = dtype_name(value.dtype);
    out.rank = value.declared_rank;
    for (int d = 0; d < value.declared_rank; ++d) out.dims[d] = value.declared_dims[d];
    switch (value.kind) {
      case ValueKind::ExternalInput: out.kind = "input"; break;
      case ValueKind::ExternalOutput: out.kind = "output"; break;
      case ValueKind::Constant: out.kind = "constant"; break;
      case ValueKind::Internal: out.kind = "internal"; break;
    }
    if (value.external_id != kInvalidId) out.external = static_cast<int32_t>(value.external_id);
    out.key = value.constant_key;
    out.data = value.constant;
    out.nbytes = value.constant_bytes;
    out.storage = scalar_type_of(value.dtype);
    return out;
  }
};

const XnnpackBackend g_backend;

}  // namespace

const Backend& xnnpack_backend() { return g_backend; }

}  // namespace tri::xnnpack
