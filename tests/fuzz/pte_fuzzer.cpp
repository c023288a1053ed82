// libFuzzer target: any bytes through the whole load path (format detection,
// header, verifier, bundled/.pte front ends, every method prepared), and when
// a program loads, one run of each method with zeroed inputs
// (load_and_run.h). Mutations are libFuzzer's own, on raw bytes;
// pte_struct_fuzzer edits valid programs field by field instead.
#include "tests/fuzz/load_and_run.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  load_and_run(data, size);
  return 0;
}
