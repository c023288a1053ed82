// trident-mlir-to-bef IN.mlir -o OUT.bef [--disable-optional-sections]
// The development counterpart of `tfrt_translate -mlir-to-bef`.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "cpp/formats/bef/host/mlir_to_bef/mlir_to_bef.h"

namespace {

int usage() {
  std::fprintf(stderr, "usage: trident-mlir-to-bef IN.mlir -o OUT.bef [--disable-optional-sections]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string input;
  std::string output;
  tri::bef::MlirToBefOptions options;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
      output = argv[++i];
    } else if (std::strcmp(argv[i], "--disable-optional-sections") == 0) {
      options.optional_sections = false;
    } else if (argv[i][0] != '-' && input.empty()) {
      input = argv[i];
    } else {
      return usage();
    }
  }
  if (input.empty() || output.empty()) return usage();
  std::ifstream in(input, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", input.c_str());
    return 1;
  }
  const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  tri::Result<std::vector<uint8_t>> bef = tri::bef::mlir_to_bef(source, input, options);
  if (!bef.ok()) {
    std::fprintf(stderr, "%s\n", tri::last_error_message());
    return 1;
  }
  std::ofstream out(output, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bef->data()), static_cast<std::streamsize>(bef->size()));
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", output.c_str());
    return 1;
  }
  return 0;
}
