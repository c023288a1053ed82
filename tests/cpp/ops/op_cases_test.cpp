// Runs every op case of tests/ops/cases (written by tools/export/export_ops.py
// from PyTorch) and every XNNPACK node case of tests/ops/xnnpack_cases
// (tools/export/xnnpack/export_xnn_cases.py) through the native build: one
// test per op or node type, each case a method of its .pte.
// TRIDENT_OPS=aten::abs.out,xnnpack::Conv2d,... selects some.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "cpp/host/host_model.h"
#include "cpp/host/row_major.h"
#include "tests/cpp/ops/op_case_file.h"

namespace tri::testing {
namespace {

std::string cases_dir() { return std::string(TRIDENT_SOURCE_DIR) + "/tests/ops/cases"; }
std::string xnnpack_cases_dir() {
  return std::string(TRIDENT_SOURCE_DIR) + "/tests/ops/xnnpack_cases";
}

const std::vector<OpCaseFile>& all_files() {
  static const std::vector<OpCaseFile> files = [] {
    const char* only = std::getenv("TRIDENT_OPS");
    std::vector<OpCaseFile> out = read_op_case_files(cases_dir(), only ? only : "");
    std::vector<OpCaseFile> nodes = read_op_case_files(xnnpack_cases_dir(), only ? only : "");
    out.insert(out.end(), nodes.begin(), nodes.end());
    return out;
  }();
  return files;
}

std::vector<size_t> file_indices() {
  std::vector<size_t> v;
  for (size_t i = 0; i < all_files().size(); ++i) v.push_back(i);
  return v;
}

class OpCases : public ::testing::TestWithParam<size_t> {};

// "Int 3", "Bool true".
std::string scalar_text(const EValue& v) {
  if (v.is_int()) return "Int " + std::to_string(v.to_int());
  if (v.is_bool()) return std::string("Bool ") + (v.to_bool() ? "true" : "false");
  return "not a scalar";
}

TEST(OpCaseFiles, Present) {
  EXPECT_FALSE(all_files().empty()) << "no op cases in " << cases_dir();
}

TEST_P(OpCases, MatchPyTorch) {
  const OpCaseFile& f = all_files()[GetParam()];
  std::ifstream in(f.pte_path, std::ios::binary);
  ASSERT_TRUE(in) << f.pte_path;
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  // Each case runs with memory planned at load, and planned per shape: the
  // interpreter then binds the out when the kernel sizes it, so every kernel
  // must size its outs before writing them (under the sanitizers a write
  // through an unbound out is caught).
  for (const host::MemoryPlanChoice plan : {host::MemoryPlanChoice::Auto, host::MemoryPlanChoice::PerShape}) {
    const bool per_shape = plan == host::MemoryPlanChoice::PerShape;
    SCOPED_TRACE(per_shape ? "planned per shape" : "planned at load");
    host::HostOptions options;
    options.memory_plan = plan;
    host::HostModel model;
    ASSERT_EQ(model.load(host::OwnedBytes::copy_of(bytes.data(), bytes.size()), options), Error::Ok)
        << f.op << ": " << last_error_message();
    for (const OpCase& c : f.cases) {
      SCOPED_TRACE(f.op + " " + c.method + " (" + c.desc + ")");
      for (size_t i = 0; i < c.inputs.size(); ++i) {
        Result<uint8_t*> dst = model.prepare_input(c.method, i, c.inputs[i].shape);
        ASSERT_TRUE(dst.ok()) << last_error_message();
        if (!c.inputs[i].bytes.empty()) {
          std::memcpy(dst.get(), c.inputs[i].bytes.data(), c.inputs[i].bytes.size());
        }
      }
      ASSERT_EQ(model.execute(c.method), Error::Ok) << last_error_message();
      Result<size_t> count = model.output_count(c.method);
      ASSERT_TRUE(count.ok());
      ASSERT_EQ(count.get(), c.outputs.size());
      for (size_t o = 0; o < c.outputs.size(); ++o) {
        Result<const EValue*> value = model.output(c.method, o);
        ASSERT_TRUE(value.ok());
        if (c.outputs[o].kind == "Double") {
          ASSERT_TRUE(value.get()->is_double()) << "output " << o;
          EXPECT_EQ(value.get()->to_double(), std::strtod(c.outputs[o].value.c_str(), nullptr));
          continue;
        }
        if (!c.outputs[o].kind.empty()) {
          EXPECT_EQ(scalar_text(*value.get()), c.outputs[o].kind + " " + c.outputs[o].value)
              << "output " << o;
          continue;
        }
        ASSERT_TRUE(value.get()->is_tensor());
        const Tensor& t = value.get()->to_tensor();
        std::vector<uint8_t> row_major(t.nbytes());
        if (t.nbytes() != 0) host::copy_to_row_major(t, row_major.data());
        std::vector<int32_t> shape(t.sizes().begin(), t.sizes().end());
        const std::string diff =
            compare_case_output(c, o, c.outputs[o], t.scalar_type(), shape, row_major.data());
        EXPECT_EQ(diff, "") << "output " << o;
      }
    }
  }
}

std::string op_test_name(const ::testing::TestParamInfo<size_t>& info) {
  std::string name = all_files()[info.param].op;
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Ops, OpCases, ::testing::ValuesIn(file_indices()), op_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OpCases);

}  // namespace
}  // namespace tri::testing
