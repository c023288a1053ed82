// The C++ route for custom operators: the native build includes
// cpp/custom/etnp, so executorch-numpy-runtime's lstm.pte (which calls
// etnp::lstm.out) runs and matches its golden out.bin.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "cpp/host/host_model.h"
#include "tests/cpp/support/shared_corpus.h"

namespace tri::host {
namespace {

using ::tri::testing::corpus_file;

constexpr const char* kDir = "pte/corey-cole__executorch-numpy-runtime/";

TEST(CustomOpLstm, CorpusProgramMatchesGolden) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> program = corpus_file(std::string(kDir) + "tests__models__lstm__lstm.pte");
  const std::vector<uint8_t> in = corpus_file(std::string(kDir) + "tests__models__lstm__in.bin");
  const std::vector<uint8_t> out = corpus_file(std::string(kDir) + "tests__models__lstm__out.bin");
  // x[5,2,4] ++ h0[2,3] ++ c0[2,3] -> output 0 [5,2,3] (MANIFEST.md).
  ASSERT_EQ(in.size(), 52u * 4);
  ASSERT_EQ(out.size(), 30u * 4);
  HostModel model;
  ASSERT_EQ(model.load(OwnedBytes::copy_of(program.data(), program.size())), Error::Ok)
      << last_error_message();
  const std::vector<std::vector<int32_t>> shapes = {{5, 2, 4}, {2, 3}, {2, 3}};
  size_t offset = 0;
  for (size_t i = 0; i < shapes.size(); ++i) {
    Result<uint8_t*> dst = model.prepare_input("forward", i, shapes[i]);
    ASSERT_TRUE(dst.ok()) << last_error_message();
    const size_t bytes = 4u * static_cast<size_t>(shapes[i][0]) * shapes[i][1] *
                         (shapes[i].size() == 3 ? shapes[i][2] : 1);
    std::memcpy(dst.get(), in.data() + offset, bytes);
    offset += bytes;
  }
  ASSERT_EQ(model.execute("forward"), Error::Ok) << last_error_message();
  Result<const EValue*> y = model.output("forward", 0);
  ASSERT_TRUE(y.ok());
  const Tensor& t = y.get()->to_tensor();
  ASSERT_EQ(t.numel(), 30u);
  const float* got = t.data_ptr<const float>();
  for (size_t i = 0; i < 30; ++i) {
    float want;
    std::memcpy(&want, out.data() + 4 * i, 4);
    EXPECT_NEAR(got[i], want, 1e-4 + 1e-4 * std::fabs(want)) << "element " << i;
  }
}

}  // namespace
}  // namespace tri::host
