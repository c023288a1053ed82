#include "cpp/formats/bef/host/verify_translation.h"

#include <vector>

#include "cpp/formats/bef/host/mlir_to_bef/expected_diagnostics.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_to_bef.h"
#include "cpp/runtime/core/error.h"

namespace tri::bef {

TranslationCheck verify_translation(std::string_view source, std::string_view filename,
                                    bool split) {
  TranslationCheck check;
  std::vector<SplitChunk> chunks;
  if (split) {
    chunks = split_input_file(source);
  } else {
    chunks.push_back(SplitChunk{std::string(source), 1});
  }
  const std::string file(filename);
  for (const SplitChunk& chunk : chunks) {
    const std::vector<ExpectedDiagnostic> expected = expected_errors(chunk.text);
    std::vector<bool> met(expected.size(), false);
    MlirDiagnostic diagnostic;
    Result<std::vector<uint8_t>> bef = mlir_to_bef(chunk.text, filename, {}, &diagnostic);
    if (!bef.ok()) {
      bool matched = false;
      for (size_t i = 0; i < expected.size() && !matched; ++i) {
        if (expected[i].line == diagnostic.line &&
            diagnostic.message.find(expected[i].message) != std::string::npos) {
          met[i] = matched = true;
        }
      }
      if (!matched) {
        check.err += file + ":" + std::to_string(diagnostic.line) + ":" +
                     std::to_string(diagnostic.column) + ": error: unexpected error: " +
                     diagnostic.message + "\n";
        check.exit_code = 1;
      }
    }
    for (size_t i = 0; i < expected.size(); ++i) {
      if (met[i]) continue;
      check.err += file + ":" + std::to_string(expected[i].comment_line) + ": error: expected error \"" +
                   expected[i].message + "\" was not produced\n";
      check.exit_code = 1;
    }
  }
  return check;
}

}  // namespace tri::bef
