#include "cpp/host/method_graph.h"

#include <algorithm>
#include <string>
#include <utility>

#include "cpp/runtime/backend/backend.h"
#include "cpp/runtime/core/evalue.h"

namespace tri::host {

namespace {

nlohmann::json value_json(const GraphValue& v) {
  nlohmann::json out = {{"name", v.name}, {"kind", v.kind}};
  if (!v.dtype.empty()) out["dtype"] = v.dtype;
  if (v.kind == "tensor" || !v.shape.empty()) out["shape"] = v.shape;
  if (v.dynamic) out["dynamic"] = true;
  if (!v.weight.empty()) out["weight"] = v.weight;
  if (!v.literal.is_null()) out["literal"] = v.literal;
  return out;
}

nlohmann::json ports_json(const std::vector<GraphPort>& ports) {
  nlohmann::json out = nlohmann::json::array();
  for (const GraphPort& p : ports) {
    nlohmann::json port = nlohmann::json::object();
    if (!p.name.empty()) port["name"] = p.name;
    if (p.value >= 0) {
      port["value"] = p.value;
    } else {
      port["literal"] = p.literal;
    }
    out.push_back(std::move(port));
  }
  return out;
}

// One graph without its subgraphs: values, nodes, and the edges from the
// node that last wrote a value to each node that reads it.
nlohmann::json flat_graph_json(const MethodGraph& g) {
  nlohmann::json values = nlohmann::json::array();
  for (const GraphValue& v : g.values) values.push_back(value_json(v));
  nlohmann::json nodes = nlohmann::json::array();
  nlohmann::json edges = nlohmann::json::array();
  std::vector<int32_t> writer(g.values.size(), -1);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const GraphNode& node = g.nodes[n];
    for (const GraphPort& p : node.inputs) {
      if (p.value < 0 || static_cast<size_t>(p.value) >= g.values.size()) continue;
      edges.push_back({{"from", writer[static_cast<size_t>(p.value)]},
                       {"to", static_cast<int32_t>(n)},
                       {"value", p.value}});
    }
    for (const GraphPort& p : node.outputs) {
      if (p.value >= 0 && static_cast<size_t>(p.value) < g.values.size()) {
        writer[static_cast<size_t>(p.value)] = static_cast<int32_t>(n);
      }
    }
    nlohmann::json j = {{"index", n},
                        {"kind", node.kind},
                        {"op", node.op},
                        {"inputs", ports_json(node.inputs)},
                        {"outputs", ports_json(node.outputs)}};
    if (!node.attributes.empty()) j["attributes"] = node.attributes;
    if (!node.subgraphs.empty()) j["subgraphs"] = node.subgraphs;
    if (node.kind == "node") j["lowered"] = node.lowered;
    if (node.jump_to >= 0) j["jumpTo"] = node.jump_to;
    if (!node.location.empty()) j["location"] = node.location;
    nodes.push_back(std::move(j));
  }
  return {{"name", g.name}, {"kind", g.kind},         {"values", std::move(values)},
          {"inputs", g.inputs}, {"outputs", g.outputs}, {"nodes", std::move(nodes)},
          {"edges", std::move(edges)}};
}

// A delegate's float types by numpy's names, as every other graph has
// them; its quantized kinds keep the backend's names.
std::string delegate_dtype(const char* dtype) {
  const std::string name = dtype;
  if (name == "fp32") return "float32";
  if (name == "fp16") return "float16";
  return name;
}

std::vector<int64_t> dims_of(const DelegateValueInfo& v) {
  return std::vector<int64_t>(v.dims, v.dims + v.rank);
}

}  // namespace

nlohmann::json graph_json(const MethodGraph& graph) {
  nlohmann::json out = flat_graph_json(graph);
  nlohmann::json subgraphs = nlohmann::json::array();
  for (const MethodGraph& sub : graph.subgraphs) subgraphs.push_back(flat_graph_json(sub));
  out["subgraphs"] = std::move(subgraphs);
  return out;
}

nlohmann::json weights_json(const std::vector<WeightInfo>& weights) {
  nlohmann::json list = nlohmann::json::array();
  for (const WeightInfo& w : weights) {
    list.push_back({{"name", w.name},
                    {"dtype", w.dtype},
                    {"shape", w.shape},
                    {"nbytes", w.nbytes},
                    {"source", w.source}});
  }
  return {{"weights", std::move(list)}};
}

const char* graph_kind_name(Tag tag) {
  switch (tag) {
    case Tag::None: return "none";
    case Tag::Int: return "int";
    case Tag::Double: return "double";
    case Tag::Bool: return "bool";
    case Tag::String: return "string";
    case Tag::Tensor: return "tensor";
    case Tag::IntList: return "int_list";
    case Tag::DoubleList: return "double_list";
    case Tag::BoolList: return "bool_list";
    case Tag::TensorList: return "tensor_list";
    case Tag::OptionalTensorList: return "optional_tensor_list";
  }
  return "unknown";
}

Result<MethodGraph> delegate_graph(const DelegateInstance& delegate, size_t delegate_index,
                                   std::vector<WeightInfo>* weights) {
  MethodGraph g;
  const std::string backend = delegate.backend_id ? delegate.backend_id : "";
  g.name = backend + "#" + std::to_string(delegate_index);
  g.kind = "delegate";
  if (delegate.backend == nullptr) return g;
  const size_t num_values = delegate.backend->num_values(delegate.handle);
  g.values.resize(num_values);
  std::vector<std::pair<int32_t, int32_t>> inputs, outputs;  // (argument, value)
  for (size_t i = 0; i < num_values; ++i) {
    TRI_ASSIGN_OR_RETURN(DelegateValueInfo info, delegate.backend->value_info(delegate.handle, i));
    GraphValue& v = g.values[i];
    v.name = "v" + std::to_string(i);
    v.kind = "tensor";
    v.dtype = delegate_dtype(info.dtype);
    v.shape = dims_of(info);
    const std::string kind = info.kind;
    if (kind == "input") inputs.emplace_back(info.external, static_cast<int32_t>(i));
    if (kind == "output") outputs.emplace_back(info.external, static_cast<int32_t>(i));
    if (kind == "constant") {
      // Named data is the program's, shared by its delegates: its key names
      // it. Data inside the blob is this delegate's own. No data: the
      // delegate packed it and the file's copy was freed after load.
      const bool named = info.key[0] != '\0';
      v.weight = named ? std::string(info.key) : g.name + "/" + v.name;
      if (weights != nullptr) {
        weights->push_back({v.weight, v.dtype, info.storage, v.shape, info.data, info.nbytes,
                            info.data == nullptr ? "packed" : named ? "named_data" : "delegate"});
      }
    }
  }
  std::sort(inputs.begin(), inputs.end());
  std::sort(outputs.begin(), outputs.end());
  for (const auto& in : inputs) g.inputs.push_back(in.second);
  for (const auto& out : outputs) g.outputs.push_back(out.second);
  const size_t num_nodes = delegate.backend->num_nodes(delegate.handle);
  for (size_t n = 0; n < num_nodes; ++n) {
    TRI_ASSIGN_OR_RETURN(DelegateNodeInfo info, delegate.backend->node_info(delegate.handle, n));
    GraphNode node;
    node.kind = "op";
    node.op = info.type;
    for (int k = 0; k < info.num_inputs; ++k) {
      node.inputs.push_back({"", static_cast<int32_t>(info.input_ids[k]), nullptr});
    }
    for (int k = 0; k < info.num_outputs; ++k) {
      node.outputs.push_back({"", static_cast<int32_t>(info.output_ids[k]), nullptr});
    }
    g.nodes.push_back(std::move(node));
  }
  return g;
}

}  // namespace tri::host
