// libFuzzer target for XnnpackBackend payloads: any bytes through the memory
// query, init and, when a graph loads, one execute on zeroed inputs of the
// declared shapes. The backend must answer with an Error, never a crash, a
// hang or a leak. Seeds: the payloads of tests/ops/xnnpack_cases and the
// corpus (scripts/fuzz.sh extracts them).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cpp/delegates/xnnpack/xnn_runtime.h"
#include "cpp/delegates/xnnpack/xnnpack_backend.h"
#include "cpp/kernels/register_kernels.h"

namespace {

bool g_registered = tri::register_portable_kernels() == tri::Error::Ok;

// Bounds that keep one input fast: graphs asking for more are skipped after
// their memory query (which is what is being fuzzed there).
constexpr size_t kMaxInitBytes = 8u << 20;
constexpr size_t kMaxExecuteBytes = 8u << 20;
constexpr size_t kMaxArgumentBytes = 1u << 20;

// Buffers reused by every input (zeroing megabytes per run would dominate).
alignas(64) uint8_t g_scratch[4u << 20];
alignas(64) uint8_t g_method[kMaxInitBytes];
alignas(64) uint8_t g_temp[kMaxExecuteBytes];

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (!g_registered) __builtin_trap();
  // The payload, 16-aligned as a segment of a real file would be.
  std::vector<uint64_t> aligned((size + 7) / 8 + 1);
  std::memcpy(aligned.data(), data, size);
  const tri::ByteSpan blob(reinterpret_cast<const uint8_t*>(aligned.data()), size);
  const tri::Backend& backend = tri::xnnpack::xnnpack_backend();
  tri::MemoryAllocator scratch(g_scratch, sizeof(g_scratch));
  tri::BackendInitContext ctx;
  ctx.scratch = &scratch;
  tri::Result<tri::BackendMemoryNeeds> needs = backend.memory_needs(ctx, blob, {});
  if (!needs.ok() || needs->init_bytes > kMaxInitBytes || needs->execute_bytes > kMaxExecuteBytes) {
    return 0;
  }
  tri::MemoryAllocator method(g_method, needs->init_bytes);
  scratch = tri::MemoryAllocator(g_scratch, sizeof(g_scratch));
  ctx.method_allocator = &method;
  tri::Result<void*> handle = backend.init(ctx, blob, {});
  if (!handle.ok()) return 0;
  // Arguments: zeroed tensors of the externals' declared shapes and dtypes.
  const auto* rt = static_cast<const tri::xnnpack::Runtime*>(*handle);
  const size_t n = rt->graph.num_externs;
  std::vector<tri::Tensor> tensors(n);
  std::vector<std::vector<uint64_t>> storage(n);
  std::vector<tri::EValue> values(n);
  std::vector<tri::EValue*> args(n);
  for (const tri::xnnpack::Value& v : rt->graph.values) {
    if (v.kind != tri::xnnpack::ValueKind::ExternalInput &&
        v.kind != tri::xnnpack::ValueKind::ExternalOutput) {
      continue;
    }
    const size_t bytes = v.capacity;
    if (bytes > kMaxArgumentBytes) return 0;
    storage[v.external_id].assign(bytes / 8 + 1, 0);
    if (tensors[v.external_id].init(tri::xnnpack::scalar_type_of(v.dtype),
                                    tri::Span<const tri::SizesType>(v.declared_dims, v.declared_rank),
                                    {}, storage[v.external_id].data(), bytes,
                                    tri::ShapeDynamism::DynamicBound) != tri::Error::Ok) {
      return 0;
    }
    values[v.external_id] = tri::EValue::from_tensor(&tensors[v.external_id]);
    args[v.external_id] = &values[v.external_id];
  }
  tri::MemoryAllocator temp(g_temp, needs->execute_bytes);
  tri::KernelContext kernel;
  kernel.temp = &temp;
  (void)backend.execute(*handle, kernel, tri::Span<tri::EValue*>(args.data(), args.size()));
  backend.destroy(*handle);
  return 0;
}
