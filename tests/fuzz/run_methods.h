// What both loader fuzzers do once a file loads: run every method once with
// inputs of their declared shapes (zeros), so the run path sees what the
// loader accepted.
#pragma once

#include <string>
#include <vector>

#include "cpp/host/host_model.h"

inline void run_every_method(tri::host::HostModel& model) {
  // Text can sniff as TFRT MLIR and load as dataflow functions; their run
  // path is fuzzed, with a kernel budget, by bef_fuzzer and mlir_fuzzer.
  if (model.functions() != nullptr) return;
  const tri::Program& program = model.program();
  for (size_t m = 0; m < program.num_methods(); ++m) {
    const std::string name = program.method_name(m);
    bool ready = true;
    for (size_t i = 0; i < program.num_inputs(m) && ready; ++i) {
      tri::Result<tri::ValueInfo> info = program.input_info(m, i);
      if (!info.ok() || info->tag != tri::Tag::Tensor) continue;
      std::vector<int32_t> shape(info->sizes, info->sizes + info->dim);
      ready = model.prepare_input(name, i, shape).ok();
    }
    if (ready) (void)model.execute(name);
  }
}
