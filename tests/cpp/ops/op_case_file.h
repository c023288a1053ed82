// Reads the op cases that tools/export/export_ops.py writes
// (tests/ops/cases/<op>.json beside <op>.pte) and compares results with
// PyTorch's, with the same rules as tests/ops/op-cases.test.ts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cpp/runtime/core/scalar_type.h"

namespace tri::testing {

// A tensor, or for ops that return one scalar (sym_size.int, ...) a value
// with `kind` "Int", "Double" or "Bool" and its text.
struct CaseTensor {
  std::string kind;  // "" for a tensor
  std::string value;
  ScalarType dtype = ScalarType::Float;
  std::vector<int32_t> shape;
  std::vector<uint8_t> bytes;  // row-major
};

struct OpCase {
  std::string method;
  std::string desc;
  std::vector<CaseTensor> inputs;
  std::vector<CaseTensor> outputs;
  double rtol = 0;
  double atol = 0;
  // "values", "shape", "range:lo:hi" or "permutation" for every output, or
  // a comma-separated list of them, one per output.
  std::string check;
};

struct OpCaseFile {
  std::string op;
  std::string pte_path;
  std::vector<OpCase> cases;
};

// Every <op>.json under `dir`, sorted by op; `only` (comma-separated ops,
// empty for all) selects.
std::vector<OpCaseFile> read_op_case_files(const std::string& dir, const std::string& only);

// "" when `actual` (row-major bytes of `dtype`/`shape`) passes the case's
// check of output `index` against `expected`; otherwise what differs, with
// the first bad index.
std::string compare_case_output(const OpCase& c, size_t index, const CaseTensor& expected,
                                ScalarType dtype, const std::vector<int32_t>& shape,
                                const uint8_t* actual);

}  // namespace tri::testing
