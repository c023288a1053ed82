#include "cpp/formats/bef/host/bef_graph.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cpp/formats/bef/bef_cursor.h"
#include "cpp/formats/bef/bef_location.h"
#include "cpp/kernels/util/half.h"
#include "cpp/runtime/async/attribute_reader.h"
#include "cpp/runtime/async/attribute_type.h"
#include "cpp/runtime/core/byte_reader.h"

namespace tri::bef {
namespace {

using async::AttributeType;
using nlohmann::json;

// Past these an attribute is summarized rather than listed, so one huge
// attribute cannot drown the rest of the graph.
constexpr uint32_t kMaxListed = 256;
constexpr uint32_t kMaxDenseValues = 16;  // as tfrt_dht.print_tensor
constexpr uint32_t kMaxStringBytes = 4096;
constexpr int kMaxAggregateDepth = 8;
// What one graph's attributes may produce in all, in units of about one
// JSON value (16 bytes) or one string byte: some 16 MB at worst. Attributes
// are shared by offset, and aggregates name their elements by offset, so
// without a total a small file could print one big aggregate thousands of
// times, or one that names the next 200 times, eight deep.
constexpr uint64_t kDecodeBudget = uint64_t{1} << 20;
// An aggregate's element may be an object (an offset, a dense value, a
// summary) rather than one JSON value: it is charged as that.
constexpr uint64_t kElementUnits = 8;

// JSON strings must be UTF-8 (nlohmann aborts when dumping anything else in
// a build without exceptions), and a file's strings are whatever it says:
// invalid sequences become U+FFFD.
std::string utf8(const char* data, size_t size) {
  static const char kReplacement[] = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(size);
  size_t i = 0;
  while (i < size) {
    const uint8_t lead = static_cast<uint8_t>(data[i]);
    const size_t length = lead < 0x80 ? 1
                          : (lead >> 5) == 0x6 ? 2
                          : (lead >> 4) == 0xE ? 3
                          : (lead >> 3) == 0x1E ? 4
                                                : 0;
    bool valid = length != 0 && length <= size - i;
    uint32_t code_point = length == 1 ? lead : lead & (0x7F >> length);
    for (size_t k = 1; valid && k < length; ++k) {
      const uint8_t next = static_cast<uint8_t>(data[i + k]);
      valid = (next & 0xC0) == 0x80;
      code_point = (code_point << 6) | (next & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are invalid too.
    static const uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
    if (valid && (code_point < kMinimum[length] || code_point > 0x10FFFF ||
                  (code_point >= 0xD800 && code_point <= 0xDFFF))) {
      valid = false;
    }
    if (valid) {
      out.append(data + i, length);
      i += length;
    } else {
      out += kReplacement;
      ++i;
    }
  }
  return out;
}

std::string utf8(const char* text) { return utf8(text, std::strlen(text)); }

// As value_json.cpp writes floats: JSON has no NaN or infinity.
json float_json(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

float load_f32(const uint8_t* p) {
  const uint32_t bits = read_u32_le(p);
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

double load_f64(const uint8_t* p) {
  const uint64_t bits = read_u64_le(p);
  double d;
  std::memcpy(&d, &bits, sizeof(d));
  return d;
}

// One element of fixed-width DType `dtype` at `p` (dtype_size(dtype) bytes).
json element_json(uint8_t dtype, const uint8_t* p) {
  switch (static_cast<AttributeType>(dtype)) {
    case AttributeType::I1: return p[0] != 0;
    case AttributeType::UI8:
    case AttributeType::QUI8: return p[0];
    case AttributeType::I8:
    case AttributeType::QI8: return static_cast<int8_t>(p[0]);
    case AttributeType::UI16:
    case AttributeType::QUI16: return read_u16_le(p);
    case AttributeType::I16:
    case AttributeType::QI16: return static_cast<int16_t>(read_u16_le(p));
    case AttributeType::UI32: return read_u32_le(p);
    case AttributeType::I32:
    case AttributeType::QI32: return static_cast<int32_t>(read_u32_le(p));
    case AttributeType::UI64: return read_u64_le(p);
    case AttributeType::I64: return static_cast<int64_t>(read_u64_le(p));
    case AttributeType::F16: return float_json(half_to_float(Half{read_u16_le(p)}));
    case AttributeType::BF16: return float_json(bfloat16_to_float(BFloat16{read_u16_le(p)}));
    case AttributeType::F32: return float_json(load_f32(p));
    case AttributeType::F64: return float_json(load_f64(p));
    case AttributeType::Complex64:
      return json::array({float_json(load_f32(p)), float_json(load_f32(p + 4))});
    case AttributeType::Complex128:
      return json::array({float_json(load_f64(p)), float_json(load_f64(p + 8))});
    default: return nullptr;
  }
}

// A Type attribute's DType code as its name; a code with no name stays a
// number, so that nothing made up is shown.
json type_json(uint8_t dtype) {
  const char* name = async::dtype_name(dtype);
  if (std::strcmp(name, "unknown") == 0) return dtype;
  return name;
}

bool fits(Span<const uint8_t> section, uint64_t offset, uint64_t size) {
  return offset <= section.size() && size <= section.size() - offset;
}

// What weights() calls a dense attribute: attributes are uniqued, so its
// offset in the Attributes section names it however many kernels use it.
std::string dense_weight_name(uint32_t offset) { return "dense@" + std::to_string(offset); }

// The runtime's type for a BEF dtype code, where one holds the same bytes.
bool scalar_type_of(uint8_t dtype, ScalarType* out) {
  switch (static_cast<AttributeType>(dtype)) {
    case AttributeType::UI8: *out = ScalarType::Byte; return true;
    case AttributeType::UI16: *out = ScalarType::UInt16; return true;
    case AttributeType::UI32: *out = ScalarType::UInt32; return true;
    case AttributeType::UI64: *out = ScalarType::UInt64; return true;
    case AttributeType::I1: *out = ScalarType::Bool; return true;
    case AttributeType::I8: *out = ScalarType::Char; return true;
    case AttributeType::I16: *out = ScalarType::Short; return true;
    case AttributeType::I32: *out = ScalarType::Int; return true;
    case AttributeType::I64: *out = ScalarType::Long; return true;
    case AttributeType::F16: *out = ScalarType::Half; return true;
    case AttributeType::BF16: *out = ScalarType::BFloat16; return true;
    case AttributeType::F32: *out = ScalarType::Float; return true;
    case AttributeType::F64: *out = ScalarType::Double; return true;
    default: return false;
  }
}

// Attribute values as JSON, by their BEFAttributeType (FORMAT-NOTES §7).
// Every read is bounds-checked by AttributeReader or here; whatever cannot
// be decoded is shown as its raw offset.
class AttributeDecoder {
 public:
  explicit AttributeDecoder(const BefFile& file) : reader_(file.attributes()) {}

  // `type` is the attribute's code from AttributeTypes, or -1 when unknown.
  json decode(uint32_t offset, int64_t type) {
    if (type < 0 || type > UINT8_MAX) return raw(offset, type);
    return value(offset, static_cast<uint8_t>(type));
  }

 private:
  static json raw(uint32_t offset, int64_t type) {
    json out = {{"offset", offset}};
    if (type >= 0) out["bef_type"] = type;
    return out;
  }

  // Takes `units` from the budget; false (and the budget spent) when it
  // does not cover them.
  bool charge(uint64_t units) {
    if (units > budget_) {
      budget_ = 0;
      return false;
    }
    budget_ -= units;
    return true;
  }

  // Past the budget an attribute shows its offset, and an aggregate's
  // element (its slot already paid for) is null.
  json value(uint32_t offset, uint8_t type) {
    if (!charge(depth_ == 0 ? 1 : kElementUnits)) {
      return depth_ == 0 ? raw(offset, type) : json(nullptr);
    }
    if (type & async::kArrayAttributeFlag) {
      return array(offset, static_cast<uint8_t>(type & ~async::kArrayAttributeFlag), type);
    }
    switch (static_cast<AttributeType>(type)) {
      case AttributeType::String: return string(offset);
      case AttributeType::Type: return type_attribute(offset);
      case AttributeType::Shape: return shape(offset);
      case AttributeType::Dense: return dense(offset);
      case AttributeType::Aggregate: return aggregate(offset);
      default: return scalar(offset, type);
    }
  }

  json scalar(uint32_t offset, uint8_t type) {
    const uint32_t size = async::dtype_size(type);
    const Span<const uint8_t> section = reader_.section();
    if (size == 0 || !fits(section, offset, size)) return raw(offset, type);
    return element_json(type, section.data() + offset);
  }

  json type_attribute(uint32_t offset) {
    Result<uint8_t> dtype = reader_.scalar<uint8_t>(offset);
    if (!dtype.ok()) return raw(offset, static_cast<uint8_t>(AttributeType::Type));
    return type_json(*dtype);
  }

  json string(uint32_t offset) {
    Result<async::StringAttr> s = reader_.string(offset);
    if (!s.ok()) return raw(offset, static_cast<uint8_t>(AttributeType::String));
    const uint32_t shown = s->size < kMaxStringBytes ? s->size : kMaxStringBytes;
    if (!charge(shown)) return raw(offset, static_cast<uint8_t>(AttributeType::String));
    if (s->size <= kMaxStringBytes) return utf8(s->data, s->size);
    return {{"string", utf8(s->data, shown)}, {"size", s->size}};
  }

  // A uint32 count, then packed elements of a fixed-width DType or of Type.
  json array(uint32_t offset, uint8_t element, uint8_t type) {
    const bool types = element == static_cast<uint8_t>(AttributeType::Type);
    const uint32_t size = types ? 1 : async::dtype_size(element);
    if (size == 0) return raw(offset, type);
    Result<async::ArrayAttr> a = reader_.array(offset, size);
    if (!a.ok()) return raw(offset, type);
    if (a->count > kMaxListed || !charge(a->count)) {
      return {{"dtype", types ? "type" : async::dtype_name(element)}, {"count", a->count}};
    }
    json out = json::array();
    for (uint32_t i = 0; i < a->count; ++i) {
      const uint8_t* p = a->data + size_t{i} * size;
      out.push_back(types ? type_json(*p) : element_json(element, p));
    }
    return out;
  }

  // base{u8 alignment, u8 dtype, u16 prefix_size, u32 byte_size}, u32 rank,
  // rank × i64 dims; an unranked shape is a bare uint32 0.
  json shape(uint32_t offset) {
    const uint8_t code = static_cast<uint8_t>(AttributeType::Shape);
    const Span<const uint8_t> section = reader_.section();
    if (!fits(section, offset, 4)) return raw(offset, code);
    const uint8_t* base = section.data() + offset;
    if (base[0] == 0) return {{"shape", nullptr}};
    if (!fits(section, offset, 12)) return raw(offset, code);
    const uint32_t byte_size = read_u32_le(base + 4);
    const uint32_t rank = read_u32_le(base + 8);
    if (!fits(section, offset, byte_size) || 12 + 8 * uint64_t{rank} > byte_size) {
      return raw(offset, code);
    }
    if (rank > kMaxListed || !charge(rank)) return {{"rank", rank}};
    json dims = json::array();
    for (uint32_t i = 0; i < rank; ++i) {
      dims.push_back(static_cast<int64_t>(read_u64_le(base + 12 + 8 * size_t{i})));
    }
    return {{"shape", std::move(dims)}};
  }

  json dense(uint32_t offset) {
    Result<async::DenseAttr> d = reader_.dense(offset);
    if (!d.ok()) return raw(offset, static_cast<uint8_t>(AttributeType::Dense));
    json out = {{"dtype", async::dtype_name(d->dtype)}, {"weight", dense_weight_name(offset)}};
    if (d->rank <= kMaxListed && charge(d->rank)) {
      json dims = json::array();
      for (uint32_t i = 0; i < d->rank; ++i) dims.push_back(d->dim(i));
      out["shape"] = std::move(dims);
    } else {
      out["rank"] = d->rank;
    }
    if (d->count > kMaxDenseValues || !charge(d->count)) {
      out["count"] = d->count;
      return out;
    }
    const uint32_t size = async::dtype_size(d->dtype);
    json values = json::array();
    for (uint32_t i = 0; i < d->count; ++i) {
      values.push_back(element_json(d->dtype, d->data + size_t{i} * size));
    }
    out["values"] = std::move(values);
    return out;
  }

  // Elements are found through an offset table and decoded by the 1-byte
  // tag before each; nesting is cut off at kMaxAggregateDepth.
  json aggregate(uint32_t offset) {
    const uint8_t code = static_cast<uint8_t>(AttributeType::Aggregate);
    if (depth_ >= kMaxAggregateDepth) return raw(offset, code);
    Result<async::AggregateAttr> a = reader_.aggregate(offset);
    if (!a.ok()) return raw(offset, code);
    if (a->count > kMaxListed || !charge(a->count)) return {{"count", a->count}};
    json out = json::array();
    for (uint32_t i = 0; i < a->count; ++i) {
      uint8_t tag = 0;
      Result<uint32_t> element = reader_.aggregate_element(*a, i, &tag);
      if (!element.ok()) {
        out.push_back(nullptr);
        continue;
      }
      ++depth_;
      out.push_back(value(*element, tag));
      --depth_;
    }
    return out;
  }

  async::AttributeReader reader_;
  uint64_t budget_ = kDecodeBudget;
  int depth_ = 0;  // of the aggregate element being decoded; 0: an attribute
};

// The optional sections 8, 9 and 10 (FORMAT-NOTES §8). BefFile::open does
// not look at them, so each is read whole here and dropped (left empty) at
// its first inconsistency with the validated tables; every count is checked
// against the bytes left before anything is allocated for it.
struct OptionalSections {
  std::unordered_map<uint32_t, uint32_t> attribute_types;  // offset → BEFAttributeType
  // Per function in FunctionIndex order: a Strings offset for every
  // attribute of every kernel, in kernel order.
  std::vector<std::vector<uint32_t>> attribute_names;
  // Per function: a Types index for every register.
  std::vector<std::vector<uint32_t>> register_types;
};

BefCursor section_cursor(const BefFile& file, SectionId id) {
  const Span<const uint8_t> bytes = file.section(id);
  return BefCursor(bytes.data(), bytes.data() + bytes.size());
}

// `count` × (VBR attribute offset, VBR type); the type is a VBR, not a byte.
std::unordered_map<uint32_t, uint32_t> read_attribute_types(const BefFile& file) {
  if (!file.has_section(SectionId::AttributeTypes)) return {};
  BefCursor cursor = section_cursor(file, SectionId::AttributeTypes);
  uint32_t count = 0;
  if (!cursor.read_vbr(&count) || count > cursor.remaining() / 2) return {};
  std::unordered_map<uint32_t, uint32_t> types;
  types.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t offset = 0, type = 0;
    if (!cursor.read_vbr(&offset) || !cursor.read_vbr(&type)) return {};
    types[offset] = type;
  }
  return types;
}

// Reads `count` VBRs into `out`, if the section has at least that many bytes.
bool read_vbr_list(BefCursor& cursor, uint64_t count, std::vector<uint32_t>* out) {
  if (count > cursor.remaining()) return false;
  out->resize(static_cast<size_t>(count));
  for (uint32_t& v : *out) {
    if (!cursor.read_vbr(&v)) return false;
  }
  return true;
}

// The function count (native functions included, though they add nothing),
// then per non-native function its kernel count and the names of all its
// kernels' attributes, concatenated: there is no per-kernel count, each
// record's num_attributes says how many are its own.
std::vector<std::vector<uint32_t>> read_attribute_names(const BefFile& file) {
  if (!file.has_section(SectionId::AttributeNames)) return {};
  BefCursor cursor = section_cursor(file, SectionId::AttributeNames);
  uint32_t count = 0;
  if (!cursor.read_vbr(&count) || count != file.num_functions()) return {};
  std::vector<std::vector<uint32_t>> names(count);
  for (uint32_t f = 0; f < count; ++f) {
    const FunctionEntry& entry = file.function(f);
    if (entry.kind == FunctionKind::Native) continue;
    uint32_t num_kernels = 0;
    if (!cursor.read_vbr(&num_kernels) || num_kernels != entry.body.kernels.size()) return {};
    uint64_t total = 0;
    for (uint32_t k = 0; k < num_kernels; ++k) total += entry.body.kernel(k).num_attributes();
    if (!read_vbr_list(cursor, total, &names[f])) return {};
  }
  return names;
}

// The function count, then per non-native function its register count and
// a Types index for each register.
std::vector<std::vector<uint32_t>> read_register_types(const BefFile& file) {
  if (!file.has_section(SectionId::RegisterTypes)) return {};
  BefCursor cursor = section_cursor(file, SectionId::RegisterTypes);
  uint32_t count = 0;
  if (!cursor.read_vbr(&count) || count != file.num_functions()) return {};
  std::vector<std::vector<uint32_t>> types(count);
  for (uint32_t f = 0; f < count; ++f) {
    const FunctionEntry& entry = file.function(f);
    if (entry.kind == FunctionKind::Native) continue;
    uint32_t num_registers = 0;
    if (!cursor.read_vbr(&num_registers) || num_registers != entry.body.num_registers) return {};
    if (!read_vbr_list(cursor, num_registers, &types[f])) return {};
  }
  return types;
}

class GraphBuilder {
 public:
  GraphBuilder(const BefFile& file, const char* source_name)
      : file_(file), source_name_(source_name == nullptr ? "" : utf8(source_name)), decoder_(file) {
    optional_.attribute_types = read_attribute_types(file);
    optional_.attribute_names = read_attribute_names(file);
    optional_.register_types = read_register_types(file);
  }

  host::MethodGraph build(uint32_t function) {
    const char* name = file_.function(function).name;
    host::MethodGraph top = function_graph(
        function, name[0] != '\0' ? utf8(name) : "function " + std::to_string(function));
    // Building a subgraph may discover more: pending_ grows as this runs.
    for (size_t i = 0; i < pending_.size(); ++i) {
      const std::pair<uint32_t, std::string> next = pending_[i];
      top.subgraphs.push_back(function_graph(next.first, next.second));
    }
    return top;
  }

 private:
  host::MethodGraph function_graph(uint32_t function, const std::string& name) {
    host::MethodGraph graph;
    graph.name = name;
    graph.kind = "function";
    const FunctionEntry& entry = file_.function(function);
    if (entry.kind == FunctionKind::Native) return graph;  // a C++ callable: no body
    const FunctionBody& body = entry.body;
    graph.values.reserve(body.num_registers);
    for (uint32_t r = 0; r < body.num_registers; ++r) {
      host::GraphValue value;
      value.name = "%" + std::to_string(r);
      value.kind = register_type(function, r);
      graph.values.push_back(std::move(value));
    }
    // The pseudo kernel's first result is the synthetic start register (one
    // past the last); the others are the arguments.
    const KernelRecord pseudo = body.kernel(0);
    for (uint32_t i = 1; i < pseudo.num_results(); ++i) {
      const uint32_t r = pseudo.result(i);
      if (r < body.num_registers) graph.inputs.push_back(static_cast<int32_t>(r));
    }
    for (uint32_t r : body.result_registers) graph.outputs.push_back(static_cast<int32_t>(r));
    uint32_t first_name = 0;  // where the next kernel's names start in AttributeNames
    graph.nodes.reserve(body.kernels.size() - 1);
    for (uint32_t k = 1; k < body.kernels.size(); ++k) {
      graph.nodes.push_back(kernel_node(function, body.kernel(k), first_name, name));
      first_name += body.kernel(k).num_attributes();
    }
    return graph;
  }

  host::GraphNode kernel_node(uint32_t function, const KernelRecord& record, uint32_t first_name,
                              const std::string& graph_name) {
    host::GraphNode node;
    node.kind = "kernel";
    node.op = utf8(file_.kernel_name(record.code()));
    for (uint32_t i = 0; i < record.num_arguments(); ++i) {
      host::GraphPort port;
      port.value = static_cast<int32_t>(record.argument(i));
      node.inputs.push_back(std::move(port));
    }
    for (uint32_t i = 0; i < record.num_results(); ++i) {
      host::GraphPort port;
      port.value = static_cast<int32_t>(record.result(i));
      node.outputs.push_back(std::move(port));
    }
    for (uint32_t i = 0; i < record.num_functions(); ++i) {
      node.subgraphs.push_back(subgraph_index(record.function_index(i), graph_name));
    }
    for (uint32_t i = 0; i < record.num_attributes(); ++i) {
      const uint32_t offset = record.attribute_offset(i);
      const auto found = optional_.attribute_types.find(offset);
      const int64_t type = found == optional_.attribute_types.end() ? -1 : int64_t{found->second};
      std::string key = unique_key(node.attributes, attribute_name(function, first_name + i, i), i);
      node.attributes[key] = decoder_.decode(offset, type);
    }
    node.location = location(record.location());
    return node;
  }

  // The subgraph index of `function`, given one (and queued) when first met.
  int32_t subgraph_index(uint32_t function, const std::string& user) {
    const auto found = subgraph_of_.find(function);
    if (found != subgraph_of_.end()) return found->second;
    const int32_t index = static_cast<int32_t>(pending_.size());
    subgraph_of_.emplace(function, index);
    const char* name = file_.function(function).name;
    pending_.emplace_back(function, name[0] != '\0' ? utf8(name)
                                                    : user + "/region" + std::to_string(function));
    return index;
  }

  std::string register_type(uint32_t function, uint32_t reg) const {
    if (function >= optional_.register_types.size()) return "";
    const std::vector<uint32_t>& types = optional_.register_types[function];
    if (reg >= types.size() || types[reg] >= file_.num_types()) return "";
    return utf8(file_.type_name(types[reg]));
  }

  std::string attribute_name(uint32_t function, uint32_t name_index, uint32_t i) const {
    const std::string fallback = "attr" + std::to_string(i);
    if (function >= optional_.attribute_names.size()) return fallback;
    const std::vector<uint32_t>& names = optional_.attribute_names[function];
    if (name_index >= names.size()) return fallback;
    const char* name = file_.string_at(names[name_index]);
    return name == nullptr || name[0] == '\0' ? fallback : utf8(name);
  }

  // A hostile file may give two attributes of a kernel one name: the later
  // gets "#<i>" appended until it is new, rather than replacing the first.
  static std::string unique_key(const json& attributes, std::string key, uint32_t i) {
    while (attributes.contains(key)) key += "#" + std::to_string(i);
    return key;
  }

  std::string location(uint32_t offset) const {
    const SourceLocation where = decode_location(file_, offset);
    if (where.line == 0 && where.filename == nullptr) return "";
    std::string file;
    if (where.filename != nullptr) {
      file = utf8(where.filename);
    } else if (!source_name_.empty()) {
      file = source_name_;
    } else {
      return "";
    }
    return file + ":" + std::to_string(where.line) + ":" + std::to_string(where.column);
  }

  const BefFile& file_;
  std::string source_name_;
  OptionalSections optional_;
  AttributeDecoder decoder_;
  std::map<uint32_t, int32_t> subgraph_of_;
  std::vector<std::pair<uint32_t, std::string>> pending_;  // by subgraph index
};

}  // namespace

std::vector<host::WeightInfo> bef_dense_weights(const BefFile& file) {
  std::vector<host::WeightInfo> out;
  async::AttributeReader reader(file.attributes());
  std::vector<uint32_t> offsets;
  for (const auto& entry : read_attribute_types(file)) {
    if (entry.second == static_cast<uint32_t>(AttributeType::Dense)) offsets.push_back(entry.first);
  }
  std::sort(offsets.begin(), offsets.end());
  for (uint32_t offset : offsets) {
    Result<async::DenseAttr> d = reader.dense(offset);
    if (!d.ok()) continue;  // shown raw in the graph; nothing to hand out
    host::WeightInfo w;
    w.name = dense_weight_name(offset);
    const bool typed = scalar_type_of(d->dtype, &w.storage);
    w.dtype = typed ? scalar_type_numpy_name(w.storage) : async::dtype_name(d->dtype);
    for (uint32_t i = 0; i < d->rank; ++i) w.shape.push_back(d->dim(i));
    w.data = d->data;
    w.nbytes = uint64_t{d->count} * async::dtype_size(d->dtype);
    // Complex and other kinds come as their bytes.
    if (!typed) w.storage = ScalarType::Byte;
    w.source = "attribute";
    out.push_back(std::move(w));
  }
  clear_error();
  return out;
}

Result<host::MethodGraph> bef_function_graph(const BefFile& file, uint32_t function_index,
                                             const char* source_name) {
  if (function_index >= file.num_functions()) {
    const bool named = source_name != nullptr && source_name[0] != '\0';
    return fail(Error::InvalidArgument, "%s%sBEF function %u does not exist (the file has %u)",
                named ? source_name : "", named ? ": " : "", function_index, file.num_functions());
  }
  // AttributeReader records why an attribute did not decode as the thread's
  // error; a graph that shows such an attribute raw is still a success, so
  // the caller's error state is put back.
  const Error code = last_error_code();
  const std::string message = last_error_message();
  host::MethodGraph graph = GraphBuilder(file, source_name).build(function_index);
  if (code == Error::Ok) {
    clear_error();
  } else {
    fail(code, "%s", message.c_str());
  }
  return graph;
}

}  // namespace tri::bef
