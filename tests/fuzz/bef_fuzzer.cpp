// libFuzzer target: arbitrary bytes as a BEF file. The reader must answer
// every input with a clear error or a program, and a program must run
// (unknown kernels tolerated, a small heap, a kernel budget) without
// crashing, leaking or tripping a sanitizer.
#include <cstddef>
#include <cstdint>

#include <cstring>
#include <vector>

#include "cpp/formats/bef/bef_file.h"
#include "cpp/formats/bef/host/bef_driver.h"
#include "cpp/formats/bef/host/bef_graph.h"

namespace {

// Inspection reads what the executor ignores (the optional AttributeTypes,
// AttributeNames and RegisterTypes sections): every function's graph, as
// JSON, and the dense weights.
void inspect(const uint8_t* data, size_t size) {
  std::vector<uint64_t> aligned((size + 7) / 8);  // BEF wants 8-aligned bytes
  if (size > 0) std::memcpy(aligned.data(), data, size);
  std::vector<uint8_t> index(size * tri::bef::kIndexBytesPerFileByte + tri::bef::kIndexBytesBase);
  tri::MemoryAllocator allocator(index.data(), index.size());
  tri::Result<tri::bef::BefFile> file = tri::bef::BefFile::open(
      tri::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(aligned.data()), size), allocator);
  if (!file.ok()) return;
  for (uint32_t f = 0; f < file->num_functions(); ++f) {
    tri::Result<tri::host::MethodGraph> graph = tri::bef::bef_function_graph(*file, f, "fuzz.bef");
    if (graph.ok()) (void)tri::host::graph_json(*graph).dump();
  }
  (void)tri::bef::bef_dense_weights(*file);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  inspect(data, size);
  tri::bef::BefRunOptions options;
  options.allow_unknown_kernels = true;
  options.heap_bytes = size_t{1} << 20;
  options.kernel_budget = 2000;
  tri::bef::run_bef(data, size, options);
  return 0;
}
