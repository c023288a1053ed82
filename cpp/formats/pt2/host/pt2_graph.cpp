#include "cpp/formats/pt2/host/pt2_graph.h"

#include <cinttypes>

namespace tri::pt2 {
namespace {

const char* const kArgumentTags[] = {
    "as_none", "as_tensor", "as_tensors", "as_int", "as_ints", "as_float", "as_floats",
    "as_string", "as_strings", "as_sym_int", "as_sym_ints", "as_scalar_type",
    "as_memory_format", "as_layout", "as_device", "as_bool", "as_bools", "as_sym_bool",
    "as_sym_bools", "as_graph", "as_optional_tensors", "as_custom_obj", "as_operator",
    "as_sym_float", "as_sym_floats", "as_optional_tensor", "as_complex", "as_nested_tensors",
    "as_int_lists", "as_string_to_argument", "as_float_lists", nullptr};
const char* const kSymIntTags[] = {"as_expr", "as_int", nullptr};
const char* const kInputTags[] = {"user_input", "parameter", "buffer", "tensor_constant",
                                  "custom_obj", "token", "constant_input", nullptr};
const char* const kOutputTags[] = {"user_output", "loss_output", "buffer_mutation",
                                   "gradient_to_parameter", "gradient_to_user_input",
                                   "user_input_mutation", "token", "parameter_mutation",
                                   nullptr};

// The largest schema major this reader knows (torch 2.6 - 2.12 write 8.x).
constexpr int64_t kMaxSchemaMajor = 8;

std::string at(const std::string& where, const std::string& key) { return where + "." + key; }
std::string at(const std::string& where, size_t index) {
  return where + "[" + std::to_string(index) + "]";
}

Result<const Json*> array_field(const Json& object, const char* key, const std::string& where) {
  TRI_ASSIGN_OR_RETURN(const Json* value, field(object, key, where));
  TRI_CHECK(value->is_array(), Error::InvalidProgram, "%s.%s: expected an array, found %s",
            where.c_str(), key, value->type_name());
  return value;
}

// The name inside {"name": ...} (TensorArgument, SymIntArgument's as_name...).
Result<std::string> arg_name(const Json& value, const std::string& where) {
  TRI_ASSIGN_OR_RETURN(const Json* name, field(value, "name", where));
  return as_string(*name, at(where, "name"));
}

// The placeholder name an input/output spec's `arg` names: a TensorArgument
// {"name"}, or (for user inputs) an Argument union.
Result<std::string> spec_arg_name(const Json& spec, const std::string& where) {
  TRI_ASSIGN_OR_RETURN(const Json* arg, field(spec, "arg", where));
  if (arg->is_object() && arg->contains("name") && (*arg)["name"].is_string()) {
    return (*arg)["name"].get<std::string>();
  }
  TRI_ASSIGN_OR_RETURN(const Pt2Arg a, read_argument(*arg, at(where, "arg")));
  if (a.tag == "as_tensor" || a.tag == "as_custom_obj") return arg_name(*a.value, at(where, "arg"));
  if (a.tag == "as_sym_int") {
    TRI_ASSIGN_OR_RETURN(const UnionValue s, read_union(*a.value, nullptr, at(where, "arg")));
    if (s.tag == "as_name") return as_string(*s.value, at(where, "arg"));
  }
  return std::string();
}

Result<Pt2InputSpec> read_input_spec(const Json& json, const std::string& where) {
  TRI_ASSIGN_OR_RETURN(const UnionValue u, read_union(json, kInputTags, where));
  const Json& v = *u.value;
  const std::string w = at(where, u.tag);
  Pt2InputSpec spec;
  if (u.tag == "user_input") {
    spec.kind = InputKind::UserInput;
    TRI_ASSIGN_OR_RETURN(const Json* arg, field(v, "arg", w));
    TRI_ASSIGN_OR_RETURN(spec.user_arg, read_argument(*arg, at(w, "arg")));
    TRI_ASSIGN_OR_RETURN(spec.name, spec_arg_name(v, w));
    return spec;
  }
  if (u.tag == "constant_input") {
    spec.kind = InputKind::ConstantInput;
    TRI_ASSIGN_OR_RETURN(const Json* name, field(v, "name", w));
    TRI_ASSIGN_OR_RETURN(spec.name, as_string(*name, at(w, "name")));
    return spec;
  }
  TRI_ASSIGN_OR_RETURN(spec.name, spec_arg_name(v, w));
  const char* target_key = nullptr;
  if (u.tag == "parameter") {
    spec.kind = InputKind::Parameter;
    target_key = "parameter_name";
  } else if (u.tag == "buffer") {
    spec.kind = InputKind::Buffer;
    target_key = "buffer_name";
    TRI_ASSIGN_OR_RETURN(const Json* persistent, optional_field(v, "persistent", w));
    if (persistent != nullptr) {
      TRI_ASSIGN_OR_RETURN(spec.persistent, as_bool(*persistent, w));
    }
  } else if (u.tag == "tensor_constant") {
    spec.kind = InputKind::TensorConstant;
    target_key = "tensor_constant_name";
  } else if (u.tag == "custom_obj") {
    spec.kind = InputKind::CustomObj;
    target_key = "custom_obj_name";
  } else {
    spec.kind = InputKind::Token;
  }
  if (target_key != nullptr) {
    TRI_ASSIGN_OR_RETURN(const Json* target, field(v, target_key, w));
    TRI_ASSIGN_OR_RETURN(spec.target, as_string(*target, at(w, target_key)));
  }
  return spec;
}

Result<Pt2OutputSpec> read_output_spec(const Json& json, const std::string& where) {
  TRI_ASSIGN_OR_RETURN(const UnionValue u, read_union(json, kOutputTags, where));
  const Json& v = *u.value;
  const std::string w = at(where, u.tag);
  Pt2OutputSpec spec;
  static const struct {
    const char* tag;
    OutputKind kind;
    const char* target;
  } kKinds[] = {
      {"user_output", OutputKind::UserOutput, nullptr},
      {"loss_output", OutputKind::LossOutput, nullptr},
      {"buffer_mutation", OutputKind::BufferMutation, "buffer_name"},
      {"gradient_to_parameter", OutputKind::GradientToParameter, "parameter_name"},
      {"gradient_to_user_input", OutputKind::GradientToUserInput, "user_input_name"},
      {"user_input_mutation", OutputKind::UserInputMutation, "user_input_name"},
      {"token", OutputKind::Token, nullptr},
      {"parameter_mutation", OutputKind::ParameterMutation, "parameter_name"},
  };
  for (const auto& k : kKinds) {
    if (u.tag != k.tag) continue;
    spec.kind = k.kind;
    TRI_ASSIGN_OR_RETURN(const Json* arg, field(v, "arg", w));
    if (arg->is_object() && arg->contains("name") && (*arg)["name"].is_string()) {
      // A TensorArgument: present it as an as_tensor Argument.
      spec.arg.tag = "as_tensor";
      spec.arg.value = arg;
    } else {
      TRI_ASSIGN_OR_RETURN(spec.arg, read_argument(*arg, at(w, "arg")));
    }
    if (k.target != nullptr) {
      TRI_ASSIGN_OR_RETURN(const Json* target, field(v, k.target, w));
      TRI_ASSIGN_OR_RETURN(spec.target, as_string(*target, at(w, k.target)));
    }
  }
  return spec;
}

Error read_schema_version(const Json& root, Pt2Graph* graph, const std::string& what) {
  TRI_ASSIGN_OR_RETURN(const Json* version, optional_field(root, "schema_version", what));
  if (version == nullptr) return Error::Ok;
  if (version->is_number()) {
    TRI_ASSIGN_OR_RETURN(graph->schema_major, as_int(*version, what + ".schema_version"));
  } else {
    TRI_ASSIGN_OR_RETURN(const Json* major, field(*version, "major", what + ".schema_version"));
    TRI_ASSIGN_OR_RETURN(graph->schema_major, as_int(*major, what + ".schema_version.major"));
    TRI_ASSIGN_OR_RETURN(const Json* minor, optional_field(*version, "minor", what));
    if (minor != nullptr) {
      TRI_ASSIGN_OR_RETURN(graph->schema_minor, as_int(*minor, what + ".schema_version.minor"));
    }
  }
  TRI_CHECK(graph->schema_major <= kMaxSchemaMajor, Error::NotSupported,
            "%s: export schema version %" PRId64 ".%" PRId64
            " is newer than this reader knows (up to %" PRId64 ".x)",
            what.c_str(), graph->schema_major, graph->schema_minor, kMaxSchemaMajor);
  return Error::Ok;
}

}  // namespace

bool TensorMeta::is_static() const {
  for (const SymDim& d : sizes) {
    if (d.symbolic) return false;
  }
  return true;
}

Result<ScalarType> export_dtype(int64_t value, const std::string& where) {
  switch (value) {
    case 1: return ScalarType::Byte;
    case 2: return ScalarType::Char;
    case 3: return ScalarType::Short;
    case 4: return ScalarType::Int;
    case 5: return ScalarType::Long;
    case 6: return ScalarType::Half;
    case 7: return ScalarType::Float;
    case 8: return ScalarType::Double;
    case 9: return ScalarType::ComplexHalf;
    case 10: return ScalarType::ComplexFloat;
    case 11: return ScalarType::ComplexDouble;
    case 12: return ScalarType::Bool;
    case 13: return ScalarType::BFloat16;
    case 28: return ScalarType::UInt16;
    case 34: return ScalarType::UInt32;
    case 35: return ScalarType::UInt64;
    default:
      return fail(Error::NotSupported,
                  "%s: dtype %" PRId64
                  " (export schema numbering) is not supported (float8 and unknown types)",
                  where.c_str(), value);
  }
}

Result<SymDim> read_sym_dim(const Json& value, const std::string& where) {
  SymDim dim;
  if (value.is_number()) {  // 2.1/2.2 wrote bare ints in places
    TRI_ASSIGN_OR_RETURN(dim.value, as_int(value, where));
    return dim;
  }
  TRI_ASSIGN_OR_RETURN(const UnionValue u, read_union(value, kSymIntTags, where));
  if (u.tag == "as_int") {
    TRI_ASSIGN_OR_RETURN(dim.value, as_int(*u.value, where));
    return dim;
  }
  dim.symbolic = true;
  dim.value = -1;
  if (u.value->is_string()) {  // older: the expression as a bare string
    dim.expr = u.value->get<std::string>();
    return dim;
  }
  TRI_ASSIGN_OR_RETURN(const Json* expr, field(*u.value, "expr_str", where));
  TRI_ASSIGN_OR_RETURN(dim.expr, as_string(*expr, where + ".expr_str"));
  TRI_ASSIGN_OR_RETURN(const Json* hint, optional_field(*u.value, "hint", where));
  if (hint != nullptr) {
    if (hint->is_number()) {
      TRI_ASSIGN_OR_RETURN(dim.value, as_int(*hint, where + ".hint"));
    } else {
      TRI_ASSIGN_OR_RETURN(const UnionValue h, read_union(*hint, nullptr, where + ".hint"));
      if (h.tag == "as_int") {
        TRI_ASSIGN_OR_RETURN(dim.value, as_int(*h.value, where + ".hint"));
      }
    }
  }
  return dim;
}

Result<TensorMeta> read_tensor_meta(const Json& json, const std::string& where) {
  TensorMeta meta;
  TRI_ASSIGN_OR_RETURN(const Json* dtype, field(json, "dtype", where));
  TRI_ASSIGN_OR_RETURN(const int64_t dtype_number, as_enum(*dtype, nullptr, where + ".dtype"));
  TRI_ASSIGN_OR_RETURN(meta.dtype, export_dtype(dtype_number, where + ".dtype"));
  TRI_ASSIGN_OR_RETURN(const Json* sizes, array_field(json, "sizes", where));
  TRI_ASSIGN_OR_RETURN(const Json* strides, array_field(json, "strides", where));
  TRI_CHECK(sizes->size() == strides->size(), Error::InvalidProgram,
            "%s: %zu sizes but %zu strides", where.c_str(), sizes->size(), strides->size());
  for (size_t i = 0; i < sizes->size(); ++i) {
    TRI_ASSIGN_OR_RETURN(SymDim s, read_sym_dim((*sizes)[i], at(where + ".sizes", i)));
    TRI_ASSIGN_OR_RETURN(SymDim t, read_sym_dim((*strides)[i], at(where + ".strides", i)));
    TRI_CHECK(s.symbolic || s.value >= 0, Error::InvalidProgram, "%s.sizes[%zu] is negative",
              where.c_str(), i);
    meta.sizes.push_back(std::move(s));
    meta.strides.push_back(std::move(t));
  }
  TRI_ASSIGN_OR_RETURN(const Json* offset, optional_field(json, "storage_offset", where));
  if (offset != nullptr) {
    TRI_ASSIGN_OR_RETURN(const SymDim o, read_sym_dim(*offset, where + ".storage_offset"));
    TRI_CHECK(!o.symbolic, Error::NotSupported, "%s: a symbolic storage offset", where.c_str());
    meta.storage_offset = o.value;
  }
  TRI_ASSIGN_OR_RETURN(const Json* layout, optional_field(json, "layout", where));
  if (layout != nullptr) {
    TRI_ASSIGN_OR_RETURN(const int64_t l, as_enum(*layout, nullptr, where + ".layout"));
    TRI_CHECK(l == 7 || l == 0, Error::NotSupported,
              "%s: layout %" PRId64 " is not strided (sparse and mkldnn tensors are not supported)",
              where.c_str(), l);
  }
  return meta;
}

Result<Pt2Arg> read_argument(const Json& value, const std::string& where) {
  TRI_ASSIGN_OR_RETURN(const UnionValue u, read_union(value, kArgumentTags, where));
  return Pt2Arg{u.tag, u.value};
}

Result<Pt2Graph> read_graph(ByteSpan text, const std::string& what) {
  Pt2Graph graph;
  TRI_ASSIGN_OR_RETURN(Json parsed, parse_json(text, what));
  graph.document = std::make_shared<const Json>(std::move(parsed));
  const Json& root = *graph.document;
  TRI_TRY(read_schema_version(root, &graph, what));
  TRI_ASSIGN_OR_RETURN(const Json* torch_version, optional_field(root, "torch_version", what));
  if (torch_version != nullptr && torch_version->is_string()) {
    graph.torch_version = torch_version->get<std::string>();
  }
  TRI_ASSIGN_OR_RETURN(const Json* module, field(root, "graph_module", what));
  const std::string gm = what + ".graph_module";
  TRI_ASSIGN_OR_RETURN(const Json* g, field(*module, "graph", gm));
  const std::string gw = gm + ".graph";

  TRI_ASSIGN_OR_RETURN(const Json* inputs, array_field(*g, "inputs", gw));
  for (size_t i = 0; i < inputs->size(); ++i) {
    TRI_ASSIGN_OR_RETURN(Pt2Arg a, read_argument((*inputs)[i], at(gw + ".inputs", i)));
    graph.inputs.push_back(a);
  }
  TRI_ASSIGN_OR_RETURN(const Json* outputs, array_field(*g, "outputs", gw));
  for (size_t i = 0; i < outputs->size(); ++i) {
    TRI_ASSIGN_OR_RETURN(Pt2Arg a, read_argument((*outputs)[i], at(gw + ".outputs", i)));
    graph.outputs.push_back(a);
  }
  TRI_ASSIGN_OR_RETURN(const Json* nodes, array_field(*g, "nodes", gw));
  for (size_t i = 0; i < nodes->size(); ++i) {
    const Json& n = (*nodes)[i];
    const std::string nw = at(gw + ".nodes", i);
    Pt2Node node;
    TRI_ASSIGN_OR_RETURN(const Json* target, field(n, "target", nw));
    TRI_ASSIGN_OR_RETURN(node.target, as_string(*target, nw + ".target"));
    TRI_ASSIGN_OR_RETURN(const Json* node_inputs, array_field(n, "inputs", nw));
    for (size_t k = 0; k < node_inputs->size(); ++k) {
      const std::string aw = at(nw + ".inputs", k);
      Pt2NamedArg named;
      TRI_ASSIGN_OR_RETURN(const Json* name, field((*node_inputs)[k], "name", aw));
      TRI_ASSIGN_OR_RETURN(named.name, as_string(*name, aw + ".name"));
      TRI_ASSIGN_OR_RETURN(const Json* arg, field((*node_inputs)[k], "arg", aw));
      TRI_ASSIGN_OR_RETURN(named.arg, read_argument(*arg, aw + ".arg"));
      node.inputs.push_back(std::move(named));
    }
    TRI_ASSIGN_OR_RETURN(const Json* node_outputs, array_field(n, "outputs", nw));
    for (size_t k = 0; k < node_outputs->size(); ++k) {
      TRI_ASSIGN_OR_RETURN(Pt2Arg a, read_argument((*node_outputs)[k], at(nw + ".outputs", k)));
      node.outputs.push_back(a);
    }
    graph.nodes.push_back(std::move(node));
  }
  TRI_ASSIGN_OR_RETURN(const Json* values, field(*g, "tensor_values", gw));
  TRI_CHECK(values->is_object(), Error::InvalidProgram, "%s.tensor_values: expected an object",
            gw.c_str());
  for (auto it = values->begin(); it != values->end(); ++it) {
    TRI_ASSIGN_OR_RETURN(TensorMeta meta,
                         read_tensor_meta(*it, gw + ".tensor_values['" + it.key() + "']"));
    graph.tensor_values.emplace(it.key(), std::move(meta));
  }

  TRI_ASSIGN_OR_RETURN(const Json* signature, field(*module, "signature", gm));
  const std::string sw = gm + ".signature";
  TRI_ASSIGN_OR_RETURN(const Json* in_specs, array_field(*signature, "input_specs", sw));
  for (size_t i = 0; i < in_specs->size(); ++i) {
    TRI_ASSIGN_OR_RETURN(Pt2InputSpec spec,
                         read_input_spec((*in_specs)[i], at(sw + ".input_specs", i)));
    graph.input_specs.push_back(std::move(spec));
  }
  TRI_ASSIGN_OR_RETURN(const Json* out_specs, array_field(*signature, "output_specs", sw));
  for (size_t i = 0; i < out_specs->size(); ++i) {
    TRI_ASSIGN_OR_RETURN(Pt2OutputSpec spec,
                         read_output_spec((*out_specs)[i], at(sw + ".output_specs", i)));
    graph.output_specs.push_back(std::move(spec));
  }
  TRI_CHECK(graph.input_specs.size() == graph.inputs.size(), Error::InvalidProgram,
            "%s: %zu graph inputs but %zu input specs", what.c_str(), graph.inputs.size(),
            graph.input_specs.size());
  TRI_CHECK(graph.output_specs.size() == graph.outputs.size(), Error::InvalidProgram,
            "%s: %zu graph outputs but %zu output specs", what.c_str(), graph.outputs.size(),
            graph.output_specs.size());

  TRI_ASSIGN_OR_RETURN(const Json* ranges, optional_field(root, "range_constraints", what));
  if (ranges != nullptr) {
    TRI_CHECK(ranges->is_object(), Error::InvalidProgram, "%s.range_constraints: not an object",
              what.c_str());
    for (auto it = ranges->begin(); it != ranges->end(); ++it) {
      const std::string rw = what + ".range_constraints['" + it.key() + "']";
      RangeConstraint range;
      TRI_ASSIGN_OR_RETURN(const Json* min, optional_field(*it, "min_val", rw));
      TRI_ASSIGN_OR_RETURN(const Json* max, optional_field(*it, "max_val", rw));
      // Unbounded ends are null, or ints past int64 (sympy's oo) as floats.
      if (min != nullptr && min->is_number_integer()) {
        TRI_ASSIGN_OR_RETURN(range.min, as_int(*min, rw));
      }
      if (max != nullptr && max->is_number_integer()) {
        TRI_ASSIGN_OR_RETURN(range.max, as_int(*max, rw));
      }
      graph.range_constraints.emplace(it.key(), range);
    }
  }
  return graph;
}

}  // namespace tri::pt2
