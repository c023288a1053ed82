// libFuzzer target: valid .pte programs edited field by field. Seven times
// in eight the custom mutator rewrites one to three scalars of the program
// flatbuffer in place (flatbuffer_scalar_mutator.h): value indices, sizes,
// dim orders, dtypes, memory-plan ids and offsets, jump targets, segment
// offsets, operator and delegate indices. Such a file still verifies, so it
// meets the loader's and the core's own checks, which must refuse every lie.
// The eighth mutation is libFuzzer's own, on raw bytes. Inputs then go
// through the same load and run as pte_fuzzer's (load_and_run.h).
#include <cstring>
#include <random>
#include <vector>

#include "cpp/formats/pte/schema/program_generated.h"
#include "tests/fuzz/flatbuffer_scalar_mutator.h"
#include "tests/fuzz/load_and_run.h"
#include "tests/fuzz/read_file.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

tri::fuzz::FlatbufferScalarMutator& program_mutator() {
  // The Program schema as flatc --binary --schema writes it (CMakeLists).
  static const std::vector<uint8_t> bfbs = read_whole_file("program schema", TRIDENT_PROGRAM_BFBS);
  static tri::fuzz::FlatbufferScalarMutator mutator(bfbs);
  if (!mutator.ok()) {
    std::fprintf(stderr, "%s is not a flatbuffers binary schema\n", TRIDENT_PROGRAM_BFBS);
    std::abort();
  }
  return mutator;
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  std::minstd_rand rng(seed);
  if (rng() % 8 != 0) {
    // A copy, aligned as flatbuffers' accessors expect.
    std::vector<uint8_t> program(data, data + size);
    flatbuffers::Verifier verifier(program.data(), program.size());
    if (executorch_flatbuffer::VerifyProgramBuffer(verifier) &&
        program_mutator().mutate(program.data(), program.size(), 1 + static_cast<int>(rng() % 3),
                                 rng)) {
      std::memcpy(data, program.data(), size);
      return size;
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  load_and_run(data, size);
  return 0;
}
