// libFuzzer target for the torch.save pickle reader: the input is a data.pkl.
// It is read on its own, then as the data.pkl of a well-formed torch.save zip
// whose storage records data/0 ... data/7 hold 0 to 7168 bytes, so that the
// tensors it describes are looked up and viewed (sizes, strides, offsets
// against the storage) as PT2 weights, constants and sample inputs are.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cpp/formats/pt2/host/tensor_store.h"
#include "cpp/formats/pt2/host/torch_pickle.h"
#include "cpp/formats/pt2/host/torch_save.h"
#include "tests/cpp/support/zip_builder.h"
#include "tests/fuzz/touch.h"

namespace {

void collect_tensors(const tri::pt2::PickleRef& value,
                     std::vector<const tri::pt2::PickleTensor*>& out) {
  if (value == nullptr) return;
  if (value->kind == tri::pt2::PickleKind::Tensor) out.push_back(&value->tensor);
  for (const tri::pt2::PickleRef& item : value->items) collect_tensors(item, out);
  for (const auto& [key, item] : value->entries) {
    collect_tensors(key, out);
    collect_tensors(item, out);
  }
}

std::vector<uint8_t> torch_save_zip(const uint8_t* data, size_t size) {
  std::vector<tri::testing::ZipRecord> records = {
      {"archive/data.pkl", std::string(reinterpret_cast<const char*>(data), size)},
      {"archive/byteorder", "little"},
  };
  for (int key = 0; key < 8; ++key) {
    std::string bytes(key == 0 ? 0 : size_t{16} << key, '\0');
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7);
    records.push_back({"archive/data/" + std::to_string(key), bytes});
  }
  records.push_back({"archive/version", "3\n"});
  return tri::testing::make_zip(records);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)tri::pt2::read_pickle(tri::ByteSpan(data, size), "fuzzed data.pkl");
  const std::vector<uint8_t> zip = torch_save_zip(data, size);
  tri::Result<tri::pt2::TorchSave> saved =
      tri::pt2::TorchSave::read(tri::ByteSpan(zip.data(), zip.size()), "fuzzed torch.save");
  if (!saved.ok()) return 0;
  std::vector<const tri::pt2::PickleTensor*> tensors;
  collect_tensors(saved->object(), tensors);
  tri::pt2::TensorStore store(uint64_t{1} << 24);
  for (const tri::pt2::PickleTensor* tensor : tensors) {
    tri::Result<tri::pt2::HostTensor> viewed = saved->tensor(*tensor, store, "fuzzed tensor");
    if (!viewed.ok() || viewed->data == nullptr) continue;
    // Every byte the view claims must be inside the storage (or the store's).
    touch_bytes(viewed->data, viewed->nbytes);
  }
  (void)saved->tensor_dict(store);
  return 0;
}
