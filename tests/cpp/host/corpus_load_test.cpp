// Every .pte in the corpus either loads every method or fails with an error
// that names what is missing (an operator or a backend); nothing crashes.
#include <gtest/gtest.h>

#include <cstring>

#include "cpp/host/host_model.h"
#include "tests/cpp/support/shared_corpus.h"

namespace tri::host {
namespace {

using ::tri::testing::list_files;
using ::tri::testing::read_file;
using ::tri::testing::shared_dir;

TEST(CorpusLoad, EveryProgramLoadsOrNamesWhatIsMissing) {
  TRI_REQUIRE_SHARED();
  const auto files = list_files(shared_dir() + "/corpus/pte", {".pte"});
  ASSERT_GT(files.size(), 20u);
  size_t loaded = 0;
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    const std::vector<uint8_t> bytes = read_file(path);
    HostModel model;
    const Error err = model.load(OwnedBytes::copy_of(bytes.data(), bytes.size()));
    if (err != Error::Ok) {
      const std::string message = last_error_message();
      EXPECT_TRUE(message.find("not registered") != std::string::npos ||
                  message.find(".ptd") != std::string::npos)
          << message;
      continue;
    }
    bool all_methods = true;
    for (size_t m = 0; m < model.program().num_methods(); ++m) {
      const std::string name = model.program().method_name(m);
      Result<size_t> outputs = model.output_count(name);
      if (!outputs.ok()) {
        all_methods = false;
        const std::string message = last_error_message();
        const bool names_missing =
            message.find("not registered") != std::string::npos ||
            message.find(".ptd") != std::string::npos;
        EXPECT_TRUE(names_missing) << message;
      }
    }
    loaded += all_methods ? 1 : 0;
  }
  printf("corpus: %zu of %zu programs load every method\n", loaded, files.size());
}

}  // namespace
}  // namespace tri::host
