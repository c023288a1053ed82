#include "tests/cpp/delegates/xnnpack_payload_builder.h"

namespace tri::xnnpack::testing {
namespace {

void put_le(std::vector<uint8_t>& out, size_t at, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out[at + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
}

// A node table of the given union type with `ids` as its uint fields in
// order (every node table of the schema that has only uint fields).
flatbuffers::Offset<void> node_table(flatbuffers::FlatBufferBuilder& b, const TestNode& n) {
  const flatbuffers::uoffset_t start = b.StartTable();
  for (size_t i = 0; i < n.ids.size(); ++i) {
    b.AddElement<uint32_t>(static_cast<flatbuffers::voffset_t>(4 + 2 * i), n.ids[i], 0xFFFFFFFE);
  }
  return flatbuffers::Offset<void>(b.EndTable(start));
}

}  // namespace

std::vector<uint8_t> PayloadBuilder::build() const {
  flatbuffers::FlatBufferBuilder b;
  std::vector<flatbuffers::Offset<fb::XValue>> values;
  for (size_t i = 0; i < values_.size(); ++i) {
    const TestValue& v = values_[i];
    auto dims = b.CreateVector(v.dims);
    auto tensor = fb::CreateXNNTensorValue(b, v.dtype, static_cast<uint32_t>(v.dims.size()), dims,
                                           v.constant, v.external_id, v.flags,
                                           v.id < 0 ? static_cast<uint32_t>(i) : static_cast<uint32_t>(v.id));
    if (v.per_tensor) {
      auto q = fb::CreatePerTensorQuant(b, v.scale, v.zero_point);
      auto qv = fb::CreateXNNQuantizedTensorValue(b, tensor, fb::XNNQuantParams::PerTensorQuant, q.Union());
      values.push_back(fb::CreateXValue(b, fb::XValueUnion::XNNQuantizedTensorValue, qv.Union()));
    } else {
      values.push_back(fb::CreateXValue(b, fb::XValueUnion::XNNTensorValue, tensor.Union()));
    }
  }
  std::vector<flatbuffers::Offset<fb::XNode>> nodes;
  for (const TestNode& n : nodes_) {
    flatbuffers::Offset<void> table = n.bare ? flatbuffers::Offset<void>() : node_table(b, n);
    flatbuffers::Offset<fb::OutputMinMax> range;
    if (n.ranged) range = fb::CreateOutputMinMax(b, n.out_min, n.out_max);
    fb::XNodeBuilder nb(b);
    nb.add_xnode_union_type(static_cast<fb::XNodeUnion>(n.type));
    if (!n.bare) nb.add_xnode_union(table);
    if (n.ranged) nb.add_output_min_max(range);
    nodes.push_back(nb.Finish());
  }
  // Constants live in the payload's constant area, 16-aligned, or (legacy)
  // in the graph's buffers, entry 0 empty.
  std::vector<flatbuffers::Offset<fb::ConstantDataOffset>> table = {
      fb::CreateConstantDataOffset(b, 0, 0)};
  std::vector<flatbuffers::Offset<fb::Buffer>> buffers;
  std::vector<uint8_t> area;
  if (legacy) {
    buffers.push_back(fb::CreateBuffer(b, b.CreateVector(std::vector<uint8_t>())));
    for (const auto& c : constants_) {
      b.ForceVectorAlignment(c.size(), 1, 16);
      buffers.push_back(fb::CreateBuffer(b, b.CreateVector(c)));
    }
  } else {
    for (const auto& c : constants_) {
      area.resize((area.size() + 15) / 16 * 16);
      table.push_back(fb::CreateConstantDataOffset(b, area.size(), c.size()));
      area.insert(area.end(), c.begin(), c.end());
    }
  }
  auto graph = fb::CreateXNNGraph(b, b.CreateString("0"), b.CreateVector(nodes),
                                  b.CreateVector(values), num_externs, 0, 0,
                                  legacy ? b.CreateVector(buffers) : 0, 0,
                                  legacy ? 0 : b.CreateVector(table));
  b.Finish(graph, identifier.c_str());
  std::vector<uint8_t> fb_bytes(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  if (legacy) return fb_bytes;
  fb_bytes.resize((fb_bytes.size() + 15) / 16 * 16);
  std::vector<uint8_t> out(32, 0);
  std::memcpy(out.data() + 4, "XH00", 4);
  put_le(out, 8, 30, 2);
  put_le(out, 10, 32, 4);
  put_le(out, 14, b.GetSize(), 4);
  put_le(out, 18, 32 + fb_bytes.size(), 4);
  put_le(out, 22, area.size(), 8);
  out.insert(out.end(), fb_bytes.begin(), fb_bytes.end());
  out.insert(out.end(), area.begin(), area.end());
  return out;
}

}  // namespace tri::xnnpack::testing
