// Program.named_data: segments stored under string keys, which delegates use
// to find their weights (XNNPACK exports key them by sha256).
#pragma once

#include "cpp/formats/pte/pte_file.h"
#include "cpp/runtime/core/named_data_map.h"

namespace tri::pte {

class PteNamedData final : public NamedDataMap {
 public:
  PteNamedData() = default;
  explicit PteNamedData(const PteFile& file) : file_(file) {}

  Result<ByteSpan> get(Span<const char> key) const override;
  size_t size() const override;
  Result<Span<const char>> key_at(size_t index) const override;

 private:
  PteFile file_;
};

}  // namespace tri::pte
