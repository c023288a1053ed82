// Every .pte in the corpus either loads every method or is one of the listed
// programs this build cannot run, failing with the code and the name of what
// is missing (an operator, a backend, a .ptd file); nothing crashes.
#include <gtest/gtest.h>

#include <cstring>

#include "cpp/host/host_model.h"
#include "tests/cpp/support/shared_corpus.h"

namespace tri::host {
namespace {

using ::tri::testing::list_files;
using ::tri::testing::read_file;
using ::tri::testing::shared_dir;

// The programs that cannot load in this build, each with what its error must
// name and the code it must carry. Any other program must load every method.
struct ExpectedFailure {
  const char* file;  // relative to corpus/pte
  const char* names;
  Error code;
};

const ExpectedFailure kExpectedFailures[] = {
    {"Arm-Examples__CMSIS-Executorch/ai_layer__engine__model__ethos_u_minimal_example.pte", "EthosUBackend", Error::BackendMissing},
    {"barakugav__executorch-rs/examples__data_map__model__model.pte", "external data file (.ptd)", Error::ExternalDataMissing},
    {"fidel-makatia__ALIF_Executorch/executorch_mnist__executorch_npu__mnist_ethosu_arm_delegate_ethos-u55-128.pte", "EthosUBackend", Error::BackendMissing},
    {"fidel-makatia__ALIF_Executorch/executorch_mnist__mnist_ethos_u55.pte", "EthosUBackend", Error::BackendMissing},
    {"pytorch__executorch/examples__qualcomm__oss_scripts__llama__artifacts__stories260k_hybrid_llama_qnn.pte", "QnnBackend", Error::BackendMissing},
    {"pytorch__executorch/extension__android__executorch_android__src__androidTest__resources__xor.pte", "external data file (.ptd)", Error::ExternalDataMissing},
    {"pytorch__executorch/extension__module__test__resources__linear.pte", "external data file (.ptd)", Error::ExternalDataMissing},
    {"pytorch__executorch/operator_and_model_testing__conv2d__pte1__CadenceDemoModel.pte", "cadence::", Error::OperatorMissing},
    {"pytorch__executorch/operator_and_model_testing__conv2d__pte1__conv2d_quantized.pte", "cadence::", Error::OperatorMissing},
    {"pytorch__executorch/operator_and_model_testing__conv2d__pte__conv2d_layer0_conv1.pte", "cadence::", Error::OperatorMissing},
};

const ExpectedFailure* expected_failure(const std::string& path) {
  for (const ExpectedFailure& f : kExpectedFailures) {
    const size_t n = strlen(f.file);
    if (path.size() >= n && path.compare(path.size() - n, n, f.file) == 0) return &f;
  }
  return nullptr;
}

TEST(CorpusLoad, EveryProgramLoadsOrNamesWhatIsMissing) {
  TRI_REQUIRE_SHARED();
  const auto files = list_files(shared_dir() + "/corpus/pte", {".pte"});
  ASSERT_GT(files.size(), 20u);
  size_t loaded = 0;
  size_t failed_as_expected = 0;
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    const std::vector<uint8_t> bytes = read_file(path);
    HostModel model;
    const Error err = model.load(OwnedBytes::copy_of(bytes.data(), bytes.size()));
    const ExpectedFailure* expected = expected_failure(path);
    if (err != Error::Ok) {
      const std::string message = last_error_message();
      ASSERT_NE(expected, nullptr) << "fails to load: " << message;
      EXPECT_EQ(err, expected->code) << message;
      EXPECT_NE(message.find(expected->names), std::string::npos) << message;
      ++failed_as_expected;
      continue;
    }
    EXPECT_EQ(expected, nullptr) << "loads, but is listed as a program that cannot";
    for (size_t m = 0; m < model.program().num_methods(); ++m) {
      const std::string name = model.program().method_name(m);
      EXPECT_TRUE(model.output_count(name).ok()) << name << ": " << last_error_message();
    }
    ++loaded;
  }
  // Every listed failure is in the corpus, and nothing else failed.
  EXPECT_EQ(failed_as_expected, sizeof(kExpectedFailures) / sizeof(kExpectedFailures[0]));
  EXPECT_EQ(loaded + failed_as_expected, files.size());
}

}  // namespace
}  // namespace tri::host
