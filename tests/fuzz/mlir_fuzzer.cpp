// libFuzzer target: arbitrary text as TFRT MLIR. The translator must answer
// with BEF or a file:line:col error, never crash or hang; BEF it writes must
// load and run like any other file (bounded as in bef_fuzzer.cpp).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cpp/formats/bef/host/bef_driver.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_to_bef.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  tri::Result<std::vector<uint8_t>> bef = tri::bef::mlir_to_bef(text, "fuzz.mlir");
  if (!bef.ok()) return 0;
  tri::bef::BefRunOptions options;
  options.allow_unknown_kernels = true;
  options.heap_bytes = size_t{1} << 20;
  options.kernel_budget = 2000;
  tri::bef::run_bef(bef->data(), bef->size(), options);
  return 0;
}
