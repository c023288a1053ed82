// The `bef-run` driver: runs a BEF file the way TFRT's bef_executor tool
// does and produces exactly what that tool prints, so TFRT's own FileCheck
// lines apply unchanged (FORMAT-NOTES §11):
//   - start-up lines, then per named function in FunctionIndex order
//     "--- Running 'f':" or "--- Not running 'f' because it has arguments.",
//   - "'f' returned v1,v2" with TFRT's value formats,
//   - runtime errors as diagnostics at the failing kernel's file:line:col,
//     checked against `expected-error` comments when asked to verify.
// Host layer: it may use the standard library; the runtime it drives may not.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cpp/formats/bef/host/mlir_to_bef/expected_diagnostics.h"

namespace tri::bef {

struct BefRunOptions {
  std::vector<std::string> functions;  // --functions: run only these, in this order
  std::string init_function;           // --test_init_function: run first
  bool print_error_code = false;       // --print_error_code
  bool multi_threaded_queue = false;   // --work_queue_type=mstd (still one thread)
  // Kernels this build lacks fail when they run instead of failing the load.
  bool allow_unknown_kernels = false;
  // --verify-diagnostics: the source's expectations (expected_errors());
  // unmatched errors and expectations that never happened fail the run.
  bool verify_diagnostics = false;
  std::vector<ExpectedDiagnostic> expected;
  size_t heap_bytes = size_t{64} << 20;  // the executor's heap
  uint64_t kernel_budget = 0;            // kernel executions per function; 0: no limit
};

struct BefRunReport {
  std::string out;  // what bef_executor writes to stdout
  std::string err;  // diagnostics that are not expected, to stderr
  int exit_code = 0;
};

BefRunReport run_bef(const uint8_t* data, size_t size, const BefRunOptions& options);

}  // namespace tri::bef
