#include "cpp/formats/pte/host/pte_graph.h"

#include <cinttypes>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "cpp/formats/pt2/host/aten_schema.h"
#include "cpp/formats/pte/fb_read.h"
#include "cpp/formats/pte/pte_method_source.h"
#include "cpp/formats/pte/pte_values.h"
#include "cpp/formats/pte/schema/program_generated.h"

namespace tri::pte {

namespace fb = executorch_flatbuffer;
using host::GraphNode;
using host::GraphPort;
using host::GraphValue;
using host::MethodGraph;
using host::WeightInfo;

namespace {

// Lists longer than this show their length only: a graph is for reading.
constexpr size_t kMaxListLiteral = 64;

template <typename V, typename F>
nlohmann::json list_literal(const V* items, F&& item) {
  nlohmann::json out = nlohmann::json::array();
  if (items == nullptr) return out;
  if (items->size() > kMaxListLiteral) return nlohmann::json{{"length", items->size()}};
  // Byte-wise: an IntList's or DoubleList's 8-byte items may be misaligned.
  for (flatbuffers::uoffset_t i = 0; i < items->size(); ++i) out.push_back(item(read_element(items, i)));
  return out;
}

// Where a constant tensor's data is, and the name weights() gives it; ""
// for a tensor that is not a constant (planned, or bound at run time).
std::string constant_name(const fb::Tensor* t) {
  const fb::ExtraTensorInfo* extra = t->extra_tensor_info();
  if (extra != nullptr && extra->location() == fb::TensorDataLocation::EXTERNAL) {
    return extra->fully_qualified_name() ? extra->fully_qualified_name()->str() : "";
  }
  if (t->allocation_info() == nullptr && t->data_buffer_idx() > 0) {
    return "constant[" + std::to_string(t->data_buffer_idx()) + "]";
  }
  return "";
}

Result<GraphValue> describe(const fb::EValue* v, size_t index) {
  GraphValue out;
  out.name = "v" + std::to_string(index);
  out.kind = "none";
  if (v == nullptr || (v->val_type() != fb::KernelTypes::Null && v->val() == nullptr)) {
    return fail(Error::InvalidProgram, "value %zu has no table", index);
  }
  switch (v->val_type()) {
    case fb::KernelTypes::Int:
      out.kind = "int";
      out.literal = v->val_as_Int()->int_val();
      break;
    case fb::KernelTypes::Bool:
      out.kind = "bool";
      out.literal = v->val_as_Bool()->bool_val();
      break;
    case fb::KernelTypes::Double:
      out.kind = "double";
      out.literal = v->val_as_Double()->double_val();
      break;
    case fb::KernelTypes::String:
      out.kind = "string";
      out.literal = v->val_as_String()->string_val() ? v->val_as_String()->string_val()->str() : "";
      break;
    case fb::KernelTypes::IntList:
      // Items are the indices of boxed Int values (their slots).
      out.kind = "int_list";
      out.literal = list_literal(v->val_as_IntList()->items(), [](int64_t i) { return i; });
      break;
    case fb::KernelTypes::DoubleList:
      out.kind = "double_list";
      out.literal = list_literal(v->val_as_DoubleList()->items(), [](double d) { return d; });
      break;
    case fb::KernelTypes::BoolList:
      out.kind = "bool_list";
      out.literal = list_literal(v->val_as_BoolList()->items(), [](uint8_t b) { return b != 0; });
      break;
    case fb::KernelTypes::TensorList:
      out.kind = "tensor_list";
      out.literal = list_literal(v->val_as_TensorList()->items(), [](int32_t i) { return i; });
      break;
    case fb::KernelTypes::OptionalTensorList:
      out.kind = "optional_tensor_list";
      out.literal =
          list_literal(v->val_as_OptionalTensorList()->items(), [](int32_t i) { return i; });
      break;
    case fb::KernelTypes::Tensor: {
      const fb::Tensor* t = v->val_as_Tensor();
      Tensor shape;
      TRI_TRY_CONTEXT(parse_tensor_shape(t, &shape), "value %zu", index);
      out.kind = "tensor";
      out.dtype = scalar_type_numpy_name(shape.scalar_type());
      for (int32_t d = 0; d < shape.dim(); ++d) out.shape.push_back(shape.size(d));
      out.dynamic = shape.dynamism() != ShapeDynamism::Static;
      out.weight = constant_name(t);
      break;
    }
    default:
      break;
  }
  return out;
}

// Names a kernel call's arguments by the operator's out-variant schema, and
// tells its outputs apart: ExecuTorch's emitter passes the schema's
// arguments in order (the out tensors last) and then the return value(s),
// which are the out tensors again. Without a schema, the last argument is
// the result, and so is any earlier argument that is the same value.
void kernel_ports(const std::string& op, Span<const int32_t> args, GraphNode* node) {
  const pt2::AtenSchema* schema = pt2::find_out_schema(op);
  if (schema != nullptr && schema->args.size() <= args.size()) {
    for (size_t i = 0; i < args.size(); ++i) {
      const bool known = i < schema->args.size();
      const bool out = !known || schema->args[i].is_out;
      GraphPort port{known ? schema->args[i].name : "return", args[i], nullptr};
      // The return repeats an out argument: the reader sees it once.
      if (!known && schema->num_outs() > 0) continue;
      (out ? node->outputs : node->inputs).push_back(std::move(port));
    }
    return;
  }
  const int32_t last = args.empty() ? -1 : args[args.size() - 1];
  for (size_t i = 0; i < args.size(); ++i) {
    const bool out = args[i] == last;
    if (out && i + 1 < args.size()) continue;  // the return names it
    (out ? node->outputs : node->inputs).push_back({out ? "out" : "", args[i], nullptr});
  }
}

}  // namespace

Result<MethodGraph> pte_method_graph(const PteProgram& program, size_t method,
                                     const Method* loaded) {
  TRI_CHECK(method < program.num_methods(), Error::NotFound, "method %zu does not exist", method);
  const fb::ExecutionPlan* plan = program.plan(method);
  PteMethodSource source(program, method);
  MethodGraph g;
  g.name = source.name();
  g.kind = "method";
  const auto* values = plan->values();
  const size_t num_values = values ? values->size() : 0;
  g.values.reserve(num_values);
  for (size_t i = 0; i < num_values; ++i) {
    TRI_ASSIGN_OR_RETURN(GraphValue v,
                         describe(values->Get(static_cast<flatbuffers::uoffset_t>(i)), i));
    g.values.push_back(std::move(v));
  }
  auto in_range = [&](int64_t v) { return v >= 0 && static_cast<uint64_t>(v) < num_values; };
  // An IntList holds the indices of boxed Ints: show the numbers.
  for (GraphValue& v : g.values) {
    if (v.kind != "int_list" || !v.literal.is_array()) continue;
    for (nlohmann::json& item : v.literal) {
      const int64_t index = item.get<int64_t>();
      if (in_range(index) && g.values[static_cast<size_t>(index)].kind == "int") {
        item = g.values[static_cast<size_t>(index)].literal;
      } else {
        item = nullptr;
      }
    }
  }
  for (int32_t v : source.inputs()) g.inputs.push_back(v);
  for (int32_t v : source.outputs()) g.outputs.push_back(v);

  // A delegate's graph is nested once, where its first call is.
  std::map<int64_t, int32_t> delegate_subgraph;
  for (size_t pc = 0; pc < source.num_instructions(); ++pc) {
    TRI_ASSIGN_OR_RETURN(const InstructionRef in, source.instruction_at(pc));
    GraphNode node;
    switch (in.kind) {
      case InstructionKind::KernelCall: {
        node.kind = "kernel";
        TRI_ASSIGN_OR_RETURN(const OperatorRef op, source.operator_at(static_cast<size_t>(in.target)));
        node.op = op.overload[0] ? std::string(op.name) + "." + op.overload : op.name;
        kernel_ports(node.op, in.args, &node);
        break;
      }
      case InstructionKind::DelegateCall: {
        node.kind = "delegate";
        TRI_ASSIGN_OR_RETURN(const DelegateRef d, source.delegate_at(static_cast<size_t>(in.target)));
        node.op = d.backend_id;
        size_t num_inputs = in.args.size() > 0 ? in.args.size() - 1 : 0;
        auto found = delegate_subgraph.find(in.target);
        if (found == delegate_subgraph.end() && loaded != nullptr &&
            static_cast<uint64_t>(in.target) < loaded->delegates().size()) {
          TRI_ASSIGN_OR_RETURN(
              MethodGraph sub,
              host::delegate_graph(loaded->delegates()[static_cast<size_t>(in.target)],
                                   static_cast<size_t>(in.target), nullptr));
          if (!sub.nodes.empty()) {
            found = delegate_subgraph.emplace(in.target, static_cast<int32_t>(g.subgraphs.size())).first;
            g.subgraphs.push_back(std::move(sub));
          }
        }
        if (found != delegate_subgraph.end()) {
          const MethodGraph& sub = g.subgraphs[static_cast<size_t>(found->second)];
          node.subgraphs.push_back(found->second);
          if (sub.inputs.size() <= in.args.size()) num_inputs = sub.inputs.size();
        }
        for (size_t i = 0; i < in.args.size(); ++i) {
          (i < num_inputs ? node.inputs : node.outputs).push_back({"", in.args[i], nullptr});
        }
        break;
      }
      case InstructionKind::Move:
        node.kind = "move";
        node.op = "move";
        node.inputs.push_back({"from", static_cast<int32_t>(in.a), nullptr});
        node.outputs.push_back({"to", static_cast<int32_t>(in.b), nullptr});
        break;
      case InstructionKind::JumpFalse:
        node.kind = "jump_false";
        node.op = "jump_false";
        node.inputs.push_back({"condition", static_cast<int32_t>(in.a), nullptr});
        node.jump_to = static_cast<int32_t>(in.b);
        break;
      case InstructionKind::Free:
        node.kind = "free";
        node.op = "free";
        node.inputs.push_back({"value", static_cast<int32_t>(in.a), nullptr});
        break;
    }
    // The file's indices are unchecked here (the builder checks them when
    // it loads): a bad one shows as no value rather than a wrong one.
    for (GraphPort& p : node.inputs) {
      if (!in_range(p.value)) p = {p.name, -1, "invalid value index " + std::to_string(p.value)};
    }
    for (GraphPort& p : node.outputs) {
      if (!in_range(p.value)) p = {p.name, -1, "invalid value index " + std::to_string(p.value)};
    }
    g.nodes.push_back(std::move(node));
  }
  return g;
}

Result<std::vector<WeightInfo>> pte_weights(const PteProgram& program,
                                            const NamedDataMap* external) {
  std::vector<WeightInfo> out;
  std::set<std::string> seen;
  for (size_t m = 0; m < program.num_methods(); ++m) {
    const auto* values = program.plan(m)->values();
    for (flatbuffers::uoffset_t i = 0; values != nullptr && i < values->size(); ++i) {
      const fb::EValue* v = values->Get(i);
      if (v == nullptr || v->val_type() != fb::KernelTypes::Tensor || v->val() == nullptr) continue;
      const fb::Tensor* t = v->val_as_Tensor();
      const std::string name = constant_name(t);
      if (name.empty() || !seen.insert(name).second) continue;
      Tensor shape;
      TRI_TRY_CONTEXT(parse_tensor_shape(t, &shape), "method %zu, value %" PRIu32, m, i);
      WeightInfo w;
      w.name = name;
      w.dtype = scalar_type_numpy_name(shape.scalar_type());
      w.storage = shape.scalar_type();
      for (int32_t d = 0; d < shape.dim(); ++d) w.shape.push_back(shape.size(d));
      w.nbytes = shape.nbytes();
      const fb::ExtraTensorInfo* extra = t->extra_tensor_info();
      if (extra != nullptr && extra->location() == fb::TensorDataLocation::EXTERNAL) {
        w.source = "external";
        // Listed without data when no data file holds it (weight() says so).
        if (external != nullptr) {
          Result<ByteSpan> data = external->get(Span<const char>(name.data(), name.size()));
          if (data.ok() && data->size() >= w.nbytes) w.data = data->data();
        }
      } else {
        w.source = "constant";
        TRI_ASSIGN_OR_RETURN(const ByteSpan data,
                             program.constant_data(t->data_buffer_idx(), w.nbytes));
        w.data = data.data();
      }
      out.push_back(std::move(w));
    }
  }
  return out;
}

}  // namespace tri::pte
