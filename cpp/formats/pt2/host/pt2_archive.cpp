#include "cpp/formats/pt2/host/pt2_archive.h"

#include <algorithm>

namespace tri::pt2 {
namespace {

std::string name_of(const ZipEntry& e) { return std::string(e.name.data(), e.name.size()); }

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}
bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string trimmed(ByteSpan bytes) {
  std::string s(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

Result<ByteSpan> Pt2Archive::record(const std::string& name) const {
  TRI_ASSIGN_OR_RETURN(const ZipEntry entry, zip_.find(name.c_str()));
  return zip_.data(entry);
}

Result<Pt2Archive> Pt2Archive::open(ByteSpan bytes) {
  Pt2Archive archive;
  TRI_ASSIGN_OR_RETURN(archive.zip_, ZipArchive::open(bytes, "PT2 archive"));
  TRI_TRY(archive.find_models());
  return archive;
}

Error Pt2Archive::find_models() {
  std::vector<std::string> names;
  ZipArchive::Cursor cursor = zip_.entries();
  ZipEntry entry;
  for (;;) {
    TRI_ASSIGN_OR_RETURN(const bool more, cursor.next(&entry));
    if (!more) break;
    names.push_back(name_of(entry));
  }
  TRI_CHECK(!names.empty(), Error::InvalidProgram, "PT2 archive: the zip has no entries");
  auto has_name = [&](const std::string& n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };

  // Layout A: records at the zip's root.
  if (has_name("serialized_exported_program.json")) {
    layout_ = Pt2Layout::LegacyZip;
    Pt2ModelRecords m;
    m.name = "model";
    m.json_record = "serialized_exported_program.json";
    // torch 2.1/2.2 named the torch.save zips *.json; 2.3+ *.pt.
    for (const char* suffix : {".pt", ".json"}) {
      if (m.weights_pickle.empty() && has_name(std::string("serialized_state_dict") + suffix)) {
        m.weights_pickle = std::string("serialized_state_dict") + suffix;
      }
      if (m.constants_pickle.empty() && has_name(std::string("serialized_constants") + suffix)) {
        m.constants_pickle = std::string("serialized_constants") + suffix;
      }
    }
    if (has_name("serialized_example_inputs.pt")) m.sample_inputs = "serialized_example_inputs.pt";
    models_.push_back(std::move(m));
    return Error::Ok;
  }

  // PT2 archives: one root folder holds everything.
  const size_t slash = names[0].find('/');
  root_ = slash == std::string::npos ? "" : names[0].substr(0, slash + 1);
  bool aot_inductor = false;
  for (const std::string& n : names) {
    aot_inductor = aot_inductor || n.find("data/aotinductor/") != std::string::npos;
  }
  for (const std::string& n : names) {
    if (starts_with(n, root_ + "models/") && ends_with(n, ".json")) {
      const std::string model = n.substr(root_.size() + 7, n.size() - root_.size() - 7 - 5);
      if (model.empty() || model.find('/') != std::string::npos) continue;
      Pt2ModelRecords m;
      m.name = model;
      m.json_record = n;
      models_.push_back(std::move(m));
    }
  }
  if (models_.empty() && aot_inductor) {
    return fail(Error::NotSupported,
                "PT2 archive: this is an AOTInductor package (compiled native code under "
                "data/aotinductor/, no models/*.json graph). Compiled AOTInductor code cannot run "
                "in WebAssembly; export the model with torch.export.save (without AOTInductor) "
                "instead");
  }
  TRI_CHECK(!root_.empty(), Error::InvalidProgram,
            "PT2 archive: entry '%s' is not inside a root folder, and there is no "
            "serialized_exported_program.json: not a torch.export archive",
            names[0].c_str());
  for (const std::string& n : names) {
    TRI_CHECK(starts_with(n, root_), Error::InvalidProgram,
              "PT2 archive: entry '%s' is outside the root folder '%s'", n.c_str(), root_.c_str());
  }
  if (has_name(root_ + "archive_format")) {
    TRI_ASSIGN_OR_RETURN(const ByteSpan format, record(root_ + "archive_format"));
    TRI_CHECK(trimmed(format) == "pt2", Error::InvalidProgram,
              "PT2 archive: archive_format is '%s', not 'pt2'", trimmed(format).c_str());
  }
  if (has_name(root_ + "archive_version")) {
    TRI_ASSIGN_OR_RETURN(const ByteSpan version, record(root_ + "archive_version"));
    TRI_CHECK(trimmed(version) == "0", Error::NotSupported,
              "PT2 archive: archive_version is '%s'; only version 0 exists (torch refuses any "
              "other)",
              trimmed(version).c_str());
  }
  TRI_CHECK(!models_.empty(), Error::InvalidProgram,
            "PT2 archive: no %smodels/<name>.json record, so there is no graph to run",
            root_.c_str());
  bool any_raw = false;
  bool any_pickled = false;
  for (Pt2ModelRecords& m : models_) {
    const std::string base = root_ + "data/";
    const std::string raw = base + "weights/" + m.name + "_weights_config.json";
    const std::string pickled = base + "weights/" + m.name + ".pt";
    if (has_name(raw)) {
      m.weights_config = raw;
      const std::string constants = base + "constants/" + m.name + "_constants_config.json";
      TRI_CHECK(has_name(constants), Error::InvalidProgram,
                "PT2 archive: model '%s' has %s but no %s", m.name.c_str(), raw.c_str(),
                constants.c_str());
      m.constants_config = constants;
      any_raw = true;
    } else if (has_name(pickled)) {
      m.weights_pickle = pickled;
      const std::string constants = base + "constants/" + m.name + ".pt";
      if (has_name(constants)) m.constants_pickle = constants;
      any_pickled = true;
    } else {
      return fail(Error::InvalidProgram,
                  "PT2 archive: model '%s' has neither %s nor %s (missing weights)",
                  m.name.c_str(), raw.c_str(), pickled.c_str());
    }
    const std::string sample = base + "sample_inputs/" + m.name + ".pt";
    if (has_name(sample)) m.sample_inputs = sample;
  }
  TRI_CHECK(!(any_raw && any_pickled), Error::InvalidProgram,
            "PT2 archive: models mix raw and pickled weight payloads");
  layout_ = any_raw ? Pt2Layout::RawWeights : Pt2Layout::PickledWeights;
  return Error::Ok;
}

}  // namespace tri::pt2
