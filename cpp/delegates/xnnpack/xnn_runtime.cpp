#include "cpp/delegates/xnnpack/xnn_runtime.h"

#include <cinttypes>
#include <cstring>
#include <new>

#include "cpp/delegates/xnnpack/xnn_ops.h"
#include "cpp/runtime/core/lifetime_planner.h"
#include "cpp/runtime/platform/platform.h"

namespace tri::xnnpack {
namespace {

constexpr uint64_t kArenaAlignment = 64;
constexpr uint64_t kMaxArenaBytes = uint64_t{1} << 31;

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

Error plan_arena(Runtime& rt, MemoryAllocator scratch) {
  Span<Value> values = rt.graph.values;
  size_t n = 0;
  for (const Value& v : values) {
    if (v.kind == ValueKind::Internal && v.producer >= 0) ++n;
  }
  LifetimeBuffer* buffers = scratch.allocate_array<LifetimeBuffer>(n);
  TRI_CHECK(buffers != nullptr, Error::MemoryAllocationFailed,
            "no scratch memory to plan %zu XNNPACK activations", n);
  size_t k = 0;
  for (const Value& v : values) {
    if (v.kind == ValueKind::Internal && v.producer >= 0) {
      buffers[k++] = LifetimeBuffer{v.capacity, v.producer, v.last_use, 0};
    }
  }
  TRI_ASSIGN_OR_RETURN(rt.arena_bytes, plan_lifetimes(Span<LifetimeBuffer>(buffers, n),
                                                      kArenaAlignment, scratch));
  k = 0;
  for (Value& v : values) {
    if (v.kind == ValueKind::Internal && v.producer >= 0) v.arena_offset = buffers[k++].offset;
  }
  return Error::Ok;
}

// Shapes of a delegate argument as XNNPACK sees them: in memory order, so a
// channels-last tensor arrives as NHWC.
void physical_dims(const Tensor& t, int32_t* dims) {
  for (int32_t j = 0; j < t.dim(); ++j) dims[j] = t.size(t.dim_order()[j]);
}

Error bind_external(Value& v, const EValue* arg, bool* changed) {
  TRI_CHECK(arg != nullptr && arg->is_tensor(), Error::InvalidArgument,
            "argument %" PRIu32 " is %s, not a tensor", v.external_id,
            arg ? tag_name(arg->tag) : "missing");
  const Tensor& t = arg->to_tensor();
  const ScalarType want = scalar_type_of(v.dtype);
  TRI_CHECK(t.scalar_type() == want, Error::InvalidType,
            "argument %" PRIu32 " is %s, the graph's value %" PRIu32 " is %s (%s)",
            v.external_id, scalar_type_name(t.scalar_type()), v.id, scalar_type_name(want),
            dtype_name(v.dtype));
  TRI_CHECK(t.dim() <= kMaxDims, Error::NotSupported,
            "argument %" PRIu32 " has %d dims (XNNPACK allows %d)", v.external_id, t.dim(),
            kMaxDims);
  if (v.kind == ValueKind::ExternalOutput) {
    v.capacity = t.capacity_bytes();
    v.tensor.set_data(t.mutable_data(), t.capacity_bytes());
    return Error::Ok;
  }
  int32_t dims[kMaxDims];
  physical_dims(t, dims);
  bool same = v.tensor.dim() == t.dim();
  for (int32_t d = 0; same && d < t.dim(); ++d) same = v.tensor.size(d) == dims[d];
  if (!same) {
    *changed = true;
    TRI_TRY(v.tensor.init(want, Span<const SizesType>(dims, static_cast<size_t>(t.dim())), {},
                          t.mutable_data(), t.nbytes(), ShapeDynamism::Static));
  }
  v.tensor.set_data(t.mutable_data(), t.nbytes());
  return Error::Ok;
}

// Gives an output argument the shape the graph computed for it.
Error resize_argument(const Value& v, EValue* arg) {
  Tensor& t = arg->to_tensor();
  const int32_t rank = v.tensor.dim();
  if (rank != t.dim()) {
    // Same elements, other rank (e.g. a scalar output the graph holds as [1]).
    TRI_CHECK(v.tensor.numel() == t.numel(), Error::InvalidArgument,
              "output argument %" PRIu32 " has rank %d, the graph computes rank %d with %zu "
              "elements",
              v.external_id, t.dim(), rank, v.tensor.numel());
    return Error::Ok;
  }
  SizesType sizes[kMaxDims];
  for (int32_t j = 0; j < rank; ++j) sizes[t.dim_order()[j]] = v.tensor.size(j);
  bool same = true;
  for (int32_t d = 0; same && d < rank; ++d) same = t.size(d) == sizes[d];
  if (same) return Error::Ok;
  TRI_TRY_CONTEXT(t.resize(Span<const SizesType>(sizes, static_cast<size_t>(rank))),
                  "output argument %" PRIu32, v.external_id);
  return Error::Ok;
}

Error reshape_all(Runtime& rt, Span<EValue*> args) {
  Value* values = rt.graph.values.data();
  for (const Node& node : rt.graph.nodes) {
    TRI_TRY_CONTEXT(node.def->reshape(node, values), "node %" PRIu32 " (%s)", node.index,
                    node_type_name(node.type));
  }
  size_t scratch = 0;
  for (const Node& node : rt.graph.nodes) {
    if (node.def->scratch_bytes != nullptr) {
      const size_t need = node.def->scratch_bytes(node, values);
      scratch = need > scratch ? need : scratch;
    }
  }
  TRI_CHECK(scratch <= rt.node_scratch_bytes + kMinNodeScratch, Error::LimitExceeded,
            "these input shapes need %zu bytes of node scratch; %zu were planned", scratch,
            rt.node_scratch_bytes + kMinNodeScratch);
  for (Value& v : rt.graph.values) {
    if (v.kind == ValueKind::ExternalOutput) TRI_TRY(resize_argument(v, args[v.external_id]));
  }
  rt.shaped = true;
  return Error::Ok;
}

// Constants some node reads at run (not only through weights it packed),
// copied into `persistent`, as are the named-data keys inspection shows: the
// runtime then reads nothing of the blob or named data once init returns
// (Backend::runs_without_sources). Measured the same way without `pack`.
Error own_what_runs_read(Runtime& rt, MemoryAllocator& persistent, MemoryAllocator scratch,
                         bool pack) {
  Span<Value> values = rt.graph.values;
  bool* read_at_run = scratch.allocate_array<bool>(values.size());
  TRI_CHECK(read_at_run != nullptr || values.empty(), Error::MemoryAllocationFailed,
            "no scratch memory to mark %zu XNNPACK values", values.size());
  for (size_t i = 0; i < values.size(); ++i) read_at_run[i] = false;
  for (const Node& node : rt.graph.nodes) {
    const uint32_t packed = node.packed_bytes > 0 ? node.def->packed_inputs : 0;
    for (int i = 0; i < node.num_inputs; ++i) {
      if (node.inputs[i] != kInvalidId && (packed & (1u << i)) == 0) read_at_run[node.inputs[i]] = true;
    }
  }
  for (size_t i = 0; i < values.size(); ++i) {
    Value& v = values[i];
    if (v.kind != ValueKind::Constant) continue;
    const size_t key_bytes = strlen(v.constant_key);
    if (key_bytes > 0) {
      rt.owned_bytes += align_up(key_bytes + 1, kArenaAlignment);
      if (pack) {
        char* key = static_cast<char*>(persistent.allocate(key_bytes + 1, kArenaAlignment));
        TRI_CHECK(key != nullptr, Error::MemoryAllocationFailed,
                  "value %zu: no memory for its %zu-byte key", i, key_bytes);
        memcpy(key, v.constant_key, key_bytes + 1);
        v.constant_key = key;
      }
    }
    if (!read_at_run[i]) continue;
    if (v.capacity == 0) {
      v.constant_owned = true;  // nothing to read, nothing to copy
      continue;
    }
    rt.owned_bytes += align_up(v.capacity, kArenaAlignment);
    if (!pack) continue;
    uint8_t* copy = static_cast<uint8_t*>(persistent.allocate(v.capacity, kArenaAlignment));
    TRI_CHECK(copy != nullptr, Error::MemoryAllocationFailed,
              "value %zu: no memory for a %zu-byte copy of the constant", i, v.capacity);
    memcpy(copy, v.constant, v.capacity);
    v.constant = copy;
    v.constant_owned = true;
    v.tensor.set_data(copy, v.capacity);
  }
  return Error::Ok;
}

}  // namespace

Result<Runtime*> build_runtime(ByteSpan blob, const GraphReadOptions& options,
                               MemoryAllocator& persistent, MemoryAllocator scratch, bool pack) {
  TRI_ASSIGN_OR_RETURN(const XnnPayload payload, read_xnn_payload(blob));
  Runtime* rt = persistent.allocate_array<Runtime>(1);
  TRI_CHECK(rt != nullptr, Error::MemoryAllocationFailed, "no memory for the XNNPACK runtime");
  TRI_ASSIGN_OR_RETURN(rt->graph, read_graph(payload, options, persistent));
  TRI_TRY(plan_arena(*rt, scratch));
  // Beyond what a 32-bit address space could ever hold: refused, whatever
  // the host's own limit.
  TRI_CHECK(rt->arena_bytes <= kMaxArenaBytes, Error::LimitExceeded,
            "the graph's activations need %llu bytes (at most %llu)",
            static_cast<unsigned long long>(rt->arena_bytes),
            static_cast<unsigned long long>(kMaxArenaBytes));
  const Value* values = rt->graph.values.data();
  for (Node& node : rt->graph.nodes) {
    if (node.def->scratch_bytes != nullptr) {
      const size_t need = node.def->scratch_bytes(node, values);
      rt->node_scratch_bytes = need > rt->node_scratch_bytes ? need : rt->node_scratch_bytes;
    }
  }
  // Weights are packed last, each 64-byte aligned, so that the memory query
  // (which only measures them) and init take the same bytes.
  rt->packed_bytes = 0;
  for (Node& node : rt->graph.nodes) {
    if (node.def->packed_bytes == nullptr) continue;
    node.packed_bytes = node.def->packed_bytes(node, values);
    if (node.packed_bytes == 0) continue;
    rt->packed_bytes += align_up(node.packed_bytes, kArenaAlignment);
    if (!pack) continue;
    node.packed = persistent.allocate(node.packed_bytes, kArenaAlignment);
    TRI_CHECK(node.packed != nullptr, Error::MemoryAllocationFailed,
              "node %" PRIu32 " (%s): no memory for %zu bytes of packed weights", node.index,
              node_type_name(node.type), node.packed_bytes);
    node.def->pack(node, values, node.packed);
  }
  TRI_TRY(own_what_runs_read(*rt, persistent, scratch, pack));
  return rt;
}

size_t execute_bytes(const Runtime& runtime) {
  return static_cast<size_t>(runtime.arena_bytes) + kArenaAlignment + runtime.node_scratch_bytes +
         kMinNodeScratch;
}

Error execute_runtime(Runtime& rt, KernelContext& context, Span<EValue*> args) {
  TRI_CHECK(args.size() == rt.graph.num_externs, Error::InvalidArgument,
            "the delegate call passes %zu arguments, the graph has %" PRIu32
            " external values",
            args.size(), rt.graph.num_externs);
  TRI_CHECK(context.temp != nullptr, Error::InvalidState, "no scratch memory to run in");
  bool changed = !rt.shaped;
  for (Value& v : rt.graph.values) {
    if (v.kind == ValueKind::ExternalInput || v.kind == ValueKind::ExternalOutput) {
      TRI_TRY(bind_external(v, args[v.external_id], &changed));
    }
  }
  if (changed) TRI_TRY(reshape_all(rt, args));

  uint8_t* arena = static_cast<uint8_t*>(
      context.temp->allocate(static_cast<size_t>(rt.arena_bytes), kArenaAlignment));
  TRI_CHECK(arena != nullptr || rt.arena_bytes == 0, Error::MemoryAllocationFailed,
            "no scratch memory for the %" PRIu64 "-byte activation arena (%zu of %zu left)",
            rt.arena_bytes, context.temp->capacity() - context.temp->used(),
            context.temp->capacity());
  for (Value& v : rt.graph.values) {
    if (v.kind == ValueKind::Internal && v.producer >= 0) {
      v.tensor.set_data(arena + v.arena_offset, v.capacity);
    }
  }
  // Node scratch: what is left of the instruction's scratch.
  const size_t left = context.temp->capacity() - context.temp->used();
  const size_t node_bytes = left > kArenaAlignment ? left - kArenaAlignment : 0;
  void* node_base = context.temp->allocate(node_bytes, kArenaAlignment);
  MemoryAllocator node_scratch(node_base, node_base ? node_bytes : 0);
  KernelContext node_context;
  node_context.temp = &node_scratch;
  RunContext run;
  run.scratch = &node_scratch;
  run.kernel_context = &node_context;
  Value* values = rt.graph.values.data();
  // Profiling: each node's time, in the order of Backend::node_info.
  const bool timed = context.node_nanoseconds != nullptr && context.num_node_timings == rt.graph.nodes.size();
  for (size_t n = 0; n < rt.graph.nodes.size(); ++n) {
    const Node& node = rt.graph.nodes[n];
    // A node whose outputs are all empty has nothing to write, yet its
    // kernel could walk an input's other dims: a fuzzed global pooling over
    // [1, 2^15, 2^15, 0] spun for seconds doing nothing.
    bool empty = node.num_outputs > 0;
    for (uint8_t o = 0; o < node.num_outputs && empty; ++o) empty = values[node.outputs[o]].numel() == 0;
    if (empty) continue;
    node_scratch.reset();
    const uint64_t start = timed ? now_ns() : 0;
    TRI_TRY_CONTEXT(node.def->run(node, values, run), "node %" PRIu32 " (%s)", node.index,
                    node_type_name(node.type));
    if (timed) context.node_nanoseconds[n] += now_ns() - start;
  }
  return Error::Ok;
}

}  // namespace tri::xnnpack
