// Locates ../shared beside the repository. Outside CI its absence skips the
// corpus tests (a user's fresh clone still passes); under CI=true it fails.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tri::testing {

// "" when absent.
std::string shared_dir();
std::vector<uint8_t> read_file(const std::string& path);
// The bytes of ../shared/corpus/<relative> ("pte/owner__repo/file.pte"). A
// file that is not there fails the current test (and gives no bytes).
std::vector<uint8_t> corpus_file(const std::string& relative);
// Every file under `dir` (recursively) whose name ends with one of `suffixes`,
// sorted.
std::vector<std::string> list_files(const std::string& dir,
                                    const std::vector<std::string>& suffixes);

}  // namespace tri::testing

// Use at the top of a test that needs ../shared.
#define TRI_REQUIRE_SHARED()                                               \
  do {                                                                     \
    if (::tri::testing::shared_dir().empty()) {                            \
      const char* ci = std::getenv("CI");                                  \
      if (ci != nullptr && std::string(ci) == "true") {                    \
        FAIL() << "../shared is missing, and CI requires the corpus";      \
      }                                                                    \
      GTEST_SKIP() << "../shared corpus is absent (not in CI): skipped";   \
    }                                                                      \
  } while (0)
