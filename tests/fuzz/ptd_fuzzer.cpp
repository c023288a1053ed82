// libFuzzer target for .ptd files (FlatTensor external data): the map is
// loaded and every entry read through each accessor, its bytes touched so an
// entry pointing outside the file trips ASan. When TRIDENT_FUZZ_PTD_PROGRAM
// names a .pte that takes its weights from a .ptd (fuzz.sh passes the
// corpus's linear.pte), the input is also handed to that program as its data
// file, and the program loaded and run.
#include <cstdlib>
#include <vector>

#include "cpp/formats/pte/flat_tensor/flat_tensor_data_map.h"
#include "tests/fuzz/load_and_run.h"
#include "tests/fuzz/read_file.h"
#include "tests/fuzz/touch.h"

namespace {

const std::vector<uint8_t>& program() {
  static const std::vector<uint8_t> bytes = [] {
    const char* path = std::getenv("TRIDENT_FUZZ_PTD_PROGRAM");
    return path == nullptr ? std::vector<uint8_t>() : read_whole_file("TRIDENT_FUZZ_PTD_PROGRAM", path);
  }();
  return bytes;
}

void read_every_entry(const tri::pte::FlatTensorDataMap& map) {
  for (size_t i = 0; i < map.size(); ++i) {
    tri::Result<tri::Span<const char>> key = map.key_at(i);
    tri::Result<tri::ByteSpan> data = map.data_at(i);
    if (data.ok()) touch_bytes(data->data(), data->size());
    (void)map.file_offset_at(i);
    tri::Result<tri::pte::FlatTensorLayoutView> layout = map.tensor_layout_at(i);
    if (layout.ok()) {
      int64_t dims = 0;
      for (int32_t size : layout->sizes) dims += size;
      for (uint8_t d : layout->dim_order) dims += d;
      volatile int64_t sink = dims;
      (void)sink;
    }
    if (!key.ok()) continue;
    tri::Result<tri::ByteSpan> by_key = map.get(*key);
    if (by_key.ok()) touch_bytes(by_key->data(), by_key->size());
    (void)map.find(*key);
    (void)map.tensor_layout(*key);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (!register_everything()) __builtin_trap();
  // The loader needs the file 8-byte aligned, as the host's copies are.
  const tri::host::OwnedBytes copy = tri::host::OwnedBytes::copy_of(data, size);
  tri::Result<tri::pte::FlatTensorDataMap> map =
      tri::pte::FlatTensorDataMap::load(tri::ByteSpan(copy.data(), copy.size()));
  if (map.ok()) read_every_entry(*map);
  if (program().empty()) return 0;
  tri::host::HostModel model;
  if (model.add_data_file(tri::host::OwnedBytes::copy_of(data, size)) != tri::Error::Ok) return 0;
  tri::host::HostOptions options;
  options.max_planned_bytes = 4u << 20;
  options.max_instructions_per_run = 100000;
  if (model.load(tri::host::OwnedBytes::copy_of(program().data(), program().size()), options) !=
      tri::Error::Ok) {
    return 0;
  }
  run_every_method(model);
  return 0;
}
