// Builds XnnpackBackend payloads in tests: a few values and nodes through
// FlatBufferBuilder (so a test can also write what no exporter would), then
// the XH00 header in front.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cpp/delegates/xnnpack/schema/xnnpack_graph_generated.h"

namespace tri::xnnpack::testing {

namespace fb = ::tri_xnn;

struct TestValue {
  fb::XNNDatatype dtype = fb::XNNDatatype::xnn_datatype_fp32;
  std::vector<uint32_t> dims;
  uint32_t constant = 0;  // index into constants (1-based), 0: none
  uint32_t external_id = 0xFFFFFFFF;
  uint32_t flags = 0;
  int32_t id = -1;  // id_out; -1: the value's position
  bool per_tensor = false;
  float scale = 1.0f;
  int32_t zero_point = 0;
};

struct TestNode {
  uint8_t type = 0;  // XNodeUnion number
  std::vector<uint32_t> ids;  // in the table's field order
  bool bare = false;          // the union type without its table
  bool ranged = false;
  float out_min = 0, out_max = 0;
};

class PayloadBuilder {
 public:
  uint32_t value(TestValue v) {
    values_.push_back(v);
    return static_cast<uint32_t>(values_.size() - 1);
  }
  // fp32 external input / output / internal / constant helpers.
  uint32_t input(std::vector<uint32_t> dims, uint32_t ext) {
    TestValue v;
    v.dims = std::move(dims);
    v.external_id = ext;
    v.flags = 1;
    return value(v);
  }
  uint32_t output(std::vector<uint32_t> dims, uint32_t ext) {
    TestValue v;
    v.dims = std::move(dims);
    v.external_id = ext;
    v.flags = 2;
    return value(v);
  }
  uint32_t internal(std::vector<uint32_t> dims) {
    TestValue v;
    v.dims = std::move(dims);
    return value(v);
  }
  uint32_t constant(std::vector<uint32_t> dims, const std::vector<float>& data) {
    constants_.emplace_back(reinterpret_cast<const uint8_t*>(data.data()),
                            reinterpret_cast<const uint8_t*>(data.data() + data.size()));
    TestValue v;
    v.dims = std::move(dims);
    v.constant = static_cast<uint32_t>(constants_.size());
    return value(v);
  }
  void node(TestNode n) { nodes_.push_back(std::move(n)); }
  // Binary nodes (_XNNNode2x1: input1, input2, output, flags).
  void binary(uint8_t type, uint32_t a, uint32_t b, uint32_t out) {
    TestNode n;
    n.type = type;
    n.ids = {a, b, out};
    node(n);
  }

  uint32_t num_externs = 0;
  std::string identifier = "XN01";
  // The XN00 form of early exports: no XH00 header, constants in the
  // graph's own buffers (XNNGraph.constant_buffer) instead of after it.
  bool legacy = false;

  // The whole payload: header, flatbuffer, constants (inline, 16-aligned).
  std::vector<uint8_t> build() const;

 private:
  std::vector<TestValue> values_;
  std::vector<TestNode> nodes_;
  std::vector<std::vector<uint8_t>> constants_;
};

}  // namespace tri::xnnpack::testing
