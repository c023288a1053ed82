#include "cpp/host/format_registry.h"

#include <cstdio>
#include <string>

#include "cpp/formats/bef/host/bef_open.h"
#include "cpp/formats/pt2/host/pt2_open.h"
#include "cpp/formats/pte/host/pte_open.h"

namespace tri::host {
namespace {

// The formats, in the order they are tried. Adding a format: one line here.
const FileFormat kFileFormats[] = {
    {"pte", "ExecuTorch program (.pte)", "\"ET\" at byte 4", &pte::sniff_pte, &pte::open_pte},
    {"bpte", "ExecuTorch bundled program (.bpte)", "\"BP\" at byte 4", &pte::sniff_bpte,
     &pte::open_bpte},
    {"pt2", "PyTorch 2 archive (.pt2)", "a zip, \"PK\\x03\\x04\"", &pt2::sniff_pt2, &pt2::open_pt2},
    {"bef", "TFRT binary executable (.bef)", "0x0B 0xEF", &bef::sniff_bef, &bef::open_bef},
    // Text: tried last, after every binary signature.
    {"mlir", "TFRT MLIR text (.mlir)", "text starting with //, func.func, module or an alias (#name =)", &bef::sniff_mlir,
     &bef::open_mlir},
};

const DataFormat kDataFormats[] = {
    {"ptd", "ExecuTorch tensor data (.ptd)", "\"FT\" at byte 4", &pte::sniff_ptd, &pte::open_ptd},
};

// `4e 4f 54 5f 41 5f 50 54 ("NOT_A_PT")`: hex plus the printable text.
std::string preview(ByteSpan bytes) {
  if (bytes.size() == 0) return "(empty file)";
  std::string hex;
  std::string text;
  for (size_t i = 0; i < bytes.size() && i < 8; ++i) {
    char b[4];
    snprintf(b, sizeof(b), "%s%02x", i ? " " : "", bytes[i]);
    hex += b;
    text += bytes[i] >= 0x20 && bytes[i] < 0x7f ? static_cast<char>(bytes[i]) : '.';
  }
  return hex + " (\"" + text + "\")";
}

ByteSpan head_of(ByteSpan bytes) {
  return ByteSpan(bytes.data(), bytes.size() < kSniffBytes ? bytes.size() : kSniffBytes);
}

// "first bytes ...; expected an ExecuTorch program (.pte) ("ET" at byte 4),
// ... or a ...": the same words whichever table is asked.
template <typename Format>
std::string unrecognized(const char* what, ByteSpan bytes, Span<const Format> formats) {
  std::string message = std::string("unrecognized ") + what + ": ";
  if (bytes.size() < 8) message += "only " + std::to_string(bytes.size()) + " bytes, ";
  message += "first bytes " + preview(bytes) + "; expected ";
  for (size_t i = 0; i < formats.size(); ++i) {
    if (i > 0) message += i + 1 == formats.size() ? " or " : ", ";
    message += std::string(formats[i].description) + " (" + formats[i].signature + ")";
  }
  return message;
}

}  // namespace

Result<std::string> LoadedFile::bundled_test_json(size_t index) const {
  return fail(Error::NotFound, "the loaded file has no bundled test %zu (it has none)", index);
}

Result<std::string> LoadedFile::sample_inputs_json(size_t method) const {
  return fail(Error::NotFound, "the loaded file stores no sample inputs (method %zu)", method);
}

Result<MethodGraph> LoadedFile::graph(size_t method, const Method* loaded) const {
  return fail(Error::NotSupported, "%s files do not describe their graphs yet", format());
}

Result<std::vector<WeightInfo>> LoadedFile::weights(const NamedDataMap* external) const {
  return std::vector<WeightInfo>();
}

Span<const FileFormat> file_formats() {
  return Span<const FileFormat>(kFileFormats, sizeof(kFileFormats) / sizeof(kFileFormats[0]));
}

Span<const DataFormat> data_formats() {
  return Span<const DataFormat>(kDataFormats, sizeof(kDataFormats) / sizeof(kDataFormats[0]));
}

Result<const FileFormat*> detect_format(ByteSpan bytes) {
  for (const FileFormat& f : file_formats()) {
    if (f.sniff(head_of(bytes))) return &f;
  }
  // A data file given as the model: say where it goes.
  for (const DataFormat& d : data_formats()) {
    if (d.sniff(head_of(bytes))) {
      return fail(Error::InvalidArgument,
                  "this is %s, not a model: load the program that uses it and pass this file "
                  "among its data files (load(program, { dataFiles: [...] }), trident run --data)",
                  d.description);
    }
  }
  return fail(Error::InvalidProgram, "%s",
              unrecognized("model file", bytes, file_formats()).c_str());
}

Result<std::unique_ptr<LoadedFile>> open_file(ByteSpan bytes, const OpenOptions& options) {
  TRI_ASSIGN_OR_RETURN(const FileFormat* format, detect_format(bytes));
  if (format->open == nullptr) {
    std::string runs;
    for (const FileFormat& f : file_formats()) {
      if (f.open == nullptr) continue;
      runs += std::string(runs.empty() ? "" : ", ") + f.description;
    }
    return fail(Error::NotSupported, "%s files are not supported by this build yet; it runs: %s",
                format->description, runs.c_str());
  }
  return format->open(bytes, options);
}

Result<std::unique_ptr<LoadedDataFile>> open_data_file(ByteSpan bytes) {
  for (const DataFormat& f : data_formats()) {
    if (f.sniff(head_of(bytes))) return f.open(bytes);
  }
  return fail(Error::InvalidExternalData, "%s",
              unrecognized("data file", bytes, data_formats()).c_str());
}

}  // namespace tri::host
