// What the whole-file fuzzers (pte, pte_struct, bpte, pt2_archive) do with an
// input: load it as a user's page would (format sniffed, every check, every
// method prepared), then inspect and run each method once. Every input must
// end in an Error or a run, never a crash, a hang or a leak.
#pragma once

#include <sanitizer/asan_interface.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "cpp/custom/register_custom_kernels.h"
#include "cpp/delegates/register_delegates.h"
#include "cpp/host/host_model.h"
#include "cpp/kernels/register_kernels.h"
#include "tests/fuzz/run_methods.h"

inline bool register_everything() {
  static const bool registered = tri::register_portable_kernels() == tri::Error::Ok &&
                                 tri::register_custom_kernels() == tri::Error::Ok &&
                                 tri::register_builtin_backends() == tri::Error::Ok;
  return registered;
}

// The program's copy frees its tail after load as the wasm build's does
// (HostModel::release_packed_sources): here the tail is poisoned instead, so
// a later read of what a delegate no longer owns is an ASan report.
inline size_t g_program_block_bytes = 0;

inline bool poison_released_tail(uint8_t* data, size_t size) {
  ASAN_POISON_MEMORY_REGION(data + size, g_program_block_bytes - size);
  return true;
}

inline void unpoison_and_free(uint8_t* data) {
  ASAN_UNPOISON_MEMORY_REGION(data, g_program_block_bytes);
  std::free(data);
}

inline tri::host::OwnedBytes releasable_copy(const uint8_t* data, size_t size) {
  uint8_t* copy = static_cast<uint8_t*>(std::malloc(size > 0 ? size : 1));
  if (copy != nullptr && size > 0) std::memcpy(copy, data, size);
  g_program_block_bytes = size;
  return tri::host::OwnedBytes(copy, size, &unpoison_and_free, &poison_released_tail);
}

inline void load_and_run(const uint8_t* data, size_t size) {
  if (!register_everything()) __builtin_trap();
  tri::host::HostModel model;
  tri::host::HostOptions options;
  // Keep each run small and fast: larger plans are refused (which exercises
  // the limit), so time goes to breadth, not to big legitimate kernels.
  options.max_planned_bytes = 4u << 20;
  // Programs that loop through jumps hit this bound quickly instead of
  // spending seconds per input.
  options.max_instructions_per_run = 100000;
  // Inputs are allocated at their declared shapes to run each method: a
  // tensor of a billion elements is refused at load instead (in wasm such an
  // allocation fails cleanly; natively it would only be slow).
  options.max_tensor_elements = uint64_t{1} << 22;
  // A third of the inputs go through the memory plan made again by
  // lifetimes (pte_lifetime_plan.h), which reads the whole instruction list
  // at load, and a third through planning at each run's shapes (a plan over
  // the limit goes there too), whose tensors get memory as kernels size them.
  constexpr tri::host::MemoryPlanChoice kPlans[] = {tri::host::MemoryPlanChoice::File,
                                                    tri::host::MemoryPlanChoice::Lifetimes,
                                                    tri::host::MemoryPlanChoice::PerShape};
  options.memory_plan = kPlans[size % 3];
  if (model.load(releasable_copy(data, size), options) != tri::Error::Ok) return;
  for (size_t i = 0; i < model.bundled_test_count(); ++i) (void)model.bundled_test_json(i);
  if (model.functions() == nullptr) {
    for (size_t m = 0; m < model.program().num_methods(); ++m) {
      (void)model.sample_inputs_json(model.program().method_name(m));
    }
  }
  run_every_method(model);
}
