#include "cpp/host/host_model.h"

#include <cstring>
#include <set>

#include <nlohmann/json.hpp>

#include "cpp/host/growing_tensor_arena.h"
#include "cpp/host/row_major.h"
#include "cpp/host/value_json.h"
#include "cpp/runtime/platform/parallel.h"

namespace tri::host {

struct HostModel::MethodState {
  explicit MethodState(uint64_t max_planned_bytes) : per_shape(max_planned_bytes) {}
  AlignedBuffer method_arena;
  // The tensors of a method planned per shape (unused by the others).
  GrowingTensorArena per_shape;
  std::vector<AlignedBuffer> planned;
  std::vector<Span<uint8_t>> planned_spans;
  MemoryAllocator method_allocator;
  MemoryAllocator temp_allocator;
  PlannedMemory planned_memory;
  MemoryManager memory;
  Method method;
  bool ready = false;
  // Storage for tensor inputs that the plan gives no memory.
  std::vector<AlignedBuffer> input_storage;
  // Row-major copies of outputs stored in another dim order.
  std::vector<AlignedBuffer> output_storage;
  // Inputs stored in another dim order take row-major bytes here, copied
  // into the tensor by execute(); nullptr for inputs written in place.
  std::vector<AlignedBuffer> input_staging;
  std::vector<Tensor*> staged_inputs;
  // Per instruction, of the last run that asked for a profile; per node of
  // each delegate instruction (empty for the others).
  std::vector<InstructionTiming> timings;
  std::vector<std::vector<uint64_t>> node_timings;
  // The options of the run under way, for resume().
  ExecuteOptions run_options;
  // output_descriptors(): the values and, for outputs copied row-major, the
  // copies' addresses; sized at load so that a run allocates nothing.
  std::vector<const EValue*> output_values;
  std::vector<const uint8_t*> output_data;
  ValueDescriptorTable output_table;
  ValueDescriptorTable input_table;

  ~MethodState() {
    if (ready) {
      method.destroy();
    }
  }
};

// A dataflow function's outputs, held as JSON between a run and its reader.
struct HostModel::FunctionState {
  std::vector<std::string> outputs;
  ValueDescriptorTable table;
};

HostModel::HostModel() = default;
HostModel::~HostModel() = default;

Error HostModel::add_data_file(OwnedBytes bytes) {
  TRI_CHECK(!loaded(), Error::InvalidState,
            "external data must be added before the program is loaded");
  TRI_CHECK(bytes.data() != nullptr, Error::MemoryAllocationFailed,
            "no memory for the data file");
  Result<std::unique_ptr<LoadedDataFile>> file =
      open_data_file(ByteSpan(bytes.data(), bytes.size()));
  if (!file.ok()) {
    return add_context(file.error(), "data file %zu", data_files_.size());
  }
  data_bytes_.push_back(std::move(bytes));
  data_files_.push_back(file.take());
  data_map_ptrs_.push_back(&data_files_.back()->data());
  external_data_ = NamedDataMapChain(data_map_ptrs_.data(), data_map_ptrs_.size());
  return Error::Ok;
}

Error HostModel::load(OwnedBytes bytes, const HostOptions& options) {
  TRI_CHECK(!loaded(), Error::InvalidState, "a program is already loaded");
  TRI_CHECK(bytes.data() != nullptr, Error::MemoryAllocationFailed,
            "no memory for the program file");
  options_ = options;
  OpenOptions open_options;
  open_options.max_planned_bytes = options.max_planned_bytes;
  open_options.max_instructions_per_run = options.max_instructions_per_run;
  open_options.plan_by_lifetimes = options.memory_plan != MemoryPlanChoice::File;
  open_options.plan_per_shape = options.memory_plan == MemoryPlanChoice::PerShape;
  open_options.source_name = options_.source_name.c_str();
  Result<std::unique_ptr<LoadedFile>> file =
      open_file(ByteSpan(bytes.data(), bytes.size()), open_options);
  if (!file.ok()) return file.error();
  if ((*file)->program() == nullptr) {
    // A format of dataflow functions: it has checked its kernels at open and
    // owns its memory.
    functions_ = (*file)->functions();
    TRI_CHECK(functions_ != nullptr, Error::Internal, "the %s file has neither methods nor functions",
              (*file)->format());
    function_states_.clear();
    for (size_t m = 0; m < functions_->method_names().size(); ++m) {
      function_states_.push_back(std::make_unique<FunctionState>());
    }
    file_ = file.take();
    bytes_ = std::move(bytes);
    return Error::Ok;
  }
  const Program& program = *(*file)->program();
  // A program this build cannot run fails here, at load, naming the missing
  // operators or backends, rather than at its first run.
  for (size_t m = 0; m < program.num_methods(); ++m) {
    TRI_TRY(program.check_dependencies(m));
  }
  file_ = file.take();
  program_ = file_->program();
  // Every method is prepared now (memory plan, constants, external data,
  // delegates), so whatever would stop a run is reported by load().
  Error err = size_memory();
  methods_.clear();
  methods_.resize(program_->num_methods());
  for (size_t m = 0; err == Error::Ok && m < program_->num_methods(); ++m) {
    Result<MethodState*> state = method_state(m);
    if (!state.ok()) err = state.error();
  }
  if (err != Error::Ok) {
    methods_.clear();
    program_ = nullptr;
    file_.reset();
    return err;
  }
  bytes_ = std::move(bytes);
  release_packed_sources();
  return Error::Ok;
}

void HostModel::release_packed_sources() {
  if (options_.keep_file_bytes || program_ == nullptr) return;
  // resetState() loads a method whose planned memory starts with data again,
  // and a replan loads every method again: both init delegates anew.
  for (size_t m = 0; m < program_->num_methods(); ++m) {
    if (program_->planned_initial_data(m) || program_->may_replan(m)) return;
  }
  const size_t keep = file_->bytes_needed_after_init();
  if (keep >= bytes_.size()) return;
  std::vector<const DelegateInstance*> delegates;
  for (const std::unique_ptr<MethodState>& state : methods_) {
    if (state == nullptr || !state->ready) return;
    for (const DelegateInstance& d : state->method.delegates()) delegates.push_back(&d);
  }
  const size_t before = bytes_.size();
  if (!bytes_.shrink(keep)) return;
  released_file_bytes_ = before - keep;
  for (const DelegateInstance* d : delegates) {
    if (d->backend != nullptr && d->handle != nullptr) d->backend->forget_sources(d->handle);
  }
}

namespace {

nlohmann::json delegate_value_json(const DelegateValueInfo& v) {
  return {{"dtype", v.dtype},
          {"shape", std::vector<int32_t>(v.dims, v.dims + v.rank)}};
}

// Each delegate instance: its backend and, where the backend describes
// them, its nodes and how many of each type.
nlohmann::json delegates_json(const Method& method) {
  nlohmann::json out = nlohmann::json::array();
  for (const DelegateInstance& d : method.delegates()) {
    nlohmann::json nodes = nlohmann::json::array();
    nlohmann::json counts = nlohmann::json::object();
    const size_t n = d.backend ? d.backend->num_nodes(d.handle) : 0;
    for (size_t i = 0; i < n; ++i) {
      Result<DelegateNodeInfo> info = d.backend->node_info(d.handle, i);
      if (!info.ok()) break;
      nlohmann::json inputs = nlohmann::json::array();
      for (int k = 0; k < info->num_inputs; ++k) inputs.push_back(delegate_value_json(info->inputs[k]));
      nlohmann::json outputs = nlohmann::json::array();
      for (int k = 0; k < info->num_outputs; ++k) outputs.push_back(delegate_value_json(info->outputs[k]));
      nodes.push_back({{"type", info->type}, {"inputs", std::move(inputs)}, {"outputs", std::move(outputs)}});
      counts[info->type] = counts.value(info->type, 0) + 1;
    }
    out.push_back({{"backend", d.backend_id ? d.backend_id : ""},
                   {"nodeCounts", std::move(counts)},
                   {"nodes", std::move(nodes)}});
  }
  return out;
}

}  // namespace

std::string HostModel::describe_json() const {
  if (functions_ != nullptr) return functions_->describe_json();
  nlohmann::json methods = nlohmann::json::array();
  for (size_t m = 0; program_ != nullptr && m < program_->num_methods(); ++m) {
    nlohmann::json method;
    method["name"] = program_->method_name(m);
    nlohmann::json inputs = nlohmann::json::array();
    for (size_t i = 0; i < program_->num_inputs(m); ++i) {
      Result<ValueInfo> info = program_->input_info(m, i);
      inputs.push_back(info.ok() ? value_info_json(*info)
                                 : nlohmann::json{{"kind", "Invalid"},
                                                  {"error", last_error_message()}});
    }
    nlohmann::json outputs = nlohmann::json::array();
    for (size_t i = 0; i < program_->num_outputs(m); ++i) {
      Result<ValueInfo> info = program_->output_info(m, i);
      outputs.push_back(info.ok() ? value_info_json(*info)
                                  : nlohmann::json{{"kind", "Invalid"},
                                                   {"error", last_error_message()}});
    }
    uint64_t planned = 0;
    for (size_t b = 0; b < program_->num_planned_buffers(m); ++b) {
      Result<size_t> size = program_->planned_buffer_size(m, b);
      planned += size.ok() ? *size : 0;
    }
    method["inputs"] = std::move(inputs);
    method["outputs"] = std::move(outputs);
    if (m < methods_.size() && methods_[m] != nullptr && methods_[m]->ready) {
      method["delegates"] = delegates_json(methods_[m]->method);
    }
    method["instructions"] = program_->num_instructions(m);
    method["plannedBytes"] = planned;
    method["memoryPlan"] = program_->memory_plan(m);
    nlohmann::json mutated = nlohmann::json::array();
    for (size_t i = 0; i < program_->num_inputs(m); ++i) {
      if (program_->mutates_input(m, i)) mutated.push_back(i);
    }
    if (!mutated.empty()) method["mutatedInputs"] = std::move(mutated);
    // Lifetime-planned formats: the plan against every intermediate apart.
    Result<uint64_t> intermediates = program_->intermediate_bytes(m);
    if (intermediates.ok()) method["intermediateBytes"] = *intermediates;
    methods.push_back(std::move(method));
  }
  return dump_json(nlohmann::json{{"format", format()}, {"methods", std::move(methods)}});
}

std::string HostModel::memory_json() const {
  uint64_t file_bytes = bytes_.size();
  for (const OwnedBytes& data : data_bytes_) file_bytes += data.size();
  uint64_t packed_total = 0;
  uint64_t source_total = 0;
  nlohmann::json methods = nlohmann::json::array();
  for (size_t m = 0; program_ != nullptr && m < program_->num_methods(); ++m) {
    const MethodState* state = m < methods_.size() ? methods_[m].get() : nullptr;
    const bool loaded = state != nullptr && state->ready;
    uint64_t planned = 0;
    if (loaded) {
      for (const AlignedBuffer& buffer : state->planned) planned += buffer.size();
      planned += state->per_shape.capacity();
    }
    nlohmann::json method{{"name", program_->method_name(m)},
                          {"memoryPlan", program_->memory_plan(m)},
                          {"loaded", loaded},
                          {"methodBytes", loaded ? state->method_arena.size() : 0},
                          {"plannedBytes", planned}};
    if (loaded && state->method.plans_per_shape()) {
      method["peakBytes"] = state->per_shape.peak_bytes();
      method["scratchBytes"] = state->per_shape.scratch_bytes();
    }
    uint64_t packed = 0;
    uint64_t source = 0;
    for (size_t d = 0; loaded && d < state->method.delegates().size(); ++d) {
      const DelegateInstance& delegate = state->method.delegates()[d];
      if (delegate.backend == nullptr || delegate.handle == nullptr) continue;
      const DelegateWeightInfo weights = delegate.backend->weight_info(delegate.handle);
      packed += weights.packed_bytes;
      source += weights.source_bytes;
    }
    method["packedWeightBytes"] = packed;
    method["packedFromBytes"] = source;
    packed_total += packed;
    source_total += source;
    methods.push_back(std::move(method));
  }
  return dump_json(nlohmann::json{{"fileBytes", file_bytes},
                                  {"fileBytesReleased", released_file_bytes_},
                                  {"scratchBytes", temp_arena_.size()},
                                  {"packedWeightBytes", packed_total},
                                  {"packedFromBytes", source_total},
                                  {"methods", std::move(methods)}});
}

// Asks every method what it needs (its kernels' scratch, and delegates
// plan their graphs here), then allocates the scratch arena the methods
// share: the largest need, and at least options_.temp_bytes.
Error HostModel::size_memory() {
  needs_.assign(program_->num_methods(), MethodMemoryNeeds());
  size_t temp_bytes = options_.temp_bytes;
  for (size_t m = 0; m < program_->num_methods(); ++m) {
    TRI_TRY(size_method_memory(m));
    temp_bytes = needs_[m].temp_bytes > temp_bytes ? needs_[m].temp_bytes : temp_bytes;
  }
  TRI_CHECK(temp_bytes <= options_.max_planned_bytes, Error::LimitExceeded,
            "the program needs %zu bytes of scratch memory, more than the %llu allowed "
            "(maxPlannedBytes)",
            temp_bytes, static_cast<unsigned long long>(options_.max_planned_bytes));
  TRI_CHECK(temp_arena_.allocate(temp_bytes), Error::MemoryAllocationFailed,
            "cannot allocate %zu bytes of scratch memory", temp_bytes);
  return Error::Ok;
}

// What method `m` needs (needs_[m]), by a trial build. Its bookkeeping
// buffer grows until the method fits, and so does the scratch delegates plan
// their graphs in, both up to the same cap as the memory plan. The scratch
// that planning took counts in the method's scratch need: init plans again.
Error HostModel::size_method_memory(size_t m) {
  AlignedBuffer trial_buffer;
  AlignedBuffer scratch_buffer;
  size_t trial_bytes = size_t{1} << 18;
  size_t scratch_bytes = size_t{1} << 16;
  const MethodLoadOptions load_options = method_load_options();
  for (;;) {
    if (trial_buffer.size() < trial_bytes) {
      TRI_CHECK(trial_buffer.allocate(trial_bytes), Error::MemoryAllocationFailed,
                "cannot allocate %zu bytes to size method '%s'", trial_bytes,
                program_->method_name(m));
    }
    if (scratch_buffer.size() < scratch_bytes) {
      TRI_CHECK(scratch_buffer.allocate(scratch_bytes), Error::MemoryAllocationFailed,
                "cannot allocate %zu bytes of scratch to size method '%s'", scratch_bytes,
                program_->method_name(m));
    }
    MemoryAllocator trial(trial_buffer.data(), trial_buffer.size());
    MemoryAllocator scratch(scratch_buffer.data(), scratch_buffer.size());
    Result<MethodMemoryNeeds> needs = program_->memory_needs(m, trial, scratch, load_options);
    if (needs.ok()) {
      needs_[m] = *needs;
      if (scratch.peak() > 0 && scratch_bytes > needs_[m].temp_bytes) {
        needs_[m].temp_bytes = scratch_bytes;
      }
      return Error::Ok;
    }
    if (trial.exhausted()) {
      TRI_CHECK(trial_bytes <= options_.max_planned_bytes / 2, Error::LimitExceeded,
                "method '%s' needs more than %zu bytes for its value table and instructions, "
                "over the limit of %llu (maxPlannedBytes)",
                program_->method_name(m), trial_bytes,
                static_cast<unsigned long long>(options_.max_planned_bytes));
      trial_bytes *= 2;
      continue;
    }
    // A delegate that could not plan its graph in the scratch it was given.
    if (needs.error() != Error::MemoryAllocationFailed ||
        scratch_bytes > options_.max_planned_bytes / 2) {
      return needs.error();
    }
    scratch_bytes *= 2;
  }
}

MethodLoadOptions HostModel::method_load_options() const {
  MethodLoadOptions options;
  options.external_data = data_files_.empty() ? nullptr : &external_data_;
  options.optimize = options_.optimize;
  options.max_tensor_elements = options_.max_tensor_elements;
  return options;
}

size_t HostModel::num_methods() const {
  if (functions_ != nullptr) return functions_->method_names().size();
  return program_ != nullptr ? program_->num_methods() : 0;
}

Result<size_t> HostModel::method_index(const std::string& name) const {
  TRI_CHECK(loaded(), Error::InvalidState, "no program is loaded");
  if (functions_ == nullptr) return program_->method_index(name.c_str());
  const std::vector<std::string>& names = functions_->method_names();
  std::string known;
  for (size_t m = 0; m < names.size(); ++m) {
    if (names[m] == name) return m;
    known += (known.empty() ? "'" : ", '") + names[m] + "'";
  }
  return fail(Error::MethodMissing, "no function '%s' in this %s file; it has %s", name.c_str(), format(),
              known.empty() ? "none" : known.c_str());
}

Result<const char*> HostModel::function_name(size_t m) const {
  const std::vector<std::string>& names = functions_->method_names();
  TRI_CHECK(m < names.size(), Error::InvalidArgument, "the %s file has %zu functions; function %zu does not exist",
            format(), names.size(), m);
  return names[m].c_str();
}

Result<std::string> HostModel::graph_json(size_t m) {
  if (functions_ != nullptr) {
    TRI_CHECK(m < functions_->method_names().size(), Error::InvalidArgument,
              "the %s file has %zu functions; function %zu does not exist", format(),
              functions_->method_names().size(), m);
    TRI_ASSIGN_OR_RETURN(const MethodGraph graph, functions_->graph(m));
    return dump_json(host::graph_json(graph));
  }
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(m));
  TRI_ASSIGN_OR_RETURN(const MethodGraph graph, file_->graph(m, &state->method));
  return dump_json(host::graph_json(graph));
}

Result<const std::vector<WeightInfo>*> HostModel::gather_weights() {
  if (weights_gathered_) return &weights_;
  TRI_CHECK(loaded(), Error::InvalidState, "no program is loaded");
  TRI_ASSIGN_OR_RETURN(std::vector<WeightInfo> weights,
                       file_->weights(data_files_.empty() ? nullptr : &external_data_));
  // A delegate's constants are known to its loaded instance (the blob is
  // the backend's own format).
  for (size_t m = 0; program_ != nullptr && m < methods_.size(); ++m) {
    TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(m));
    const Span<const DelegateInstance> delegates = state->method.delegates();
    for (size_t d = 0; d < delegates.size(); ++d) {
      TRI_TRY(delegate_graph(delegates[d], d, &weights).error());
    }
  }
  // The same data reached twice (a delegate's key used by two methods, by
  // two instances) is one weight.
  std::vector<WeightInfo> unique;
  std::set<std::string> seen;
  for (WeightInfo& w : weights) {
    if (seen.insert(w.name).second) unique.push_back(std::move(w));
  }
  weights_ = std::move(unique);
  weights_gathered_ = true;
  return &weights_;
}

Result<std::string> HostModel::weights_json() {
  TRI_ASSIGN_OR_RETURN(const std::vector<WeightInfo>* weights, gather_weights());
  return dump_json(host::weights_json(*weights));
}

Result<const WeightInfo*> HostModel::weight(const std::string& name) {
  TRI_ASSIGN_OR_RETURN(const std::vector<WeightInfo>* weights, gather_weights());
  for (const WeightInfo& w : *weights) {
    if (w.name == name) {
      TRI_CHECK(w.data != nullptr || w.source != "packed", Error::InvalidState,
                "weight '%s' is held only as its delegate packed it: the file's copy was freed "
                "after load (load with keepFileBytes to read it)",
                name.c_str());
      TRI_CHECK(w.data != nullptr, Error::ExternalDataMissing,
                "weight '%s' lives in an external data file (.ptd) that was not attached",
                name.c_str());
      return &w;
    }
  }
  return fail(Error::NotFound, "the program has no weight named '%s' (weights() lists %zu)",
              name.c_str(), weights->size());
}

Result<HostModel::MethodState*> HostModel::method_state(size_t m) {
  TRI_CHECK(program_ != nullptr, Error::InvalidState, "no program is loaded");
  TRI_CHECK(m < methods_.size(), Error::InvalidArgument,
            "the program has %zu methods; method %zu does not exist", methods_.size(), m);
  if (methods_[m] != nullptr) return methods_[m].get();
  const char* name = program_->method_name(m);
  // release_packed_sources() made sure no path gets here after it.
  TRI_CHECK(released_file_bytes_ == 0, Error::Internal,
            "method '%s' cannot be loaded again: its delegates' data was freed after load", name);
  auto state = std::make_unique<MethodState>(options_.max_planned_bytes);
  const size_t arena_bytes = needs_[m].method_bytes;
  TRI_CHECK(state->method_arena.allocate(arena_bytes), Error::MemoryAllocationFailed,
            "method '%s': cannot allocate %zu bytes of method memory", name, arena_bytes);
  // One scratch arena serves every method (size_memory sized it): runs of
  // one model never overlap, and the interpreter resets scratch between
  // instructions.
  const size_t num_planned = program_->num_planned_buffers(m);
  state->planned.resize(num_planned);
  for (size_t b = 0; b < num_planned; ++b) {
    TRI_ASSIGN_OR_RETURN(const size_t size, program_->planned_buffer_size(m, b));
    TRI_CHECK(state->planned[b].allocate(size), Error::MemoryAllocationFailed,
              "method '%s': cannot allocate planned buffer %zu of %zu bytes", name, b, size);
    state->planned_spans.emplace_back(state->planned[b].data(), size);
  }
  state->method_allocator =
      MemoryAllocator(state->method_arena.data(), state->method_arena.size());
  state->temp_allocator =
      MemoryAllocator(temp_arena_.data(), temp_arena_.size());
  state->planned_memory = PlannedMemory(
      Span<Span<uint8_t>>(state->planned_spans.data(), state->planned_spans.size()));
  state->memory.method = &state->method_allocator;
  state->memory.planned = &state->planned_memory;
  state->memory.temp = &state->temp_allocator;
  state->memory.binder = &state->per_shape;
  Result<Method> method = program_->load_method(m, state->memory, method_load_options());
  if (!method.ok()) {
    return method.error();
  }
  state->method = method.take();
  state->ready = true;
  const size_t num_inputs = state->method.num_inputs();
  const size_t num_outputs = state->method.num_outputs();
  state->input_storage.resize(num_inputs);
  state->output_storage.resize(num_outputs);
  state->input_staging.resize(num_inputs);
  state->staged_inputs.assign(num_inputs, nullptr);
  state->output_values.assign(num_outputs, nullptr);
  state->output_data.assign(num_outputs, nullptr);
  methods_[m] = std::move(state);
  return methods_[m].get();
}

Result<uint8_t*> HostModel::prepare_input(size_t m, size_t index, Span<const int32_t> shape) {
  TRI_CHECK(loaded(), Error::InvalidState, "no program is loaded");
  if (functions_ != nullptr) {
    TRI_ASSIGN_OR_RETURN(const char* name, function_name(m));
    return fail(Error::NotSupported,
                "%s: tensor arguments of %s functions are not supported yet; pass scalars", name, format());
  }
  TRI_CHECK(m < methods_.size(), Error::InvalidArgument,
            "the program has %zu methods; method %zu does not exist", methods_.size(), m);
  abandon(m);  // new inputs start a new run
  if (program_->needs_replan(m, index, shape)) {
    TRI_TRY(replan(m, index, shape));
  }
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(m));
  TRI_TRY(program_->check_input_shape(m, index, shape));
  // An input bound to storage here last time takes a new shape unchecked
  // against that storage, which grows below if it must.
  if (index < state->method.num_inputs() && state->method.input(index).is_tensor()) {
    Tensor& previous = state->method.input(index).payload.as_tensor[0];
    if (previous.data() != nullptr && previous.data() == state->input_storage[index].data()) {
      previous.set_data(nullptr, 0);
    }
  }
  TRI_ASSIGN_OR_RETURN(
      Tensor* tensor,
      state->method.prepare_input_tensor(index, Span<const SizesType>(shape.data(), shape.size())));
  if (tensor->data() == nullptr || tensor->capacity_bytes() < tensor->nbytes()) {
    AlignedBuffer& storage = state->input_storage[index];
    // Always a real address, even for zero elements: callers treat 0 as an
    // error.
    if (storage.data() == nullptr || storage.size() < tensor->nbytes()) {
      TRI_CHECK(storage.allocate(tensor->nbytes()), Error::MemoryAllocationFailed,
                "cannot allocate %zu bytes for input %zu", tensor->nbytes(),
                index);
    }
    tensor->set_data(storage.data(), storage.size());
  }
  if (tensor->is_contiguous()) {
    state->staged_inputs[index] = nullptr;
    return static_cast<uint8_t*>(tensor->mutable_data());
  }
  // Callers write row-major bytes; execute() stores them in dim order.
  AlignedBuffer& staging = state->input_staging[index];
  if (staging.data() == nullptr || staging.size() < tensor->nbytes()) {
    TRI_CHECK(staging.allocate(tensor->nbytes()), Error::MemoryAllocationFailed,
              "cannot allocate %zu bytes for input %zu", tensor->nbytes(), index);
  }
  state->staged_inputs[index] = tensor;
  return staging.data();
}

// Input `index` outgrew an unbounded dimension: the program plans again and
// the method is rebuilt on the new plan. Inputs already written for this run
// are carried over; the scratch arena grows if the new plan needs more.
Error HostModel::replan(size_t m, size_t index, Span<const int32_t> shape) {
  struct SavedInput {
    size_t index;
    EValue scalar;  // Int, Double or Bool inputs
    std::vector<int32_t> shape;
    std::vector<uint8_t> bytes;
  };
  std::vector<SavedInput> saved;
  if (methods_[m] != nullptr) {
    MethodState& old = *methods_[m];
    for (size_t i = 0; i < old.method.num_inputs(); ++i) {
      const EValue& value = old.method.input(i);
      if (i == index) continue;
      if (value.tag == Tag::Int || value.tag == Tag::Double || value.tag == Tag::Bool) {
        saved.push_back(SavedInput{i, value, {}, {}});
        continue;
      }
      if (value.tag != Tag::Tensor || value.to_tensor().data() == nullptr) continue;
      const Tensor& t = value.to_tensor();
      SavedInput s{i, EValue(), std::vector<int32_t>(t.sizes().begin(), t.sizes().end()), {}};
      // Staged inputs hold their row-major bytes in staging until execute().
      const uint8_t* bytes = old.staged_inputs[i] != nullptr ? old.input_staging[i].data()
                                                            : static_cast<const uint8_t*>(t.data());
      s.bytes.assign(bytes, bytes + t.nbytes());
      saved.push_back(std::move(s));
    }
    methods_[m].reset();  // destroys the Method before its plan goes
  }
  TRI_TRY(program_->replan(m, index, shape));
  TRI_TRY(size_method_memory(m));
  TRI_CHECK(needs_[m].temp_bytes <= options_.max_planned_bytes, Error::LimitExceeded,
            "method '%s' needs %zu bytes of scratch memory at the new shape, more than the "
            "%llu allowed (maxPlannedBytes)",
            program_->method_name(m), needs_[m].temp_bytes,
            static_cast<unsigned long long>(options_.max_planned_bytes));
  if (needs_[m].temp_bytes > temp_arena_.size()) {
    // Every method's scratch is this one arena: rebuild them all on the new one.
    for (std::unique_ptr<MethodState>& state : methods_) state.reset();
    TRI_CHECK(temp_arena_.allocate(needs_[m].temp_bytes), Error::MemoryAllocationFailed,
              "cannot allocate %zu bytes of scratch memory", needs_[m].temp_bytes);
  }
  for (const SavedInput& s : saved) {
    if (s.scalar.tag != Tag::None) {
      TRI_TRY(set_input_scalar(m, s.index, s.scalar));
      continue;
    }
    TRI_ASSIGN_OR_RETURN(uint8_t* dst,
                         prepare_input(m, s.index, Span<const int32_t>(s.shape.data(), s.shape.size())));
    memcpy(dst, s.bytes.data(), s.bytes.size());
  }
  return Error::Ok;
}

Error HostModel::set_input_scalar(size_t m, size_t index, const EValue& value) {
  TRI_CHECK(loaded(), Error::InvalidState, "no program is loaded");
  if (functions_ != nullptr) {
    TRI_ASSIGN_OR_RETURN(const char* name, function_name(m));
    return functions_->set_input_scalar(name, index, value);
  }
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(m));
  state->method.abandon();  // new inputs start a new run
  return state->method.set_input_scalar(index, value);
}

Error HostModel::execute(size_t m, bool profile, uint64_t slice_ns, bool* finished) {
  if (finished != nullptr) *finished = false;
  TRI_CHECK(loaded(), Error::InvalidState, "no program is loaded");
  // The limit is process-wide; models with different limits take turns on
  // one thread, so setting it per run is enough.
  set_parallel_thread_limit(options_.threads);
  if (functions_ != nullptr) {
    TRI_ASSIGN_OR_RETURN(const char* name, function_name(m));
    TRI_CHECK(!profile, Error::NotSupported,
              "%s: profiling %s functions is not supported", name, format());
    // Dataflow functions run whole: their executor has no place to stop.
    TRI_TRY(functions_->execute(name));
    if (finished != nullptr) *finished = true;
    return Error::Ok;
  }
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(m));
  for (size_t i = 0; i < state->staged_inputs.size(); ++i) {
    if (state->staged_inputs[i] != nullptr) {
      copy_from_row_major(state->input_staging[i].data(), *state->staged_inputs[i]);
    }
  }
  ExecuteOptions& execute_options = state->run_options;
  execute_options = ExecuteOptions();
  execute_options.max_instructions = options_.max_instructions_per_run;
  execute_options.slice_ns = slice_ns;
  if (profile) {
    const size_t count = state->method.num_instructions();
    state->timings.assign(count, InstructionTiming());
    state->node_timings.resize(count);
    for (size_t pc = 0; pc < count; ++pc) {
      state->node_timings[pc].assign(state->method.delegate_num_nodes(pc), 0);
      if (!state->node_timings[pc].empty()) {
        state->timings[pc].node_nanoseconds = state->node_timings[pc].data();
        state->timings[pc].num_nodes = state->node_timings[pc].size();
      }
    }
    execute_options.timings = {state->timings.data(), state->timings.size()};
  }
  return state->method.execute(execute_options, finished);
}

Error HostModel::resume(size_t m, uint64_t slice_ns, bool* finished) {
  if (finished != nullptr) *finished = false;
  TRI_CHECK(loaded() && functions_ == nullptr && m < methods_.size() && methods_[m] != nullptr,
            Error::InvalidState, "method %zu has no suspended run to resume", m);
  set_parallel_thread_limit(options_.threads);
  MethodState& state = *methods_[m];
  state.run_options.slice_ns = slice_ns;
  return state.method.resume(state.run_options, finished);
}

void HostModel::abandon(size_t m) {
  if (m < methods_.size() && methods_[m] != nullptr) methods_[m]->method.abandon();
}

Result<std::string> HostModel::profile_json(size_t m) {
  TRI_CHECK(functions_ == nullptr, Error::NotSupported,
            "profiling %s functions is not supported", format());
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(m));
  nlohmann::json list = nlohmann::json::array();
  for (size_t pc = 0; pc < state->timings.size(); ++pc) {
    const InstructionTiming& t = state->timings[pc];
    if (t.calls == 0) continue;
    const Method::SourceRange source = state->method.instruction_source(pc);
    list.push_back({{"index", pc},
                    {"name", state->method.instruction_name(pc)},
                    {"source", source.first},
                    {"sourceCount", source.count},
                    {"calls", t.calls},
                    {"ns", t.nanoseconds}});
    if (pc < state->node_timings.size() && !state->node_timings[pc].empty()) {
      list.back()["nodeNs"] = state->node_timings[pc];
    }
  }
  return dump_json(nlohmann::json{{"instructions", std::move(list)}});
}

Result<size_t> HostModel::output_count(size_t m) {
  TRI_CHECK(loaded(), Error::InvalidState, "no program is loaded");
  if (functions_ != nullptr) {
    TRI_ASSIGN_OR_RETURN(const char* name, function_name(m));
    return functions_->output_count(name);
  }
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(m));
  return state->method.num_outputs();
}

Result<const EValue*> HostModel::output(size_t m, size_t index) {
  TRI_CHECK(functions_ == nullptr, Error::NotSupported,
            "%s functions give their outputs as JSON (output_json)", format());
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(m));
  TRI_CHECK(index < state->method.num_outputs(), Error::InvalidArgument,
            "method '%s' has %zu outputs; output %zu does not exist",
            program_->method_name(m), state->method.num_outputs(), index);
  return &state->method.output(index);
}

// Callers read outputs as row-major bytes: an output stored in another dim
// order is copied into that order; nullptr when it already is row-major.
Result<const uint8_t*> HostModel::row_major_output(size_t m, size_t index) {
  TRI_ASSIGN_OR_RETURN(const EValue* value, output(m, index));
  if (!value->is_tensor() || value->to_tensor().is_contiguous()) return nullptr;
  MethodState& state = *methods_[m];
  const Tensor& t = value->to_tensor();
  AlignedBuffer& copy = state.output_storage[index];
  if (copy.data() == nullptr || copy.size() < t.nbytes()) {
    TRI_CHECK(copy.allocate(t.nbytes()), Error::MemoryAllocationFailed,
              "cannot allocate %zu bytes for output %zu", t.nbytes(), index);
  }
  copy_to_row_major(t, copy.data());
  return copy.data();
}

Result<const ValueDescriptor*> HostModel::output_descriptors(size_t m) {
  TRI_CHECK(loaded(), Error::InvalidState, "no program is loaded");
  if (functions_ != nullptr) {
    TRI_ASSIGN_OR_RETURN(const char* name, function_name(m));
    TRI_ASSIGN_OR_RETURN(const size_t count, functions_->output_count(name));
    FunctionState& f = *function_states_[m];
    f.outputs.resize(count);
    for (size_t i = 0; i < count; ++i) {
      TRI_ASSIGN_OR_RETURN(f.outputs[i], functions_->output_json(name, i));
    }
    return f.table.fill_json(f.outputs);
  }
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(m));
  for (size_t i = 0; i < state->output_values.size(); ++i) {
    state->output_values[i] = &state->method.output(i);
    TRI_ASSIGN_OR_RETURN(state->output_data[i], row_major_output(m, i));
  }
  return state->output_table.fill(
      Span<const EValue* const>(state->output_values.data(), state->output_values.size()),
      state->output_data.data());
}

Result<const ValueDescriptor*> HostModel::input_descriptor(size_t m, size_t index) {
  TRI_CHECK(functions_ == nullptr, Error::NotSupported,
            "%s functions do not mutate their inputs", format());
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(m));
  TRI_CHECK(index < state->method.num_inputs(), Error::InvalidArgument,
            "method '%s' has %zu inputs; input %zu does not exist", program_->method_name(m),
            state->method.num_inputs(), index);
  const EValue* value = &state->method.input(index);
  TRI_CHECK(!value->is_tensor() || value->to_tensor().is_contiguous(), Error::NotSupported,
            "method '%s': input %zu is not stored row-major", program_->method_name(m), index);
  return state->input_table.fill(Span<const EValue* const>(&value, 1));
}

Result<std::string> HostModel::output_json(size_t m, size_t index) {
  TRI_CHECK(loaded(), Error::InvalidState, "no program is loaded");
  if (functions_ != nullptr) {
    TRI_ASSIGN_OR_RETURN(const char* name, function_name(m));
    return functions_->output_json(name, index);
  }
  TRI_ASSIGN_OR_RETURN(const EValue* value, output(m, index));
  TRI_ASSIGN_OR_RETURN(const uint8_t* copy, row_major_output(m, index));
  nlohmann::json json = value_json(*value, /*with_pointer=*/true);
  if (copy != nullptr) {
    json["ptr"] = reinterpret_cast<uintptr_t>(copy);
    json["contiguous"] = true;
  }
  return dump_json(json);
}

Result<uint8_t*> HostModel::prepare_input(const std::string& method, size_t index,
                                          const std::vector<int32_t>& shape) {
  TRI_ASSIGN_OR_RETURN(const size_t m, method_index(method));
  return prepare_input(m, index, Span<const int32_t>(shape.data(), shape.size()));
}

Error HostModel::set_input_scalar(const std::string& method, size_t index, const EValue& value) {
  TRI_ASSIGN_OR_RETURN(const size_t m, method_index(method));
  return set_input_scalar(m, index, value);
}

Error HostModel::reset_state() {
  TRI_CHECK(loaded(), Error::InvalidState, "no program is loaded");
  for (size_t m = 0; m < methods_.size(); ++m) {
    if (methods_[m] == nullptr || program_ == nullptr) continue;
    methods_[m]->method.abandon();
    if (program_->planned_initial_data(m)) {
      methods_[m].reset();  // method_state() loads it again, initial data included
      continue;
    }
    for (const Span<uint8_t>& buffer : methods_[m]->planned_spans) {
      std::memset(buffer.data(), 0, buffer.size());
    }
  }
  return Error::Ok;
}

Error HostModel::execute(const std::string& method, bool profile) {
  TRI_ASSIGN_OR_RETURN(const size_t m, method_index(method));
  return execute(m, profile);
}

Result<size_t> HostModel::output_count(const std::string& method) {
  TRI_ASSIGN_OR_RETURN(const size_t m, method_index(method));
  return output_count(m);
}

Result<const EValue*> HostModel::output(const std::string& method, size_t index) {
  TRI_ASSIGN_OR_RETURN(const size_t m, method_index(method));
  return output(m, index);
}

Result<std::string> HostModel::output_json(const std::string& method, size_t index) {
  TRI_ASSIGN_OR_RETURN(const size_t m, method_index(method));
  return output_json(m, index);
}

size_t HostModel::bundled_test_count() const {
  return file_ ? file_->bundled_test_count() : 0;
}

Result<std::string> HostModel::bundled_test_json(size_t index) const {
  TRI_CHECK(file_ != nullptr, Error::InvalidState, "no program is loaded");
  return file_->bundled_test_json(index);
}

Result<std::string> HostModel::sample_inputs_json(const std::string& method) const {
  TRI_CHECK(file_ != nullptr, Error::InvalidState, "no program is loaded");
  if (functions_ != nullptr) {
    return fail(Error::NotFound, "%s files store no sample inputs", format());
  }
  TRI_ASSIGN_OR_RETURN(const size_t index, program_->method_index(method.c_str()));
  return file_->sample_inputs_json(index);
}

}  // namespace tri::host
