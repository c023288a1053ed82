#include "cpp/formats/pt2/host/pt2_inspect.h"

#include <map>
#include <string>
#include <utility>

namespace tri::pt2 {

using host::GraphNode;
using host::GraphPort;
using host::GraphValue;
using host::MethodGraph;
using host::WeightInfo;

namespace {

const char* input_source(InputKind kind) {
  switch (kind) {
    case InputKind::Parameter: return "parameter";
    case InputKind::Buffer: return "buffer";
    case InputKind::TensorConstant: return "tensor_constant";
    default: return "";
  }
}

std::string weight_name(const Pt2Program& program, size_t method, const std::string& fqn) {
  return program.num_methods() > 1 ? std::string(program.method_name(method)) + "/" + fqn : fqn;
}

// The graph's values by name, made as nodes first name them.
class ValueTable {
 public:
  explicit ValueTable(const Pt2Graph& graph, MethodGraph* out) : graph_(graph), out_(out) {}

  int32_t tensor(const std::string& name) {
    auto found = index_.find(name);
    if (found != index_.end()) return found->second;
    GraphValue v;
    v.name = name;
    auto meta = graph_.tensor_values.find(name);
    if (meta != graph_.tensor_values.end()) {
      v.kind = "tensor";
      v.dtype = scalar_type_numpy_name(meta->second.dtype);
      for (const SymDim& d : meta->second.sizes) {
        v.shape.push_back(d.value);  // a symbolic dim: its hint (-1: none)
        if (d.symbolic) v.dynamic = true;
      }
    } else {
      v.kind = "sym_int";
    }
    return add(name, std::move(v));
  }

  int32_t add(const std::string& name, GraphValue v) {
    const int32_t index = static_cast<int32_t>(out_->values.size());
    out_->values.push_back(std::move(v));
    index_[name] = index;
    return index;
  }

 private:
  const Pt2Graph& graph_;
  MethodGraph* out_;
  std::map<std::string, int32_t> index_;
};

// The tensor names an argument refers to: {"name"} objects anywhere in it
// (as_tensor, as_tensors, as_optional_tensors) and sym ints by name.
void tensor_refs(const Json& value, std::vector<std::string>* names, int depth = 0) {
  if (depth > 8) return;
  if (value.is_object()) {
    auto name = value.find("name");
    if (name != value.end() && name->is_string() && value.size() == 1) {
      names->push_back(name->get<std::string>());
      return;
    }
    auto sym = value.find("as_name");
    if (sym != value.end() && sym->is_string()) {
      names->push_back(sym->get<std::string>());
      return;
    }
    for (const auto& item : value.items()) tensor_refs(item.value(), names, depth + 1);
  } else if (value.is_array()) {
    for (const Json& item : value) tensor_refs(item, names, depth + 1);
  }
}

bool is_value_tag(const std::string& tag) {
  return tag == "as_tensor" || tag == "as_tensors" || tag == "as_optional_tensors" ||
         tag == "as_optional_tensor" || tag == "as_sym_int" || tag == "as_sym_ints" ||
         tag == "as_sym_bool" || tag == "as_sym_float";
}

void add_ports(ValueTable& table, const std::string& name, const Pt2Arg& arg,
               std::vector<GraphPort>* ports) {
  std::vector<std::string> names;
  if (arg.value != nullptr) tensor_refs(*arg.value, &names);
  for (size_t i = 0; i < names.size(); ++i) {
    ports->push_back({names.size() > 1 ? name + "[" + std::to_string(i) + "]" : name,
                      table.tensor(names[i]), nullptr});
  }
}

}  // namespace

Result<MethodGraph> pt2_method_graph(const Pt2Program& program, size_t method) {
  TRI_CHECK(method < program.num_methods(), Error::NotFound, "model %zu does not exist", method);
  const Pt2Graph& graph = program.graph(method);
  const LoweredMethod& lowered = program.lowered(method);
  MethodGraph g;
  g.name = program.method_name(method);
  g.kind = "method";
  ValueTable table(graph, &g);
  std::map<std::string, const Pt2InputSpec*> specs;
  for (const Pt2InputSpec& spec : graph.input_specs) specs[spec.name] = &spec;
  for (const Pt2Arg& in : graph.inputs) {
    std::vector<std::string> names;
    if (in.value != nullptr) tensor_refs(*in.value, &names);
    for (const std::string& name : names) {
      const int32_t v = table.tensor(name);
      auto spec = specs.find(name);
      if (spec != specs.end() && input_source(spec->second->kind)[0] != '\0') {
        g.values[static_cast<size_t>(v)].weight = weight_name(program, method, spec->second->target);
      }
      g.inputs.push_back(v);
    }
  }
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const Pt2Node& node = graph.nodes[n];
    GraphNode out;
    out.kind = "node";
    out.op = node.target;
    for (const Pt2NamedArg& arg : node.inputs) {
      if (is_value_tag(arg.arg.tag)) {
        const size_t before = out.inputs.size();
        add_ports(table, arg.name, arg.arg, &out.inputs);
        // A sym int given as a number, or an empty list: keep what it says.
        if (out.inputs.size() == before && arg.arg.value != nullptr) {
          out.attributes[arg.name] = *arg.arg.value;
        }
      } else {
        out.attributes[arg.name] = arg.arg.value != nullptr ? *arg.arg.value : Json();
      }
    }
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      add_ports(table, node.outputs.size() > 1 ? "result" + std::to_string(i) : "result",
                node.outputs[i], &out.outputs);
    }
    if (n + 1 < lowered.node_calls.size()) {
      for (int32_t c = lowered.node_calls[n]; c < lowered.node_calls[n + 1]; ++c) {
        out.lowered.push_back(c);
      }
    }
    g.nodes.push_back(std::move(out));
  }
  for (const Pt2Arg& o : graph.outputs) {
    std::vector<std::string> names;
    if (o.value != nullptr) tensor_refs(*o.value, &names);
    for (const std::string& name : names) g.outputs.push_back(table.tensor(name));
  }
  return g;
}

std::vector<WeightInfo> pt2_weights(const Pt2Program& program) {
  std::vector<WeightInfo> out;
  for (size_t m = 0; m < program.num_methods(); ++m) {
    const Pt2Graph& graph = program.graph(m);
    const Pt2Weights& weights = program.weights(m);
    for (const Pt2InputSpec& spec : graph.input_specs) {
      const char* source = input_source(spec.kind);
      if (source[0] == '\0') continue;
      auto found = weights.state.find(spec.target);
      if (found == weights.state.end()) {
        found = weights.constants.find(spec.target);
        if (found == weights.constants.end()) continue;
      }
      const HostTensor& t = found->second;
      WeightInfo w;
      w.name = weight_name(program, m, spec.target);
      w.dtype = scalar_type_numpy_name(t.dtype);
      w.storage = t.dtype;
      w.shape.assign(t.sizes.begin(), t.sizes.end());
      w.data = t.data;
      w.nbytes = t.nbytes;
      w.source = source;
      out.push_back(std::move(w));
    }
  }
  return out;
}

}  // namespace tri::pt2
