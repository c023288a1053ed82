#include "cpp/formats/bef/host/bef_open.h"

#include <cstring>
#include <string_view>

#include "cpp/formats/bef/host/bef_functions.h"
#include "cpp/formats/bef/host/bef_graph.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_to_bef.h"

namespace tri::bef {
namespace {

class LoadedBef final : public host::LoadedFile {
 public:
  LoadedBef(const char* format, std::unique_ptr<BefFunctions> functions)
      : format_(format), functions_(std::move(functions)) {}
  const char* format() const override { return format_; }
  Program* program() override { return nullptr; }
  host::FunctionProgram* functions() override { return functions_.get(); }
  Result<std::vector<host::WeightInfo>> weights(const NamedDataMap*) const override {
    return bef_dense_weights(functions_->file());
  }

 private:
  const char* format_;
  std::unique_ptr<BefFunctions> functions_;
};

Result<std::unique_ptr<host::LoadedFile>> open_as(const char* format, const uint8_t* data, size_t size,
                                                  const host::OpenOptions& options) {
  LoadErrorLocation where;
  Result<std::unique_ptr<BefInstance>> instance = BefInstance::open(data, size, {}, &where);
  if (!instance.ok()) {
    if (where.filename.empty()) return instance.error();
    return add_context(instance.error(), "%s:%u:%u", where.filename.c_str(), where.line, where.column);
  }
  return std::unique_ptr<host::LoadedFile>(new LoadedBef(
      format, std::make_unique<BefFunctions>(instance.take(), options.max_instructions_per_run)));
}

}  // namespace

bool sniff_bef(ByteSpan head) { return head.size() >= 2 && head[0] == 0x0B && head[1] == 0xEF; }

namespace {

// "#map = ..." or "!tensor = ...": an attribute or type alias, MLIR's other
// way to start a file. A markdown "# Title" or a "#!" line is neither. The
// head may end inside a long name: that still counts (the parser decides).
bool starts_with_alias(std::string_view text) {
  if (text.size() < 2 || (text[0] != '#' && text[0] != '!')) return false;
  const auto ident_start = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  const auto ident = [&](char c) { return ident_start(c) || (c >= '0' && c <= '9') || c == '$' || c == '.' || c == '-'; };
  if (!ident_start(text[1])) return false;
  size_t i = 2;
  while (i < text.size() && ident(text[i])) ++i;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  return i == text.size() || text[i] == '=';
}

}  // namespace

bool sniff_mlir(ByteSpan head) {
  size_t i = 0;
  for (; i < head.size(); ++i) {
    const uint8_t c = head[i];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
  }
  for (size_t k = i; k < head.size(); ++k) {
    const uint8_t c = head[k];
    if ((c < 0x20 && c != '\n' && c != '\r' && c != '\t') || c >= 0x7F) return false;
  }
  const std::string_view text(reinterpret_cast<const char*>(head.data()) + i, head.size() - i);
  for (std::string_view start : {"//", "func.func", "module"}) {
    if (text.substr(0, start.size()) == start) return true;
  }
  return starts_with_alias(text);
}

Result<std::unique_ptr<host::LoadedFile>> open_bef(ByteSpan bytes, const host::OpenOptions& options) {
  return open_as("bef", bytes.data(), bytes.size(), options);
}

Result<std::unique_ptr<host::LoadedFile>> open_mlir(ByteSpan bytes, const host::OpenOptions& options) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const bool named = options.source_name != nullptr && options.source_name[0] != '\0';
  Result<std::vector<uint8_t>> bef = mlir_to_bef(text, named ? options.source_name : "<input>.mlir");
  if (!bef.ok()) return bef.error();
  return open_as("mlir", bef->data(), bef->size(), options);
}

}  // namespace tri::bef
