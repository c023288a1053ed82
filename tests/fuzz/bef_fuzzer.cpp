// libFuzzer target: arbitrary bytes as a BEF file. The reader must answer
// every input with a clear error or a program, and a program must run
// (unknown kernels tolerated, a small heap, a kernel budget) without
// crashing, leaking or tripping a sanitizer.
#include <cstddef>
#include <cstdint>

#include "cpp/formats/bef/host/bef_driver.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tri::bef::BefRunOptions options;
  options.allow_unknown_kernels = true;
  options.heap_bytes = size_t{1} << 20;
  options.kernel_budget = 2000;
  tri::bef::run_bef(data, size, options);
  return 0;
}
