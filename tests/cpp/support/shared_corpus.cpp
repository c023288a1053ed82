#include "tests/cpp/support/shared_corpus.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace tri::testing {

std::string shared_dir() {
  const std::filesystem::path dir =
      std::filesystem::path(TRIDENT_SOURCE_DIR) / ".." / "shared";
  return std::filesystem::is_directory(dir / "corpus") ? dir.string() : "";
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in),
                              std::istreambuf_iterator<char>());
}

std::vector<uint8_t> corpus_file(const std::string& relative) {
  const std::string path = shared_dir() + "/corpus/" + relative;
  EXPECT_TRUE(std::filesystem::is_regular_file(path)) << "cannot open " << path;
  return read_file(path);
}

std::vector<std::string> list_files(const std::string& dir,
                                    const std::vector<std::string>& suffixes) {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string name = entry.path().string();
    for (const std::string& suffix : suffixes) {
      if (name.size() >= suffix.size() &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        out.push_back(name);
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tri::testing
