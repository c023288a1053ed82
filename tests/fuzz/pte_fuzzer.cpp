// libFuzzer target: any bytes through the whole load path (format detection,
// header, verifier, bundled/.pte front ends, every method prepared), and when
// a program loads, one run of each method with zeroed inputs. The runtime must
// answer every input with an Error, never a crash, a hang or a leak.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cpp/host/host_model.h"
#include "cpp/custom/register_custom_kernels.h"
#include "cpp/delegates/register_delegates.h"
#include "cpp/kernels/register_kernels.h"
#include "tests/fuzz/run_methods.h"

namespace {

bool g_registered = tri::register_portable_kernels() == tri::Error::Ok &&
                   tri::register_custom_kernels() == tri::Error::Ok &&
                   tri::register_builtin_backends() == tri::Error::Ok;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (!g_registered) {
    __builtin_trap();
  }
  tri::host::HostModel model;
  tri::host::HostOptions options;
  // Keep each run small and fast: larger plans are refused (which exercises
  // the limit), so time goes to breadth, not to big legitimate kernels.
  options.max_planned_bytes = 4u << 20;
  // Programs that loop through jumps hit this bound quickly instead of
  // spending seconds per input.
  options.max_instructions_per_run = 100000;
  // A third of the inputs go through the memory plan made again by
  // lifetimes (pte_lifetime_plan.h), which reads the whole instruction list
  // at load, and a third through planning at each run's shapes (a plan over
  // the limit goes there too), whose tensors get memory as kernels size them.
  constexpr tri::host::MemoryPlanChoice kPlans[] = {tri::host::MemoryPlanChoice::File,
                                                    tri::host::MemoryPlanChoice::Lifetimes,
                                                    tri::host::MemoryPlanChoice::PerShape};
  options.memory_plan = kPlans[size % 3];
  if (model.load(tri::host::OwnedBytes::copy_of(data, size), options) !=
      tri::Error::Ok) {
    return 0;
  }
  run_every_method(model);
  return 0;
}
