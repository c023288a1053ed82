#include "cpp/formats/bef/host/bef_functions.h"

#include <cinttypes>

#include <cstring>

#include <nlohmann/json.hpp>

#include "cpp/formats/bef/executor/bef_executor.h"
#include "cpp/formats/bef/host/bef_graph.h"
#include "cpp/host/value_json.h"
#include "cpp/kernels/tfrt/tensor/dense_host_tensor.h"
#include "cpp/runtime/async/string_object.h"

namespace tri::bef {
namespace {

using async::AsyncValue;
using async::ValueKind;

bool is_integer_type(const std::string& t) {
  return t == "i8" || t == "i16" || t == "i32" || t == "i64" || t == "ui8" || t == "ui16" ||
         t == "ui32" || t == "ui64";
}

bool is_tensor_type(const std::string& t) {
  return t == "!t.tensor" || t == "!tfrt_tensor.tensor" || t.find(".tensor") != std::string::npos;
}

// The host's value kind for a BEF type name.
const char* kind_of(const std::string& t) {
  if (t == "i1") return "Bool";
  if (is_integer_type(t)) return "Int";
  if (t == "f32" || t == "f64") return "Double";
  if (t == "!tfrt.chain") return "None";
  if (t == "!tfrt.string") return "String";
  if (is_tensor_type(t)) return "Tensor";
  return "Other";
}

void collect_printed(void* context, const char* text, size_t size) {
  static_cast<std::string*>(context)->append(text, size);
}

}  // namespace

Result<host::MethodGraph> BefFunctions::graph(size_t method) const {
  TRI_CHECK(method < order_.size(), Error::InvalidArgument,
            "the file has %zu functions; function %zu does not exist", order_.size(), method);
  return bef_function_graph(instance_->program().file(), methods_.at(order_[method]).function,
                            nullptr);
}

BefFunctions::BefFunctions(std::unique_ptr<BefInstance> instance, uint64_t kernel_budget)
    : instance_(std::move(instance)), kernel_budget_(kernel_budget) {
  const BefFile& file = instance_->program().file();
  for (uint32_t f = 0; f < file.num_functions(); ++f) {
    const FunctionEntry& entry = file.function(f);
    if (entry.name[0] == '\0') continue;  // region functions
    Method m;
    m.function = f;
    m.inputs.resize(entry.argument_types.size());
    m.inputs_set.assign(entry.argument_types.size(), false);
    methods_[entry.name] = std::move(m);
    order_.push_back(entry.name);
  }
  instance_->host().set_print_hook(&collect_printed, &printed_);
  instance_->host().set_diagnostic_hook(&BefFunctions::collect, this);
}

BefFunctions::~BefFunctions() {
  for (auto& [name, m] : methods_) release_results(m);
  instance_->host().quiesce();
}

std::string BefFunctions::take_printed() {
  std::string text;
  text.swap(printed_);
  return text;
}

void BefFunctions::collect(void* context, const async::Diagnostic& diagnostic) {
  static_cast<BefFunctions*>(context)->diagnostics_.push_back({diagnostic.message, diagnostic.location});
}

const char* BefFunctions::type_name(uint32_t type) const {
  return instance_->program().file().type_name(type);
}

std::string BefFunctions::describe_json() const {
  const BefFile& file = instance_->program().file();
  nlohmann::json methods = nlohmann::json::array();
  for (const std::string& name : order_) {
    const FunctionEntry& entry = file.function(methods_.at(name).function);
    auto values = [this](Span<const uint32_t> types) {
      nlohmann::json list = nlohmann::json::array();
      for (uint32_t t : types) list.push_back({{"kind", kind_of(type_name(t))}, {"type", type_name(t)}});
      return list;
    };
    methods.push_back({{"name", name},
                       {"inputs", values(entry.argument_types)},
                       {"outputs", values(entry.result_types)},
                       {"instructions", entry.kind == FunctionKind::Native ? 0 : entry.body.kernels.size() - 1},
                       {"delegates", nlohmann::json::array()}});
  }
  return host::dump_json(nlohmann::json{{"methods", methods}});
}

Result<BefFunctions::Method*> BefFunctions::method(const std::string& name) {
  auto it = methods_.find(name);
  if (it == methods_.end()) {
    std::string names;
    for (const std::string& n : order_) names += (names.empty() ? "'" : ", '") + n + "'";
    return fail(Error::MethodMissing, "no function '%s' in this BEF file; it has %s", name.c_str(),
                names.empty() ? "none" : names.c_str());
  }
  return &it->second;
}

Error BefFunctions::set_input_scalar(const std::string& name, size_t index, const EValue& value) {
  TRI_ASSIGN_OR_RETURN(Method* m, method(name));
  const FunctionEntry& entry = instance_->program().file().function(m->function);
  TRI_CHECK(index < m->inputs.size(), Error::InvalidArgument,
            "function '%s' takes %zu arguments; argument %zu does not exist", name.c_str(),
            m->inputs.size(), index);
  const std::string type = type_name(entry.argument_types[index]);
  const std::string kind = kind_of(type);
  const bool fits = (kind == "Int" && value.tag == Tag::Int) || (kind == "Bool" && value.tag == Tag::Bool) ||
                    (kind == "Double" && (value.tag == Tag::Double || value.tag == Tag::Int)) ||
                    (kind == "None" && value.tag == Tag::None);
  TRI_CHECK(fits, Error::InvalidType, "function '%s': argument %zu is %s, which takes %s", name.c_str(),
            index, type.c_str(), kind == "Other" || kind == "Tensor" || kind == "String" ? "no value from JavaScript yet" : kind.c_str());
  if (type == "i32") {
    const int64_t v = value.to_int();
    TRI_CHECK(v >= INT32_MIN && v <= INT32_MAX, Error::InvalidArgument,
              "function '%s': argument %zu (i32) cannot hold %lld", name.c_str(), index,
              static_cast<long long>(v));
  }
  m->inputs[index] = value;
  m->inputs_set[index] = true;
  return Error::Ok;
}

void BefFunctions::release_results(Method& m) {
  for (AsyncValue* r : m.results) r->drop_ref();
  m.results.clear();
}

Error BefFunctions::execute(const std::string& name) {
  TRI_ASSIGN_OR_RETURN(Method* m, method(name));
  const FunctionEntry& entry = instance_->program().file().function(m->function);
  for (size_t i = 0; i < m->inputs.size(); ++i) {
    // A chain carries no value: an unset one is a fresh chain.
    const bool chain = std::strcmp(type_name(entry.argument_types[i]), "!tfrt.chain") == 0;
    TRI_CHECK(m->inputs_set[i] || chain, Error::InvalidArgument,
              "function '%s': argument %zu was not set", name.c_str(), i);
  }
  async::HostContext& host = instance_->host();
  release_results(*m);
  host.quiesce();
  diagnostics_.clear();
  std::vector<AsyncValue*> arguments;
  for (size_t i = 0; i < m->inputs.size(); ++i) {
    const std::string type = type_name(entry.argument_types[i]);
    const EValue& v = m->inputs[i];
    AsyncValue* a = nullptr;
    if (type == "i1") a = host.make_i1(v.to_bool());
    else if (type == "i32") a = host.make_i32(static_cast<int32_t>(v.to_int()));
    else if (is_integer_type(type)) a = host.make_i64(v.to_int());
    else if (type == "f32") a = host.make_f32(static_cast<float>(v.tag == Tag::Int ? static_cast<double>(v.to_int()) : v.to_double()));
    else if (type == "f64") a = host.make_f64(v.tag == Tag::Int ? static_cast<double>(v.to_int()) : v.to_double());
    else a = host.make_chain();
    arguments.push_back(a);
  }
  m->results.assign(entry.result_types.size(), nullptr);
  host.set_kernel_budget(kernel_budget_);
  {
    BefRunner runner(instance_->program(), host);
    runner.call(m->function, Span<AsyncValue* const>(arguments.data(), arguments.size()),
                Span<AsyncValue*>(m->results.data(), m->results.size()));
    for (AsyncValue* r : m->results) host.await(r);
    host.quiesce();
  }
  for (AsyncValue* a : arguments) a->drop_ref();
  TRI_CHECK(!host.out_of_memory(), Error::MemoryAllocationFailed,
            "function '%s' ran out of the executor's heap (%zu bytes)", name.c_str(), instance_->heap_bytes());
  for (size_t i = 0; i < m->results.size(); ++i) {
    const AsyncValue* r = m->results[i];
    TRI_CHECK(r->available(), Error::InvalidState, "function '%s': result %zu never became available",
              name.c_str(), i);
    if (!r->is_error()) continue;
    if (host.budget_exhausted()) {
      return fail(Error::LimitExceeded, "%s (maxInstructionsPerRun: %" PRIu64 " kernel executions)",
                  r->error_message(), kernel_budget_);
    }
    // TFRT's message, where the kernel that reported it is.
    for (const Diagnostic& d : diagnostics_) {
      if (d.message == r->error_message() && d.location.filename != nullptr) {
        return fail(Error::Internal, "%s (at %s:%u:%u)", r->error_message(), d.location.filename,
                    d.location.line, d.location.column);
      }
    }
    return fail(Error::Internal, "%s", r->error_message());
  }
  return Error::Ok;
}

Result<size_t> BefFunctions::output_count(const std::string& name) {
  TRI_ASSIGN_OR_RETURN(Method* m, method(name));
  return m->results.size();
}

Result<std::string> BefFunctions::output_json(const std::string& name, size_t index) {
  TRI_ASSIGN_OR_RETURN(Method* m, method(name));
  TRI_CHECK(index < m->results.size(), Error::InvalidArgument,
            "function '%s' returned %zu results; result %zu does not exist (run it first)", name.c_str(),
            m->results.size(), index);
  AsyncValue* r = m->results[index];
  const FunctionEntry& entry = instance_->program().file().function(m->function);
  switch (r->kind()) {
    case ValueKind::I1: return host::dump_json(host::value_json(EValue::from_bool(r->i1()), true));
    case ValueKind::I32: return host::dump_json(host::value_json(EValue::from_int(r->i32()), true));
    case ValueKind::I64: return host::dump_json(host::value_json(EValue::from_int(r->i64()), true));
    case ValueKind::F32: return host::dump_json(host::value_json(EValue::from_double(r->f32()), true));
    case ValueKind::F64: return host::dump_json(host::value_json(EValue::from_double(r->f64()), true));
    case ValueKind::Chain: return host::dump_json(host::value_json(EValue::none(), true));
    case ValueKind::Object:
      if (const auto* s = r->get<async::StringObject>()) {
        return host::dump_json(nlohmann::json{{"kind", "String"}, {"value", std::string(s->data(), s->size())}});
      }
      if (auto* t = r->get<tfrt_kernels::DenseHostTensor>()) {
        return host::dump_json(host::value_json(EValue::from_tensor(&t->tensor()), true));
      }
      break;
    default:
      break;
  }
  return fail(Error::NotSupported, "function '%s': result %zu is a %s, which cannot be returned to JavaScript",
              name.c_str(), index, type_name(entry.result_types[index]));
}

}  // namespace tri::bef
