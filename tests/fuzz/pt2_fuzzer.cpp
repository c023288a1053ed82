// libFuzzer target for the PT2 front end: the input is a model's JSON
// (models/model.json), wrapped here in a well-formed layout-C archive whose
// weights cover the seeds' graphs. Mutating a whole zip would mostly trip
// CRC checks; this reaches the JSON reader, the signature, the lowering and
// the planner. When the archive loads, each method runs once on zeros. Every
// input must end in an Error or a run, never a crash, hang or leak.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cpp/host/host_model.h"
#include "cpp/kernels/register_kernels.h"
#include "tests/fuzz/run_methods.h"
#include "tests/cpp/support/zip_builder.h"

namespace {

bool g_registered = tri::register_portable_kernels() == tri::Error::Ok;

std::string floats(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = 0.25f * static_cast<float>(i % 7) - 0.5f;
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4);
}

std::string meta(int dims, int n) {
  const std::string size = "{\"as_int\": " + std::to_string(n) + "}";
  std::string s = "{\"dtype\": 7, \"sizes\": [" + size;
  if (dims == 2) s += ", " + size;
  s += "], \"requires_grad\": false, \"device\": {\"type\": \"cpu\", \"index\": null}, ";
  s += dims == 2 ? "\"strides\": [{\"as_int\": " + std::to_string(n) + "}, {\"as_int\": 1}]"
                 : std::string("\"strides\": [{\"as_int\": 1}]");
  return s + ", \"storage_offset\": {\"as_int\": 0}, \"layout\": 7}";
}

// Weights named as the seeds' graphs name them: the tiny test model's "w"
// and linear.pt2's "linear.weight" / "linear.bias".
const std::string kConfig =
    "{\"config\": {\"w\": {\"path_name\": \"weight_0\", \"is_param\": true, \"use_pickle\": "
    "false, \"tensor_meta\": " + meta(1, 4) + "}, \"linear.weight\": {\"path_name\": "
    "\"weight_1\", \"is_param\": true, \"use_pickle\": false, \"tensor_meta\": " + meta(2, 3) +
    "}, \"linear.bias\": {\"path_name\": \"weight_2\", \"is_param\": true, \"use_pickle\": "
    "false, \"tensor_meta\": " + meta(1, 3) + "}}}";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (!g_registered) __builtin_trap();
  const std::vector<uint8_t> archive = tri::testing::make_zip({
      {"f/data/weights/weight_0", floats(4)},
      {"f/data/weights/weight_1", floats(9)},
      {"f/data/weights/weight_2", floats(3)},
      {"f/data/weights/model_weights_config.json", kConfig},
      {"f/data/constants/model_constants_config.json", "{\"config\": {}}"},
      {"f/models/model.json", std::string(reinterpret_cast<const char*>(data), size)},
      {"f/archive_format", "pt2"},
      {"f/archive_version", "0"},
  });
  tri::host::HostModel model;
  tri::host::HostOptions options;
  options.max_planned_bytes = 4u << 20;
  options.max_instructions_per_run = 100000;
  if (model.load(tri::host::OwnedBytes::copy_of(archive.data(), archive.size()), options) !=
      tri::Error::Ok) {
    return 0;
  }
  run_every_method(model);
  return 0;
}
