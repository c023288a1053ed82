#include "cpp/formats/bef/host/mlir_to_bef/expected_diagnostics.h"

#include <utility>

namespace tri::bef {

namespace {

std::vector<std::string_view> lines_of(std::string_view source) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= source.size()) {
    const size_t end = source.find('\n', start);
    if (end == std::string_view::npos) {
      lines.push_back(source.substr(start));
      break;
    }
    lines.push_back(source.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string_view trim_left(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  return text.substr(i);
}

bool is_split_marker(std::string_view line) {
  return trim_left(line).substr(0, 8) == "// -----";
}

}  // namespace

std::vector<ExpectedDiagnostic> expected_errors(std::string_view source, uint32_t first_line) {
  static constexpr std::string_view kTag = "expected-error";
  std::vector<ExpectedDiagnostic> out;
  const std::vector<std::string_view> lines = lines_of(source);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const size_t comment = line.find("//");
    if (comment == std::string_view::npos) continue;
    const size_t tag = line.find(kTag, comment);
    if (tag == std::string_view::npos) continue;
    std::string_view rest = trim_left(line.substr(tag + kTag.size()));
    const int64_t comment_line = static_cast<int64_t>(first_line + i);
    int64_t target = comment_line;
    if (!rest.empty() && rest[0] == '@') {
      rest = rest.substr(1);
      if (rest.empty() || (rest[0] != '+' && rest[0] != '-')) continue;
      const bool down = rest[0] == '+';
      size_t k = 1;
      int64_t offset = 0;
      while (k < rest.size() && rest[k] >= '0' && rest[k] <= '9' && offset < 1000000) {
        offset = offset * 10 + (rest[k] - '0');
        ++k;
      }
      if (k == 1) continue;
      target = down ? comment_line + offset : comment_line - offset;
      rest = rest.substr(k);
    }
    rest = trim_left(rest);
    if (rest.substr(0, 2) != "{{") continue;
    const size_t close = rest.find("}}", 2);
    if (close == std::string_view::npos || target < 1) continue;
    ExpectedDiagnostic expected;
    expected.line = static_cast<uint32_t>(target);
    expected.comment_line = static_cast<uint32_t>(comment_line);
    expected.message = std::string(rest.substr(2, close - 2));
    out.push_back(std::move(expected));
  }
  return out;
}

std::vector<SplitChunk> split_input_file(std::string_view source) {
  std::vector<SplitChunk> chunks;
  const std::vector<std::string_view> lines = lines_of(source);
  SplitChunk current;
  current.first_line = 1;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (is_split_marker(lines[i])) {
      chunks.push_back(std::move(current));
      current = SplitChunk();
      current.first_line = static_cast<uint32_t>(i + 2);
      current.text.assign(i + 1, '\n');
      continue;
    }
    current.text.append(lines[i].data(), lines[i].size());
    if (i + 1 < lines.size()) current.text.push_back('\n');
  }
  chunks.push_back(std::move(current));
  return chunks;
}

}  // namespace tri::bef
