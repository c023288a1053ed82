// The pieces of `tfrt_translate -split-input-file -verify-diagnostics`: the
// `// expected-error` comments a test file carries, and its split into the
// chunks between `// -----` lines.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tri::bef {

struct ExpectedDiagnostic {
  uint32_t line = 0;          // the line the error is expected on
  uint32_t comment_line = 0;  // the line holding the comment
  std::string message;        // a substring of the expected message
};

// Harvests `// expected-error {{msg}}` (same line), `@+N` and `@-N` forms.
// Line numbers count from `first_line`.
std::vector<ExpectedDiagnostic> expected_errors(std::string_view source, uint32_t first_line = 1);

struct SplitChunk {
  // The chunk preceded by one newline per line before it, so that line
  // numbers inside it are those of the whole file.
  std::string text;
  uint32_t first_line = 1;
};

// Splits at lines starting (after blanks) with `// -----`, which belong to no
// chunk. A file without markers is one chunk.
std::vector<SplitChunk> split_input_file(std::string_view source);

}  // namespace tri::bef
