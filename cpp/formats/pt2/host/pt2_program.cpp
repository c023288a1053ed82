#include "cpp/formats/pt2/host/pt2_program.h"

#include <algorithm>
#include <cinttypes>

#include "cpp/formats/pt2/host/pt2_graph.h"
#include "cpp/formats/pt2/host/pt2_lower.h"
#include "cpp/formats/pt2/host/pt2_weights.h"
#include "cpp/formats/pt2/host/torch_save.h"
#include "cpp/runtime/executor/method_builder.h"

namespace tri::pt2 {
namespace {

// Flattens a pickled (args, kwargs) pair the way pytree does for simple
// containers: tuples and lists in order, dict values in insertion order.
Error flatten(const PickleRef& value, std::vector<PickleRef>* out, const std::string& what) {
  switch (value->kind) {
    case PickleKind::Tuple:
    case PickleKind::List:
      for (const PickleRef& item : value->items) TRI_TRY(flatten(item, out, what));
      return Error::Ok;
    case PickleKind::Dict:
      for (const auto& entry : value->entries) TRI_TRY(flatten(entry.second, out, what));
      return Error::Ok;
    case PickleKind::Tensor:
    case PickleKind::Int:
    case PickleKind::Float:
    case PickleKind::Bool:
    case PickleKind::None:
      out->push_back(value);
      return Error::Ok;
    default:
      return fail(Error::NotSupported, "%s: a sample input of kind %s", what.c_str(),
                  pickle_kind_name(value->kind));
  }
}

}  // namespace

Result<std::unique_ptr<Pt2Program>> Pt2Program::load(ByteSpan bytes,
                                                     const Pt2LoadOptions& options) {
  std::unique_ptr<Pt2Program> program(new Pt2Program());
  program->options_ = options;
  program->store_ = TensorStore(options.max_planned_bytes);
  TRI_ASSIGN_OR_RETURN(const Pt2Archive archive, Pt2Archive::open(bytes));
  program->layout_ = archive.layout();
  for (const Pt2ModelRecords& model : archive.models()) {
    TRI_TRY(program->load_model(archive, model));
  }
  return program;
}

Error Pt2Program::load_model(const Pt2Archive& archive, const Pt2ModelRecords& model) {
  TRI_ASSIGN_OR_RETURN(const ByteSpan json, archive.record(model.json_record));
  auto source = std::make_unique<ModelSource>();
  source->name = model.name;
  TRI_ASSIGN_OR_RETURN(source->graph, read_graph(json, model.json_record));
  TRI_ASSIGN_OR_RETURN(source->weights, load_weights(archive, model, store_));
  const Pt2Graph& graph = source->graph;
  sources_.push_back(std::move(source));
  TRI_ASSIGN_OR_RETURN(LoweredMethod method, lower(sources_.size() - 1, {}));

  std::vector<SampleValue> samples;
  if (!model.sample_inputs.empty()) {
    TRI_ASSIGN_OR_RETURN(const ByteSpan bytes, archive.record(model.sample_inputs));
    TRI_ASSIGN_OR_RETURN(const TorchSave saved, TorchSave::read(bytes, model.sample_inputs));
    std::vector<PickleRef> flat;
    TRI_TRY(flatten(saved.object(), &flat, model.sample_inputs));
    // Flat user arguments line up with the user and constant input specs.
    size_t next = 0;
    for (const Pt2InputSpec& spec : graph.input_specs) {
      if (spec.kind != InputKind::UserInput && spec.kind != InputKind::ConstantInput) continue;
      TRI_CHECK(next < flat.size(), Error::InvalidProgram,
                "%s: fewer sample inputs (%zu) than the graph's user inputs",
                model.sample_inputs.c_str(), flat.size());
      const PickleRef& v = flat[next++];
      if (spec.kind != InputKind::UserInput || spec.user_arg.tag != "as_tensor") continue;
      TRI_CHECK(v->kind == PickleKind::Tensor, Error::InvalidProgram,
                "%s: sample input for '%s' is a %s, not a tensor", model.sample_inputs.c_str(),
                spec.name.c_str(), pickle_kind_name(v->kind));
      SampleValue s;
      s.kind = 'T';
      s.is_tensor = true;
      TRI_ASSIGN_OR_RETURN(s.tensor, saved.tensor(v->tensor, store_, model.sample_inputs));
      samples.push_back(std::move(s));
    }
  }
  methods_.push_back(std::move(method));
  samples_.push_back(std::move(samples));
  has_samples_.push_back(!model.sample_inputs.empty());
  return Error::Ok;
}

Result<LoweredMethod> Pt2Program::lower(size_t model, const std::map<std::string, int64_t>& bounds) {
  ModelSource& source = *sources_[model];
  LoweringInputs in;
  in.method_name = source.name;
  in.graph = &source.graph;
  in.state = &source.weights.state;
  in.constants = &source.weights.constants;
  in.store = &store_;
  in.mutable_state = &source.state;
  in.bound_overrides = bounds;
  in.max_planned_bytes = options_.max_planned_bytes;
  TRI_ASSIGN_OR_RETURN(LoweredMethod method, lower_graph(in));
  source.bounds = bounds;
  return method;
}

bool Pt2Program::mutates_input(size_t method, size_t index) const {
  if (method >= methods_.size()) return false;
  const std::vector<size_t>& mutated = methods_[method].mutated_inputs;
  return std::find(mutated.begin(), mutated.end(), index) != mutated.end();
}

bool Pt2Program::needs_replan(size_t method, size_t index, Span<const int32_t> shape) const {
  if (method >= methods_.size() || index >= methods_[method].input_dims.size()) return false;
  const std::vector<InputDim>& dims = methods_[method].input_dims[index];
  for (size_t d = 0; d < dims.size() && d < shape.size(); ++d) {
    if (dims[d].unbounded && shape[d] > dims[d].max) return true;
  }
  return false;
}

// Plans again for the larger size (at least twice the old bound, so that
// growing inputs re-plan a logarithmic number of times).
Error Pt2Program::replan(size_t method, size_t index, Span<const int32_t> shape) {
  TRI_CHECK(needs_replan(method, index, shape), Error::InvalidState,
            "method %zu needs no new plan for input %zu", method, index);
  std::map<std::string, int64_t> bounds = sources_[method]->bounds;
  const std::vector<InputDim>& dims = methods_[method].input_dims[index];
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d].unbounded && shape[d] > dims[d].max) {
      bounds[dims[d].symbol] = std::max<int64_t>(shape[d], 2 * dims[d].max);
    }
  }
  TRI_ASSIGN_OR_RETURN(LoweredMethod lowered, lower(method, bounds));
  methods_[method] = std::move(lowered);
  return Error::Ok;
}

const char* Pt2Program::method_name(size_t method) const {
  return method < methods_.size() ? methods_[method].name.c_str() : "";
}

Result<size_t> Pt2Program::method_index(const char* name) const {
  std::string names;
  for (size_t i = 0; i < methods_.size(); ++i) {
    if (methods_[i].name == name) return i;
    names += (i ? ", " : "") + methods_[i].name;
  }
  return fail(Error::MethodMissing, "no method '%s' (the archive has: %s)", name, names.c_str());
}

Result<HostTensor> Pt2Program::state(size_t method, const std::string& name) const {
  TRI_CHECK(method < methods_.size(), Error::NotFound, "no method %zu", method);
  const LoweredMethod& m = methods_[method];
  auto it = m.state.find(name);
  TRI_CHECK(it != m.state.end(), Error::NotFound,
            "method '%s' updates no buffer named '%s'", m.name.c_str(), name.c_str());
  const LoweredTensor& t = m.values[static_cast<size_t>(it->second)].tensor;
  HostTensor out;
  out.dtype = t.dtype;
  out.sizes = t.sizes;
  out.data = t.data;
  out.nbytes = t.nbytes;
  out.owned = true;
  return out;
}

size_t Pt2Program::num_inputs(size_t method) const { return methods_[method].inputs.size(); }
size_t Pt2Program::num_outputs(size_t method) const { return methods_[method].outputs.size(); }

Result<ValueInfo> Pt2Program::input_info(size_t method, size_t index) const {
  TRI_CHECK(index < num_inputs(method), Error::InvalidArgument, "no input %zu", index);
  return describe_lowered_value(methods_[method], methods_[method].inputs[index]);
}

Result<ValueInfo> Pt2Program::output_info(size_t method, size_t index) const {
  TRI_CHECK(index < num_outputs(method), Error::InvalidArgument, "no output %zu", index);
  return describe_lowered_value(methods_[method], methods_[method].outputs[index]);
}

size_t Pt2Program::num_instructions(size_t method) const { return methods_[method].calls.size(); }

size_t Pt2Program::num_planned_buffers(size_t method) const {
  return LoweredMethodSource(methods_[method]).num_planned_buffers();
}

Result<size_t> Pt2Program::planned_buffer_size(size_t method, size_t index) const {
  TRI_CHECK(index < num_planned_buffers(method), Error::InvalidArgument,
            "no planned buffer %zu", index);
  return static_cast<size_t>(methods_[method].planned_bytes);
}

Result<MethodMemoryNeeds> Pt2Program::memory_needs(size_t method, MemoryAllocator& trial,
                                                   MemoryAllocator& scratch,
                                                   const MethodLoadOptions& options) const {
  return size_method(LoweredMethodSource(methods_[method]), trial, scratch, options);
}

Error Pt2Program::check_input_shape(size_t method, size_t index,
                                   Span<const int32_t> shape) const {
  TRI_CHECK(method < methods_.size(), Error::InvalidArgument, "no method %zu", method);
  const LoweredMethod& m = methods_[method];
  if (index >= m.input_dims.size()) return Error::Ok;  // the method reports it
  const std::vector<InputDim>& dims = m.input_dims[index];
  const char* name = m.input_names[index].c_str();
  TRI_CHECK(shape.size() == dims.size(), Error::InvalidArgument,
            "method '%s': input %zu ('%s') has %zu dims, the graph declares %zu", m.name.c_str(),
            index, name, shape.size(), dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    const InputDim& dim = dims[d];
    const int64_t size = shape[d];
    if (!dim.symbolic) {
      TRI_CHECK(size == dim.min, Error::InvalidArgument,
                "method '%s': input %zu ('%s'): dim %zu is %" PRId64 ", the graph declares %" PRId64,
                m.name.c_str(), index, name, d, size, dim.min);
      continue;
    }
    if (dim.symbol.empty()) continue;  // a compound expression: the kernels check
    TRI_CHECK(size >= dim.min, Error::InvalidArgument,
              "method '%s': input %zu ('%s'): dim %zu is %" PRId64 ", but %s must be at least %" PRId64
              " (range_constraints)",
              m.name.c_str(), index, name, d, size, dim.symbol.c_str(), dim.min);
    TRI_CHECK(size <= dim.max, Error::InvalidArgument,
              "method '%s': input %zu ('%s'): dim %zu is %" PRId64 ", but %s %s %" PRId64 "%s",
              m.name.c_str(), index, name, d, size, dim.symbol.c_str(),
              dim.unbounded ? "was planned for at most" : "must be at most", dim.max,
              dim.unbounded ? " (the archive gives no upper bound; memory is planned for its "
                              "example size, and re-planning for larger inputs is not supported yet)"
                            : " (range_constraints)");
  }
  return Error::Ok;
}

Result<uint64_t> Pt2Program::intermediate_bytes(size_t method) const {
  TRI_CHECK(method < methods_.size(), Error::InvalidArgument, "no method %zu", method);
  return methods_[method].unplanned_bytes;
}

Error Pt2Program::check_dependencies(size_t method) const {
  return check_method_dependencies(LoweredMethodSource(methods_[method]));
}

Result<Method> Pt2Program::load_method(size_t method, MemoryManager& memory,
                                       const MethodLoadOptions& options) const {
  return build_method(LoweredMethodSource(methods_[method]), memory, options);
}

}  // namespace tri::pt2
