// The records of a .pt2 archive in any of its three layouts
// (../shared/corpus/pt2/FORMAT-NOTES.md §1): A, the legacy flat zip of
// torch 2.1-2.7; B, the PT2 archive with pickled weights (2.8); C, the PT2
// archive with raw weights and JSON payload configs (2.9+). Layouts are told
// apart by entry names, never by the file name.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cpp/formats/pt2/zip/zip_archive.h"
#include "cpp/runtime/core/result.h"

namespace tri::pt2 {

enum class Pt2Layout : char { LegacyZip = 'A', PickledWeights = 'B', RawWeights = 'C' };

struct Pt2ModelRecords {
  std::string name;  // "model" (PT2 archives) or "model" for the legacy one
  std::string json_record;
  // Pickled layouts: torch.save zips ("" when absent).
  std::string weights_pickle;
  std::string constants_pickle;
  // Raw layout: the payload configs.
  std::string weights_config;
  std::string constants_config;
  std::string sample_inputs;  // "" when absent
};

class Pt2Archive {
 public:
  static Result<Pt2Archive> open(ByteSpan bytes);

  Pt2Layout layout() const { return layout_; }
  const std::string& root() const { return root_; }  // "linear_3/", "" for layout A
  const std::vector<Pt2ModelRecords>& models() const { return models_; }
  const ZipArchive& zip() const { return zip_; }

  // The stored bytes of record `name` (a full entry name).
  Result<ByteSpan> record(const std::string& name) const;

 private:
  Error find_models();

  ZipArchive zip_;
  Pt2Layout layout_ = Pt2Layout::RawWeights;
  std::string root_;
  std::vector<Pt2ModelRecords> models_;
};

}  // namespace tri::pt2
