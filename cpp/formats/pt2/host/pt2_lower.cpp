#include "cpp/formats/pt2/host/pt2_lower.h"

#include <algorithm>
#include <cinttypes>
#include <cstdlib>

#include "cpp/formats/pt2/host/pt2_lowerer.h"
#include "cpp/formats/pt2/host/sym_expr.h"
#include "cpp/runtime/core/lifetime_planner.h"
#include "cpp/runtime/kernel/in_place_ops.h"

namespace tri::pt2 {
namespace {

// "torch.ops.aten.add.Tensor" -> "aten::add.Tensor"; "...relu.default" -> "aten::relu".
bool op_name(const std::string& target, std::string* out) {
  const std::string prefix = "torch.ops.";
  if (target.compare(0, prefix.size(), prefix) != 0) return false;
  const std::string rest = target.substr(prefix.size());
  const size_t a = rest.find('.');
  if (a == std::string::npos) return false;
  const size_t b = rest.find('.', a + 1);
  const std::string ns = rest.substr(0, a);
  const std::string op = rest.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
  const std::string overload = b == std::string::npos ? "default" : rest.substr(b + 1);
  *out = ns + "::" + op + (overload == "default" ? "" : "." + overload);
  return true;
}

// c10::MemoryFormat from the export schema's numbering.
int64_t c10_memory_format(int64_t exported) {
  switch (exported) {
    case 1: return 0;  // contiguous
    case 2: return 2;  // channels last
    case 3: return 3;  // channels last 3d
    case 4: return 1;  // preserve
    default: return -1;
  }
}

struct TypeInfo {
  std::string base;  // "Tensor", "int", "SymInt", "float", "bool", "Scalar", ...
  bool optional = false;
  bool list = false;
  bool element_optional = false;  // Tensor?[]
  int64_t fixed = -1;             // int[2] -> 2
};

TypeInfo type_info(std::string type) {
  TypeInfo t;
  if (!type.empty() && type.back() == '?') {
    t.optional = true;
    type.pop_back();
  }
  const size_t bracket = type.find('[');
  if (bracket != std::string::npos) {
    t.list = true;
    const std::string n = type.substr(bracket + 1, type.size() - bracket - 2);
    if (!n.empty()) t.fixed = std::atoll(n.c_str());
    type = type.substr(0, bracket);
    if (!type.empty() && type.back() == '?') {
      t.element_optional = true;
      type.pop_back();
    }
  }
  t.base = type;
  return t;
}

bool is_int_type(const std::string& base) { return base == "int" || base == "SymInt"; }

bool is_number_tag(const std::string& tag) {
  return tag == "as_int" || tag == "as_float" || tag == "as_bool";
}

// Python numbers passed where the schema says Tensor ("wrapped numbers",
// e.g. add.Tensor(x, 1)) behave as Scalars: use the .Scalar overload when
// there is one that takes a Scalar in that place.
const OpLowering* scalar_overload(const OpLowering& lowering, const Pt2Node& node) {
  const AtenSchema& f = lowering.functional;
  bool wrapped = false;
  for (const Pt2NamedArg& named : node.inputs) {
    const SchemaArg* arg = f.arg(named.name);
    if (arg != nullptr && arg->type == "Tensor" && is_number_tag(named.arg.tag)) wrapped = true;
  }
  if (!wrapped || f.overload != "Tensor") return &lowering;
  const OpLowering* alt = find_lowering(f.name + ".Scalar");
  if (alt == nullptr) return &lowering;
  for (const Pt2NamedArg& named : node.inputs) {
    const SchemaArg* arg = alt->functional.arg(named.name);
    if (arg == nullptr) return &lowering;
    if (is_number_tag(named.arg.tag) && f.arg(named.name)->type == "Tensor" && arg->type != "Scalar") {
      return &lowering;
    }
  }
  return alt;
}

}  // namespace

int32_t Lowerer::add_value(LoweredValue v) {
  method_.values.push_back(std::move(v));
  return static_cast<int32_t>(method_.values.size() - 1);
}

int32_t Lowerer::int_value(int64_t v) {
  LoweredValue value;
  value.tag = Tag::Int;
  value.integer = v;
  return add_value(std::move(value));
}

int32_t Lowerer::double_value(double v) {
  LoweredValue value;
  value.tag = Tag::Double;
  value.number = v;
  return add_value(std::move(value));
}

Result<int32_t> Lowerer::constant(const HostTensor& tensor) {
  return constant_tensor(tensor, "", "a constant of the lowering");
}

int32_t Lowerer::bool_value(bool v) {
  LoweredValue value;
  value.tag = Tag::Bool;
  value.boolean = v;
  return add_value(std::move(value));
}

int32_t Lowerer::int_list(const std::vector<int64_t>& items) {
  LoweredValue list;
  list.tag = Tag::IntList;
  for (int64_t item : items) list.items.push_back(int_value(item));
  return add_value(std::move(list));
}

int32_t Lowerer::operator_index(const std::string& full_name) {
  auto it = operators_.find(full_name);
  if (it != operators_.end()) return it->second;
  const size_t dot = full_name.find('.');
  LoweredOperator op;
  op.name = full_name.substr(0, dot);
  op.overload = dot == std::string::npos ? "" : full_name.substr(dot + 1);
  method_.operators.push_back(std::move(op));
  const int32_t index = static_cast<int32_t>(method_.operators.size() - 1);
  operators_.emplace(full_name, index);
  return index;
}

void Lowerer::use(int32_t value) {
  auto it = planned_index_.find(value);
  if (it != planned_index_.end()) {
    planned_[it->second].last = static_cast<int32_t>(method_.calls.size());
  }
}

int32_t Lowerer::scratch_tensor(ScalarType dtype, const std::vector<int32_t>& sizes,
                                ShapeDynamism dynamism) {
  LoweredValue v;
  v.tag = Tag::Tensor;
  v.tensor.dtype = dtype;
  v.tensor.sizes = sizes;
  v.tensor.dynamism = dynamism;
  uint64_t numel = 1;
  for (int32_t s : sizes) numel *= static_cast<uint64_t>(s);
  v.tensor.nbytes = numel * element_size(dtype);
  v.tensor.place = TensorPlace::Planned;
  const int32_t index = add_value(std::move(v));
  const int32_t step = static_cast<int32_t>(method_.calls.size());
  planned_index_[index] = planned_.size();
  planned_.push_back(Planned{index, step, step});
  return index;
}

Result<std::vector<int32_t>> Lowerer::planned_sizes(const TensorMeta& meta,
                                                    const std::string& name, bool* dynamic) {
  *dynamic = false;
  std::vector<int32_t> sizes;
  uint64_t numel = 1;
  for (const SymDim& d : meta.sizes) {
    int64_t size = d.value;
    if (d.symbolic) {
      // Planned for the symbols' upper bounds; sizes grow with their
      // symbols, but take the larger end in case one does not.
      TRI_ASSIGN_OR_RETURN(const int64_t at_max, eval_sym_expr(d.expr, sym_max_));
      TRI_ASSIGN_OR_RETURN(const int64_t at_min, eval_sym_expr(d.expr, sym_min_));
      size = std::max(at_max, at_min);
      *dynamic = true;
    }
    TRI_CHECK(size >= 0 && size <= INT32_MAX &&
                  (size == 0 || numel <= (uint64_t{1} << 48) / static_cast<uint64_t>(size)),
              Error::InvalidProgram, "%s: '%s' declares a tensor too large to hold",
              where_.c_str(), name.c_str());
    numel *= static_cast<uint64_t>(size);
    sizes.push_back(static_cast<int32_t>(size));
  }
  TRI_CHECK(sizes.size() <= kTensorDimLimit, Error::NotSupported,
            "%s: '%s' has %zu dims (at most %zu)", where_.c_str(), name.c_str(), sizes.size(),
            kTensorDimLimit);
  TRI_CHECK(numel * element_size(meta.dtype) <= in_.max_planned_bytes, Error::InvalidProgram,
            "%s: '%s' declares %" PRIu64 " elements, past the %" PRIu64 "-byte memory limit",
            where_.c_str(), name.c_str(), numel, in_.max_planned_bytes);
  return sizes;
}

Result<int32_t> Lowerer::define_output(const std::string& name) {
  TRI_CHECK(tensors_.find(name) == tensors_.end(), Error::InvalidProgram,
            "%s: value '%s' is defined twice", where_.c_str(), name.c_str());
  auto meta = graph_.tensor_values.find(name);
  TRI_CHECK(meta != graph_.tensor_values.end(), Error::InvalidProgram,
            "%s: output '%s' has no entry in tensor_values", where_.c_str(), name.c_str());
  bool dynamic = false;
  TRI_ASSIGN_OR_RETURN(const std::vector<int32_t> sizes, planned_sizes(meta->second, name, &dynamic));
  const int32_t index = scratch_tensor(meta->second.dtype, sizes,
                                       dynamic ? ShapeDynamism::DynamicBound : ShapeDynamism::Static);
  tensors_.emplace(name, index);
  return index;
}

Result<std::vector<int64_t>> Lowerer::view_sizes(const std::string& name) {
  auto meta = graph_.tensor_values.find(name);
  TRI_CHECK(meta != graph_.tensor_values.end(), Error::InvalidProgram,
            "%s: '%s' has no entry in tensor_values", where_.c_str(), name.c_str());
  std::vector<int64_t> sizes;
  bool inferred = false;
  for (const SymDim& d : meta->second.sizes) {
    if (d.symbolic) {
      TRI_CHECK(!inferred, Error::NotSupported,
                "%s: a view with two symbolic dims ('%s'); dynamic shapes support one",
                where_.c_str(), name.c_str());
      inferred = true;
    }
    sizes.push_back(d.symbolic ? -1 : d.value);
  }
  return sizes;
}

Error Lowerer::bind_symbols() {
  // Hints: the example sizes the export saw, for symbols the constraints
  // leave unbounded.
  std::map<std::string, int64_t> hints;
  for (const auto& [name, meta] : graph_.tensor_values) {
    for (const SymDim& d : meta.sizes) {
      if (d.symbolic && d.value >= 0 && sym_expr_symbols(d.expr).size() == 1 &&
          sym_expr_symbols(d.expr)[0] == d.expr) {
        hints[d.expr] = std::max(hints[d.expr], d.value);
      }
    }
  }
  // Bounds past this are "unbounded" (sympy's oo is written as a huge int).
  constexpr int64_t kUnbounded = int64_t{1} << 31;
  std::set<std::string> symbols;
  for (const auto& [name, range] : graph_.range_constraints) symbols.insert(name);
  for (const auto& [name, hint] : hints) symbols.insert(name);
  for (const std::string& symbol : symbols) {
    auto range = graph_.range_constraints.find(symbol);
    int64_t min = 0;
    int64_t max = kUnbounded;
    if (range != graph_.range_constraints.end()) {
      min = std::max<int64_t>(range->second.min, 0);
      max = range->second.max;
    }
    auto bound = in_.bound_overrides.find(symbol);
    if (bound != in_.bound_overrides.end()) {
      max = bound->second;
      unbounded_.insert(symbol);
    } else if (max >= kUnbounded) {
      auto hint = hints.find(symbol);
      TRI_CHECK(hint != hints.end(), Error::NotSupported,
                "%s: symbol '%s' has no upper bound and no example size to plan for",
                in_.method_name.c_str(), symbol.c_str());
      max = std::max(hint->second, min);
      unbounded_.insert(symbol);
    }
    TRI_CHECK(min <= max, Error::InvalidProgram, "%s: symbol '%s' ranges over [%" PRId64
              ", %" PRId64 "]", in_.method_name.c_str(), symbol.c_str(), min, max);
    sym_min_[symbol] = min;
    sym_max_[symbol] = max;
  }
  return Error::Ok;
}

Result<int32_t> Lowerer::sym_int(const Json& value, const std::string& where) {
  if (value.is_number()) {
    TRI_ASSIGN_OR_RETURN(const int64_t i, as_int(value, where));
    return int_value(i);
  }
  const char* const tags[] = {"as_name", "as_int", nullptr};
  TRI_ASSIGN_OR_RETURN(const UnionValue u, read_union(value, tags, where));
  if (u.tag == "as_int") {
    TRI_ASSIGN_OR_RETURN(const int64_t i, as_int(*u.value, where));
    return int_value(i);
  }
  TRI_ASSIGN_OR_RETURN(const std::string name, as_string(*u.value, where));
  auto it = sym_ints_.find(name);
  TRI_CHECK(it != sym_ints_.end(), Error::InvalidProgram,
            "%s: symbolic int '%s' is used before any node defines it", where.c_str(),
            name.c_str());
  return it->second;
}

Result<bool> Lowerer::lower_sym_node(const Pt2Node& node) {
  struct SymOp {
    const char* target;
    const char* kernel;  // nullptr: an assertion, dropped
  };
  static const SymOp kOps[] = {
      {"torch.ops.aten.sym_size.int", "aten::sym_size.int"},
      {"torch.ops.aten.sym_numel.default", "aten::sym_numel"},
      {"torch.ops.aten.sym_stride.int", "aten::sym_stride.int"},
      {"torch.ops.aten.sym_storage_offset.default", "aten::sym_storage_offset"},
      {"_operator.add", "executorch_prim::add.Scalar"},
      {"_operator.sub", "executorch_prim::sub.Scalar"},
      {"_operator.mul", "executorch_prim::mul.Scalar"},
      {"_operator.floordiv", "executorch_prim::floordiv.Scalar"},
      {"_operator.mod", "executorch_prim::mod.Scalar"},
      {"_operator.neg", "executorch_prim::neg.Scalar"},
      {"torch.sym_max", "executorch_prim::sym_max.Scalar"},
      {"torch.sym_min", "executorch_prim::sym_min.Scalar"},
      // Guards the export proved for the example; the kernels check shapes.
      {"torch.ops.aten._assert_scalar.default", nullptr},
      {"torch.ops.aten.sym_constrain_range_for_size.default", nullptr},
      {"torch.ops.aten.sym_constrain_range.default", nullptr},
      {"torch.ops.aten._assert_async.msg", nullptr},
  };
  const SymOp* op = nullptr;
  for (const SymOp& o : kOps) {
    if (node.target == o.target) op = &o;
  }
  if (op == nullptr) return false;
  if (op->kernel == nullptr) return true;
  TRI_CHECK(node.outputs.size() == 1 && node.outputs[0].tag == "as_sym_int", Error::InvalidProgram,
            "%s: a symbolic-int op whose output is not one symbolic int", where_.c_str());
  const char* const name_tags[] = {"as_name", "as_int", nullptr};
  TRI_ASSIGN_OR_RETURN(const UnionValue out, read_union(*node.outputs[0].value, name_tags, where_));
  TRI_CHECK(out.tag == "as_name", Error::InvalidProgram, "%s: an unnamed symbolic output",
            where_.c_str());
  TRI_ASSIGN_OR_RETURN(const std::string out_name, as_string(*out.value, where_));
  LoweredCall call;
  call.op = operator_index(op->kernel);
  for (const Pt2NamedArg& named : node.inputs) {
    const Pt2Arg& a = named.arg;
    if (a.tag == "as_tensor") {
      TRI_ASSIGN_OR_RETURN(const Json* name, field(*a.value, "name", where_));
      TRI_ASSIGN_OR_RETURN(const std::string n, as_string(*name, where_));
      TRI_ASSIGN_OR_RETURN(const int32_t t, tensor_named(n, where_));
      call.args.push_back(t);
    } else if (a.tag == "as_int" || a.tag == "as_sym_int") {
      TRI_ASSIGN_OR_RETURN(const int32_t v, sym_int(*a.value, where_));
      call.args.push_back(v);
    } else {
      return fail(Error::NotSupported, "%s: a symbolic-int op on %s", where_.c_str(), a.tag.c_str());
    }
  }
  const int32_t result = int_value(0);
  call.args.push_back(result);
  TRI_CHECK(sym_ints_.emplace(out_name, result).second, Error::InvalidProgram,
            "%s: symbolic int '%s' is defined twice", where_.c_str(), out_name.c_str());
  for (int32_t a : call.args) use(a);
  method_.calls.push_back(std::move(call));
  return true;
}

Result<int32_t> Lowerer::tensor_named(const std::string& name, const std::string& where) {
  auto it = tensors_.find(name);
  TRI_CHECK(it != tensors_.end(), Error::InvalidProgram,
            "%s: tensor '%s' is used before any node or input defines it", where.c_str(),
            name.c_str());
  use(it->second);
  return it->second;
}

Result<int32_t> Lowerer::constant_tensor(const HostTensor& t, const std::string& placeholder,
                                         const std::string& what) {
  auto meta = graph_.tensor_values.find(placeholder);
  if (meta != graph_.tensor_values.end()) {
    // The graph was traced with the tensor it declares; anything else is a
    // corrupt or mismatched archive.
    bool same = meta->second.dtype == t.dtype && meta->second.sizes.size() == t.sizes.size();
    for (size_t d = 0; same && d < t.sizes.size(); ++d) {
      same = !meta->second.sizes[d].symbolic && meta->second.sizes[d].value == t.sizes[d];
    }
    TRI_CHECK(same, Error::InvalidProgram,
              "%s: the weights give '%s' a dtype or shape other than the graph declares for '%s'",
              in_.method_name.c_str(), what.c_str(), placeholder.c_str());
  }
  LoweredValue v;
  v.tag = Tag::Tensor;
  v.tensor.dtype = t.dtype;
  v.tensor.sizes = t.sizes;
  v.tensor.place = TensorPlace::Constant;
  v.tensor.data = t.data;
  v.tensor.nbytes = t.nbytes;
  return add_value(std::move(v));
}

Result<int32_t> Lowerer::default_value(const SchemaArg& arg) {
  TRI_CHECK(arg.has_default, Error::InvalidProgram, "%s: argument '%s' is missing",
            where_.c_str(), arg.name.c_str());
  const TypeInfo t = type_info(arg.type);
  const std::string& text = arg.default_text;
  if (text == "None") return add_value(LoweredValue());
  if (text == "True" || text == "False") {
    if (t.list) {
      LoweredValue v;
      v.tag = Tag::BoolList;
      v.booleans.assign(static_cast<size_t>(t.fixed > 0 ? t.fixed : 1), text == "True");
      return add_value(std::move(v));
    }
    return bool_value(text == "True");
  }
  if (text == "contiguous_format") return int_value(0);
  if (text.size() >= 2 && text.front() == '"') {
    LoweredValue v;
    v.tag = Tag::String;
    v.text = text.substr(1, text.size() - 2);
    return add_value(std::move(v));
  }
  if (t.list) {
    std::vector<int64_t> items;
    if (text.front() == '[') {
      const char* p = text.c_str() + 1;
      while (*p != ']' && *p != '\0') {
        char* end = nullptr;
        items.push_back(std::strtoll(p, &end, 10));
        p = end;
        while (*p == ',' || *p == ' ') ++p;
      }
    } else {
      // int[2] stride=1: the one number for every dim.
      items.assign(static_cast<size_t>(t.fixed > 0 ? t.fixed : 1), std::atoll(text.c_str()));
    }
    if (t.base == "float") {
      LoweredValue v;
      v.tag = Tag::DoubleList;
      for (int64_t i : items) v.numbers.push_back(static_cast<double>(i));
      return add_value(std::move(v));
    }
    return int_list(items);
  }
  const bool has_point = text.find_first_of(".e") != std::string::npos;
  if (t.base == "float" || (t.base == "Scalar" && has_point)) {
    LoweredValue v;
    v.tag = Tag::Double;
    v.number = std::strtod(text.c_str(), nullptr);
    return add_value(std::move(v));
  }
  if (is_int_type(t.base) || t.base == "Scalar") return int_value(std::atoll(text.c_str()));
  return fail(Error::NotSupported, "%s: argument '%s' (%s) has a default '%s' this reader cannot use",
              where_.c_str(), arg.name.c_str(), arg.type.c_str(), text.c_str());
}

Result<int32_t> Lowerer::given_value(const SchemaArg& arg, const Pt2Arg& given) {
  const TypeInfo t = type_info(arg.type);
  const std::string w = where_ + ", argument '" + arg.name + "'";
  const Json& v = *given.value;
  const std::string& tag = given.tag;
  if (tag == "as_none") {
    TRI_CHECK(t.optional || t.base == "Layout" || t.base == "Device", Error::InvalidProgram,
              "%s: None for a %s", w.c_str(), arg.type.c_str());
    return add_value(LoweredValue());
  }
  auto mismatch = [&]() {
    return fail(Error::InvalidProgram, "%s: a %s cannot be given as %s", w.c_str(),
                arg.type.c_str(), tag.c_str());
  };
  if (t.base == "Tensor") {
    if (!t.list) {
      if (tag != "as_tensor" && tag != "as_optional_tensor") return mismatch();
      const Json* named = &v;
      if (tag == "as_optional_tensor") {
        TRI_ASSIGN_OR_RETURN(const UnionValue u, read_union(v, nullptr, w));
        if (u.tag == "as_none") return add_value(LoweredValue());
        named = u.value;
      }
      TRI_ASSIGN_OR_RETURN(const Json* name, field(*named, "name", w));
      TRI_ASSIGN_OR_RETURN(const std::string n, as_string(*name, w));
      return tensor_named(n, w);
    }
    LoweredValue list;
    list.tag = t.element_optional ? Tag::OptionalTensorList : Tag::TensorList;
    if (tag != "as_tensors" && tag != "as_optional_tensors") return mismatch();
    TRI_CHECK(v.is_array(), Error::InvalidProgram, "%s: expected a list", w.c_str());
    for (const Json& item : v) {
      const Json* named = &item;
      if (tag == "as_optional_tensors") {
        TRI_ASSIGN_OR_RETURN(const UnionValue u, read_union(item, nullptr, w));
        if (u.tag == "as_none") {
          list.items.push_back(-1);
          continue;
        }
        named = u.value;
      }
      TRI_ASSIGN_OR_RETURN(const Json* name, field(*named, "name", w));
      TRI_ASSIGN_OR_RETURN(const std::string n, as_string(*name, w));
      TRI_ASSIGN_OR_RETURN(const int32_t item_value, tensor_named(n, w));
      list.items.push_back(item_value);
    }
    return add_value(std::move(list));
  }
  if (is_int_type(t.base) && !t.list) {
    if (tag == "as_int") {
      TRI_ASSIGN_OR_RETURN(const int64_t i, as_int(v, w));
      return int_value(i);
    }
    if (tag == "as_sym_int") return sym_int(v, w);
    return mismatch();
  }
  if (is_int_type(t.base) && t.list) {
    // Items are Int slots, so a symbolic size computed at run time is seen
    // by every list that names it.
    LoweredValue list;
    list.tag = Tag::IntList;
    if (tag == "as_int" || tag == "as_sym_int") {
      TRI_ASSIGN_OR_RETURN(const int32_t item, sym_int(v, w));
      list.items.assign(static_cast<size_t>(t.fixed > 0 ? t.fixed : 1), item);
    } else if (tag == "as_ints" || tag == "as_sym_ints") {
      TRI_CHECK(v.is_array(), Error::InvalidProgram, "%s: expected a list", w.c_str());
      for (const Json& item : v) {
        TRI_ASSIGN_OR_RETURN(const int32_t i, sym_int(item, w));
        list.items.push_back(i);
      }
    } else {
      return mismatch();
    }
    for (int32_t item : list.items) use(item);
    return add_value(std::move(list));
  }
  if (t.base == "float" && !t.list) {
    if (tag != "as_float" && tag != "as_int") return mismatch();
    LoweredValue d;
    d.tag = Tag::Double;
    TRI_ASSIGN_OR_RETURN(d.number, as_float(v, w));
    return add_value(std::move(d));
  }
  if (t.base == "float" && t.list) {
    if (tag != "as_floats") return mismatch();
    LoweredValue d;
    d.tag = Tag::DoubleList;
    for (const Json& item : v) {
      TRI_ASSIGN_OR_RETURN(const double x, as_float(item, w));
      d.numbers.push_back(x);
    }
    return add_value(std::move(d));
  }
  if (t.base == "bool" && !t.list) {
    if (tag != "as_bool") return mismatch();
    TRI_ASSIGN_OR_RETURN(const bool b, as_bool(v, w));
    return bool_value(b);
  }
  if (t.base == "bool" && t.list) {
    if (tag != "as_bools") return mismatch();
    LoweredValue d;
    d.tag = Tag::BoolList;
    for (const Json& item : v) {
      TRI_ASSIGN_OR_RETURN(const bool b, as_bool(item, w));
      d.booleans.push_back(b ? 1 : 0);
    }
    return add_value(std::move(d));
  }
  if (t.base == "Scalar") {
    if (tag == "as_int") {
      TRI_ASSIGN_OR_RETURN(const int64_t i, as_int(v, w));
      return int_value(i);
    }
    if (tag == "as_bool") {
      TRI_ASSIGN_OR_RETURN(const bool b, as_bool(v, w));
      return bool_value(b);
    }
    if (tag == "as_float") {
      LoweredValue d;
      d.tag = Tag::Double;
      TRI_ASSIGN_OR_RETURN(d.number, as_float(v, w));
      return add_value(std::move(d));
    }
    return mismatch();
  }
  if (t.base == "ScalarType") {
    if (tag != "as_scalar_type") return mismatch();
    TRI_ASSIGN_OR_RETURN(const int64_t n, as_enum(v, nullptr, w));
    TRI_ASSIGN_OR_RETURN(const ScalarType type, export_dtype(n, w));
    return int_value(static_cast<int64_t>(type));
  }
  if (t.base == "MemoryFormat") {
    if (tag != "as_memory_format") return mismatch();
    TRI_ASSIGN_OR_RETURN(const int64_t n, as_enum(v, nullptr, w));
    const int64_t c10 = c10_memory_format(n);
    TRI_CHECK(c10 >= 0, Error::InvalidProgram, "%s: unknown memory format %" PRId64, w.c_str(), n);
    return int_value(c10);
  }
  if (t.base == "Layout" || t.base == "Device") {
    // Only strided CPU tensors exist here; the kernels take neither.
    return add_value(LoweredValue());
  }
  if (t.base == "str") {
    if (tag != "as_string") return mismatch();
    LoweredValue s;
    s.tag = Tag::String;
    TRI_ASSIGN_OR_RETURN(s.text, as_string(v, w));
    return add_value(std::move(s));
  }
  return fail(Error::NotSupported, "%s: arguments of type %s are not supported", w.c_str(),
              arg.type.c_str());
}

Result<int32_t> Lowerer::argument(const SchemaArg& arg, const BoundArgs& bound) {
  auto it = bound.find(arg.name);
  if (it == bound.end()) return default_value(arg);
  return given_value(arg, it->second);
}

Result<std::vector<std::string>> Lowerer::output_names(const Pt2Node& node,
                                                       const std::string& where) {
  std::vector<std::string> names;
  for (const Pt2Arg& out : node.outputs) {
    if (out.tag == "as_none") {
      names.emplace_back();
    } else if (out.tag == "as_tensor") {
      TRI_ASSIGN_OR_RETURN(const Json* name, field(*out.value, "name", where));
      TRI_ASSIGN_OR_RETURN(std::string n, as_string(*name, where));
      names.push_back(std::move(n));
    } else if (out.tag == "as_tensors") {
      for (const Json& item : *out.value) {
        TRI_ASSIGN_OR_RETURN(const Json* name, field(item, "name", where));
        TRI_ASSIGN_OR_RETURN(std::string n, as_string(*name, where));
        names.push_back(std::move(n));
      }
    } else {
      return fail(Error::NotSupported, "%s: an output of kind %s", where.c_str(), out.tag.c_str());
    }
  }
  return names;
}

Error Lowerer::emit(const AtenSchema& schema, const ArgValues& args,
                    const std::vector<int32_t>& outs) {
  LoweredCall call;
  const std::string full = schema.full_name();
  call.op = operator_index(full);
  size_t out_index = 0;
  for (const SchemaArg& arg : schema.args) {
    if (arg.is_out) {
      TRI_CHECK(out_index < outs.size(), Error::InvalidProgram, "%s: %s needs more outputs",
                where_.c_str(), full.c_str());
      call.args.push_back(outs[out_index++]);
      continue;
    }
    auto it = args.find(arg.name);
    if (it != args.end()) {
      call.args.push_back(it->second);
    } else {
      TRI_ASSIGN_OR_RETURN(const int32_t d, default_value(arg));
      call.args.push_back(d);
    }
  }
  TRI_CHECK(out_index == outs.size(), Error::InvalidProgram,
            "%s: %s takes %zu outputs, the node has %zu", where_.c_str(), full.c_str(), out_index,
            outs.size());
  if (schema.tuple_return && !schema.returns.empty()) {
    LoweredValue list;
    list.tag = Tag::TensorList;
    list.items = outs;
    call.args.push_back(add_value(std::move(list)));
  } else if (!schema.returns.empty()) {
    call.args.push_back(outs.empty() ? add_value(LoweredValue()) : outs[0]);
  } else if (outs.size() == 1 && value(outs[0]).tag == Tag::TensorList) {
    // `-> ()` with a Tensor[] out (split_copy, unbind_copy): ExecuTorch's
    // emitter still appends the returned value, a second list of the outs.
    LoweredValue list = value(outs[0]);
    call.args.push_back(add_value(std::move(list)));
  }
  // In-place reuse: an element-wise op may write over an input of the same
  // dtype and shape that dies here, and a view over its self of as many
  // elements (every tensor here is contiguous).
  const InPlaceKind kind = in_place_kind(full.c_str());
  if (kind != InPlaceKind::kNone && outs.size() == 1) {
    auto out_planned = planned_index_.find(outs[0]);
    for (const SchemaArg& arg : schema.args) {
      if (kind == InPlaceKind::kSameBytes && arg.name != "self") continue;
      auto it = args.find(arg.name);
      if (arg.is_out || it == args.end() || out_planned == planned_index_.end()) continue;
      auto in_planned = planned_index_.find(it->second);
      if (in_planned == planned_index_.end() || it->second == outs[0]) continue;
      const LoweredTensor& a = value(it->second).tensor;
      const LoweredTensor& b = value(outs[0]).tensor;
      const bool fits = kind == InPlaceKind::kElementwise
                            ? a.sizes == b.sizes
                            : a.nbytes == b.nbytes && a.dynamism == b.dynamism;
      if (a.dtype == b.dtype && fits) {
        planned_[out_planned->second].reuse_value = it->second;
        break;
      }
    }
  }
  for (int32_t a : call.args) {
    use(a);
    const LoweredValue& v = value(a);
    if (v.tag == Tag::TensorList || v.tag == Tag::OptionalTensorList) {
      for (int32_t item : v.items) {
        if (item >= 0) use(item);
      }
    }
  }
  method_.calls.push_back(std::move(call));
  return Error::Ok;
}

Error Lowerer::emit(const char* out_name, const ArgValues& args,
                    const std::vector<int32_t>& outs) {
  const AtenSchema* schema = find_out_schema(out_name);
  TRI_CHECK(schema != nullptr, Error::Internal, "no schema for %s", out_name);
  return emit(*schema, args, outs);
}

Error Lowerer::lower_generic(const OpLowering& lowering, const Pt2Node& node,
                             const BoundArgs& bound) {
  ArgValues args;
  for (const SchemaArg& arg : lowering.out.args) {
    if (arg.is_out) continue;
    const SchemaArg* f = lowering.functional.arg(arg.name);
    TRI_CHECK(f != nullptr, Error::Internal, "%s: schema table pairs mismatched arguments",
              where_.c_str());
    TRI_ASSIGN_OR_RETURN(const int32_t v, argument(*f, bound));
    args[arg.name] = v;
  }
  TRI_ASSIGN_OR_RETURN(const std::vector<std::string> names, output_names(node, where_));
  std::vector<int32_t> outs;
  const size_t num_outs = lowering.out.num_outs();
  const SchemaArg* list_out = nullptr;
  for (const SchemaArg& arg : lowering.out.args) {
    if (arg.is_out && type_info(arg.type).list) list_out = &arg;
  }
  if (list_out != nullptr) {
    // Tensor[] out (split_copy, unbind_copy): one list of every output.
    LoweredValue list;
    list.tag = Tag::TensorList;
    for (const std::string& n : names) {
      TRI_CHECK(!n.empty(), Error::NotSupported, "%s: a None in a list output", where_.c_str());
      TRI_ASSIGN_OR_RETURN(const int32_t t, define_output(n));
      list.items.push_back(t);
    }
    outs.push_back(add_value(std::move(list)));
  } else {
    TRI_CHECK(names.size() == num_outs, Error::InvalidProgram,
              "%s: the node has %zu outputs but %s has %zu", where_.c_str(), names.size(),
              lowering.out.full_name().c_str(), num_outs);
    for (const std::string& n : names) {
      TRI_CHECK(!n.empty(), Error::NotSupported,
                "%s: an output written as None (its shape is unknown)", where_.c_str());
      TRI_ASSIGN_OR_RETURN(const int32_t t, define_output(n));
      outs.push_back(t);
    }
  }
  return emit(lowering.out, args, outs);
}

// Records an op the runtime cannot run and defines its outputs anyway, so
// that lowering goes on and one error lists every missing op.
Error Lowerer::missing(const std::string& op, const Pt2Node& node, size_t index) {
  missing_.push_back(op + " (node " + std::to_string(index) + ")");
  Result<std::vector<std::string>> names = output_names(node, where_);
  if (names.ok()) {
    for (const std::string& n : *names) {
      if (!n.empty() && tensors_.find(n) == tensors_.end() &&
          graph_.tensor_values.find(n) != graph_.tensor_values.end()) {
        tensors_.emplace(n, add_value(LoweredValue()));
      }
    }
  }
  return Error::Ok;
}

Error Lowerer::lower_node(const Pt2Node& node, size_t index) {
  std::string full;
  std::string first_output;
  if (!node.outputs.empty() && node.outputs[0].tag == "as_tensor" &&
      node.outputs[0].value->contains("name")) {
    first_output = (*node.outputs[0].value)["name"].is_string()
                       ? (*node.outputs[0].value)["name"].get<std::string>()
                       : "";
  }
  where_ = in_.method_name + ", node " + std::to_string(index) + " (" + node.target +
           (first_output.empty() ? "" : " -> " + first_output) + ")";
  TRI_ASSIGN_OR_RETURN(const bool symbolic, lower_sym_node(node));
  if (symbolic) return Error::Ok;
  if (!op_name(node.target, &full)) {
    return missing(node.target, node, index);
  }
  const OpLowering* lowering = find_lowering(full);
  if (lowering != nullptr) lowering = scalar_overload(*lowering, node);
  if (lowering == nullptr) return missing(full, node, index);
  BoundArgs bound;
  for (const Pt2NamedArg& named : node.inputs) {
    TRI_CHECK(lowering->functional.arg(named.name) != nullptr, Error::InvalidProgram,
              "%s: %s has no argument named '%s'", where_.c_str(), full.c_str(),
              named.name.c_str());
    bound[named.name] = named.arg;
  }
  if (lowering->out.name.empty()) {
    bool handled = false;
    TRI_TRY(rewrite(full, lowering->functional, node, bound, &handled));
    return handled ? Error::Ok : missing(full, node, index);
  }
  return lower_generic(*lowering, node, bound);
}

Error Lowerer::bind_signature() {
  for (const Pt2OutputSpec& spec : graph_.output_specs) {
    if (spec.kind == OutputKind::BufferMutation) mutated_buffers_.insert(spec.target);
  }
  for (size_t i = 0; i < graph_.input_specs.size(); ++i) {
    const Pt2InputSpec& spec = graph_.input_specs[i];
    where_ = in_.method_name + ", input " + std::to_string(i) + " ('" + spec.name + "')";
    switch (spec.kind) {
      case InputKind::Parameter:
      case InputKind::Buffer:
      case InputKind::TensorConstant: {
        // Parameters and persistent buffers are in the state dict; tensor
        // constants and non-persistent buffers in the constants. Look in
        // both: torch versions disagree on where some of them go.
        const HostTensor* t = nullptr;
        for (const auto* map : {in_.state, in_.constants}) {
          auto it = map->find(spec.target);
          if (t == nullptr && it != map->end()) t = &it->second;
        }
        TRI_CHECK(t != nullptr, Error::InvalidProgram,
                  "%s: the archive has no tensor '%s' (missing weight)", where_.c_str(),
                  spec.target.c_str());
        HostTensor tensor = *t;
        if (spec.kind == InputKind::Buffer && mutated_buffers_.count(spec.target) != 0) {
          // Module state: runs update it and later runs see the update.
          auto kept = in_.mutable_state->find(spec.target);
          if (kept != in_.mutable_state->end()) {
            tensor = kept->second;
          } else {
            TRI_ASSIGN_OR_RETURN(tensor, in_.store->writable_copy(*t, "buffer '" + spec.target + "'"));
            in_.mutable_state->emplace(spec.target, tensor);
          }
        }
        TRI_ASSIGN_OR_RETURN(const int32_t v, constant_tensor(tensor, spec.name, spec.target));
        tensors_[spec.name] = v;
        if (spec.kind == InputKind::Buffer) state_values_[spec.target] = v;
        break;
      }
      case InputKind::UserInput: {
        if (spec.user_arg.tag == "as_none") break;
        TRI_CHECK(spec.user_arg.tag == "as_tensor", Error::NotSupported,
                  "%s: user inputs of kind %s are not supported (only tensors)", where_.c_str(),
                  spec.user_arg.tag.c_str());
        TRI_ASSIGN_OR_RETURN(const int32_t v, define_output(spec.name));
        planned_[planned_index_[v]].first = 0;
        method_.inputs.push_back(v);
        method_.input_names.push_back(spec.name);
        std::vector<InputDim> dims;
        for (const SymDim& d : graph_.tensor_values.at(spec.name).sizes) {
          InputDim dim;
          dim.symbolic = d.symbolic;
          dim.min = dim.max = d.value;
          if (d.symbolic) {
            const bool bare = sym_max_.count(d.expr) != 0;
            dim.symbol = bare ? d.expr : "";
            dim.min = bare ? sym_min_[d.expr] : 0;
            dim.max = bare ? sym_max_[d.expr] : 0;
            dim.unbounded = bare && unbounded_.count(d.expr) != 0;
          }
          // Callers may pass any size here: the program plans again for it.
          if (dim.unbounded) method_.values[static_cast<size_t>(v)].tensor.dynamism = ShapeDynamism::DynamicUnbound;
          dims.push_back(dim);
        }
        method_.input_dims.push_back(std::move(dims));
        break;
      }
      case InputKind::ConstantInput:
        break;  // specialised away at export; the caller passes nothing
      case InputKind::Token:
        // An effect token orders side effects; it carries no data.
        tensors_[spec.name] = add_value(LoweredValue());
        break;
      case InputKind::CustomObj:
        return fail(Error::NotSupported,
                    "%s: torchbind custom objects ('%s') are not supported", where_.c_str(),
                    spec.target.c_str());
    }
  }
  return Error::Ok;
}

Error Lowerer::bind_outputs() {
  where_ = in_.method_name + ", outputs";
  std::vector<std::pair<int32_t, int32_t>> write_backs;  // (buffer or input, new value)
  for (size_t i = 0; i < graph_.output_specs.size(); ++i) {
    const Pt2OutputSpec& spec = graph_.output_specs[i];
    const Pt2Arg& arg = spec.arg;
    const std::string w = where_ + "[" + std::to_string(i) + "]";
    switch (spec.kind) {
      case OutputKind::UserOutput: {
        if (arg.tag == "as_tensor") {
          TRI_ASSIGN_OR_RETURN(const Json* name, field(*arg.value, "name", w));
          TRI_ASSIGN_OR_RETURN(const std::string n, as_string(*name, w));
          TRI_ASSIGN_OR_RETURN(const int32_t v, tensor_named(n, w));
          method_.outputs.push_back(v);
        } else if (arg.tag == "as_int") {
          TRI_ASSIGN_OR_RETURN(const int64_t n, as_int(*arg.value, w));
          method_.outputs.push_back(int_value(n));
        } else if (arg.tag == "as_none") {
          method_.outputs.push_back(add_value(LoweredValue()));
        } else {
          return fail(Error::NotSupported, "%s: user outputs of kind %s are not supported",
                      w.c_str(), arg.tag.c_str());
        }
        break;
      }
      case OutputKind::BufferMutation: {
        TRI_ASSIGN_OR_RETURN(const Json* name, field(*arg.value, "name", w));
        TRI_ASSIGN_OR_RETURN(const std::string n, as_string(*name, w));
        TRI_ASSIGN_OR_RETURN(const int32_t v, tensor_named(n, w));
        auto state = state_values_.find(spec.target);
        TRI_CHECK(state != state_values_.end(), Error::InvalidProgram,
                  "%s: mutates buffer '%s', which is not an input", w.c_str(), spec.target.c_str());
        write_backs.emplace_back(state->second, v);
        method_.state[spec.target] = state->second;
        break;
      }
      case OutputKind::UserInputMutation: {
        // Written into the input's slot at the end of the run; the API
        // hands it back to the caller's tensor.
        TRI_ASSIGN_OR_RETURN(const Json* name, field(*arg.value, "name", w));
        TRI_ASSIGN_OR_RETURN(const std::string n, as_string(*name, w));
        TRI_ASSIGN_OR_RETURN(const int32_t v, tensor_named(n, w));
        const auto input = std::find(method_.input_names.begin(), method_.input_names.end(), spec.target);
        TRI_CHECK(input != method_.input_names.end(), Error::InvalidProgram,
                  "%s: mutates user input '%s', which is not a tensor input", w.c_str(),
                  spec.target.c_str());
        const size_t index = static_cast<size_t>(input - method_.input_names.begin());
        write_backs.emplace_back(method_.inputs[index], v);
        method_.mutated_inputs.push_back(index);
        break;
      }
      case OutputKind::Token:
        break;  // effect tokens carry no data
      default:
        return fail(Error::NotSupported,
                    "%s: training outputs (loss, gradients, parameter mutations) are not "
                    "supported",
                    w.c_str());
    }
  }
  // Every buffer and input update lands after the graph has read the old
  // values.
  for (const auto& [state, update] : write_backs) {
    ArgValues args{{"self", state}, {"src", update}};
    TRI_TRY(emit("aten::copy.out", args, {state}));
  }
  for (int32_t out : method_.outputs) use(out);
  return Error::Ok;
}

Error Lowerer::plan() {
  // Outputs live past the last call, until the caller reads them.
  const int32_t end = static_cast<int32_t>(method_.calls.size());
  for (int32_t out : method_.outputs) {
    auto it = planned_index_.find(out);
    if (it != planned_index_.end()) planned_[it->second].last = end;
  }
  std::vector<LifetimeBuffer> buffers(planned_.size());
  for (size_t i = 0; i < planned_.size(); ++i) {
    const Planned& p = planned_[i];
    buffers[i].size = value(p.value).tensor.nbytes;
    buffers[i].first = p.first;
    buffers[i].last = p.last < p.first ? p.first : p.last;
    if (p.reuse_value >= 0) buffers[i].reuse = static_cast<int32_t>(planned_index_[p.reuse_value]);
    method_.unplanned_bytes += buffers[i].size;
  }
  // The planner's working arrays, sized as lifetime_planner.cpp needs them.
  std::vector<uint8_t> scratch(planned_.size() * 64 + 1024);
  MemoryAllocator scratch_alloc(scratch.data(), scratch.size());
  TRI_ASSIGN_OR_RETURN(method_.planned_bytes,
                       plan_lifetimes(Span<LifetimeBuffer>(buffers.data(), buffers.size()), 64,
                                      scratch_alloc));
  TRI_CHECK(method_.planned_bytes <= in_.max_planned_bytes, Error::InvalidProgram,
            "%s: its intermediates need %" PRIu64 " bytes, past the %" PRIu64 "-byte limit",
            in_.method_name.c_str(), method_.planned_bytes, in_.max_planned_bytes);
  for (size_t i = 0; i < planned_.size(); ++i) {
    LoweredTensor& t = method_.values[static_cast<size_t>(planned_[i].value)].tensor;
    t.offset = buffers[i].offset;
  }
  return Error::Ok;
}

Result<LoweredMethod> Lowerer::run() {
  method_.name = in_.method_name;
  TRI_TRY(bind_symbols());
  TRI_TRY(bind_signature());
  for (size_t i = 0; i < graph_.nodes.size(); ++i) {
    method_.node_calls.push_back(static_cast<int32_t>(method_.calls.size()));
    TRI_TRY(lower_node(graph_.nodes[i], i));
  }
  method_.node_calls.push_back(static_cast<int32_t>(method_.calls.size()));
  if (!missing_.empty()) {
    std::string list;
    for (size_t i = 0; i < missing_.size(); ++i) list += (i ? ", " : "") + missing_[i];
    return fail(Error::NotSupported, "model '%s': %zu operator%s not supported: %s",
                in_.method_name.c_str(), missing_.size(), missing_.size() == 1 ? " is" : "s are",
                list.c_str());
  }
  TRI_TRY(bind_outputs());
  TRI_TRY(plan());
  return std::move(method_);
}

Result<LoweredMethod> lower_graph(const LoweringInputs& inputs) {
  Lowerer lowerer(inputs);
  return lowerer.run();
}

}  // namespace tri::pt2
