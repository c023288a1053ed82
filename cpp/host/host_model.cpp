#include "cpp/host/host_model.h"

#include <cstring>

#include <nlohmann/json.hpp>

#include "cpp/host/row_major.h"
#include "cpp/host/value_json.h"
#include "cpp/runtime/platform/parallel.h"

namespace tri::host {

struct HostModel::MethodState {
  AlignedBuffer method_arena;
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
  // Per instruction, of the last run that asked for a profile.
  std::vector<InstructionTiming> timings;

  ~MethodState() {
    if (ready) {
      method.destroy();
    }
  }
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
  Result<std::unique_ptr<LoadedFile>> file =
      open_file(ByteSpan(bytes.data(), bytes.size()), open_options);
  if (!file.ok()) return file.error();
  if ((*file)->program() == nullptr) {
    // A format of dataflow functions: it has checked its kernels at open and
    // owns its memory.
    functions_ = (*file)->functions();
    TRI_CHECK(functions_ != nullptr, Error::Internal, "the %s file has neither methods nor functions",
              (*file)->format());
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
  for (size_t m = 0; err == Error::Ok && m < program_->num_methods(); ++m) {
    Result<MethodState*> state = method_state(program_->method_name(m));
    if (!state.ok()) err = state.error();
  }
  if (err != Error::Ok) {
    methods_.clear();
    program_ = nullptr;
    file_.reset();
    return err;
  }
  bytes_ = std::move(bytes);
  return Error::Ok;
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
    auto state = methods_.find(program_->method_name(m));
    if (state != methods_.end() && state->second->ready) {
      method["delegates"] = delegates_json(state->second->method);
    }
    method["instructions"] = program_->num_instructions(m);
    method["plannedBytes"] = planned;
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
  return nlohmann::json{{"format", format()}, {"methods", std::move(methods)}}.dump();
}

// Asks every method what it needs (delegates plan their graphs here), then
// allocates the scratch arena the methods share: the configured size, or
// more when a delegate's activations need it.
Error HostModel::size_memory() {
  TRI_CHECK(temp_arena_.allocate(options_.temp_bytes), Error::MemoryAllocationFailed,
            "cannot allocate %zu bytes of kernel scratch memory", options_.temp_bytes);
  needs_.assign(program_->num_methods(), MethodMemoryNeeds());
  size_t temp_bytes = options_.temp_bytes;
  for (size_t m = 0; m < program_->num_methods(); ++m) {
    TRI_TRY(size_method_memory(m));
    temp_bytes = needs_[m].temp_bytes > temp_bytes ? needs_[m].temp_bytes : temp_bytes;
  }
  TRI_CHECK(temp_bytes <= options_.max_planned_bytes, Error::LimitExceeded,
            "the program's delegates need %zu bytes of activations, more than the %llu allowed "
            "(maxPlannedBytes)",
            temp_bytes, static_cast<unsigned long long>(options_.max_planned_bytes));
  if (temp_bytes > temp_arena_.size()) {
    TRI_CHECK(temp_arena_.allocate(temp_bytes), Error::MemoryAllocationFailed,
              "cannot allocate %zu bytes of scratch memory (delegate activations)",
              temp_bytes);
  }
  return Error::Ok;
}

// What method `m` needs (needs_[m]), by a trial build whose bookkeeping
// buffer grows until the method fits, up to the same cap as the memory plan.
Error HostModel::size_method_memory(size_t m) {
  AlignedBuffer trial_buffer;
  size_t trial_bytes = size_t{1} << 18;
  const MethodLoadOptions load_options = method_load_options();
  for (;;) {
    if (trial_buffer.size() < trial_bytes) {
      TRI_CHECK(trial_buffer.allocate(trial_bytes), Error::MemoryAllocationFailed,
                "cannot allocate %zu bytes to size method '%s'", trial_bytes,
                program_->method_name(m));
    }
    MemoryAllocator trial(trial_buffer.data(), trial_buffer.size());
    MemoryAllocator scratch(temp_arena_.data(), temp_arena_.size());
    Result<MethodMemoryNeeds> needs = program_->memory_needs(m, trial, scratch, load_options);
    if (needs.ok()) {
      needs_[m] = *needs;
      return Error::Ok;
    }
    if (!trial.exhausted()) return needs.error();
    TRI_CHECK(trial_bytes <= options_.max_planned_bytes / 2, Error::LimitExceeded,
              "method '%s' needs more than %zu bytes for its value table and instructions, "
              "over the limit of %llu (maxPlannedBytes)",
              program_->method_name(m), trial_bytes,
              static_cast<unsigned long long>(options_.max_planned_bytes));
    trial_bytes *= 2;
  }
}

MethodLoadOptions HostModel::method_load_options() const {
  MethodLoadOptions options;
  options.external_data = data_files_.empty() ? nullptr : &external_data_;
  return options;
}

Result<HostModel::MethodState*> HostModel::method_state(const std::string& name) {
  TRI_CHECK(loaded(), Error::InvalidState, "no program is loaded");
  auto found = methods_.find(name);
  if (found != methods_.end()) {
    return found->second.get();
  }
  TRI_ASSIGN_OR_RETURN(const size_t m, program_->method_index(name.c_str()));
  auto state = std::make_unique<MethodState>();
  const size_t arena_bytes = needs_[m].method_bytes;
  TRI_CHECK(state->method_arena.allocate(arena_bytes), Error::MemoryAllocationFailed,
            "method '%s': cannot allocate %zu bytes of method memory",
            name.c_str(), arena_bytes);
  // One scratch arena serves every method (size_memory sized it): runs of
  // one model never overlap, and the interpreter resets scratch between
  // instructions.
  const size_t num_planned = program_->num_planned_buffers(m);
  state->planned.resize(num_planned);
  for (size_t b = 0; b < num_planned; ++b) {
    TRI_ASSIGN_OR_RETURN(const size_t size, program_->planned_buffer_size(m, b));
    TRI_CHECK(state->planned[b].allocate(size), Error::MemoryAllocationFailed,
              "method '%s': cannot allocate planned buffer %zu of %zu bytes",
              name.c_str(), b, size);
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
  Result<Method> method = program_->load_method(m, state->memory, method_load_options());
  if (!method.ok()) {
    return method.error();
  }
  state->method = method.take();
  state->ready = true;
  state->input_storage.resize(state->method.num_inputs());
  state->output_storage.resize(state->method.num_outputs());
  state->input_staging.resize(state->method.num_inputs());
  state->staged_inputs.assign(state->method.num_inputs(), nullptr);
  MethodState* raw = state.get();
  methods_[name] = std::move(state);
  return raw;
}

Result<uint8_t*> HostModel::prepare_input(const std::string& method,
                                          size_t index,
                                          const std::vector<int32_t>& shape) {
  TRI_CHECK(functions_ == nullptr, Error::NotSupported,
            "%s: tensor arguments of %s functions are not supported yet; pass scalars",
            method.c_str(), format());
  TRI_ASSIGN_OR_RETURN(const size_t method_index, program_->method_index(method.c_str()));
  const Span<const int32_t> shape_span(shape.data(), shape.size());
  if (program_->needs_replan(method_index, index, shape_span)) {
    TRI_TRY(replan(method, method_index, index, shape_span));
  }
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(method));
  TRI_TRY(program_->check_input_shape(method_index, index, shape_span));
  TRI_ASSIGN_OR_RETURN(
      Tensor* tensor,
      state->method.prepare_input_tensor(
          index, Span<const SizesType>(shape.data(), shape.size())));
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
Error HostModel::replan(const std::string& method, size_t method_index, size_t index,
                        Span<const int32_t> shape) {
  struct SavedInput {
    size_t index;
    EValue scalar;  // Int, Double or Bool inputs
    std::vector<int32_t> shape;
    std::vector<uint8_t> bytes;
  };
  std::vector<SavedInput> saved;
  auto found = methods_.find(method);
  if (found != methods_.end()) {
    MethodState& old = *found->second;
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
    methods_.erase(found);  // destroys the Method before its plan goes
  }
  TRI_TRY(program_->replan(method_index, index, shape));
  TRI_TRY(size_method_memory(method_index));
  if (needs_[method_index].temp_bytes > temp_arena_.size()) {
    // Every method's scratch is this one arena: rebuild them all on the new one.
    methods_.clear();
    TRI_CHECK(temp_arena_.allocate(needs_[method_index].temp_bytes), Error::MemoryAllocationFailed,
              "cannot allocate %zu bytes of scratch memory", needs_[method_index].temp_bytes);
  }
  for (const SavedInput& s : saved) {
    if (s.scalar.tag != Tag::None) {
      TRI_TRY(set_input_scalar(method, s.index, s.scalar));
      continue;
    }
    TRI_ASSIGN_OR_RETURN(uint8_t* dst, prepare_input(method, s.index, s.shape));
    memcpy(dst, s.bytes.data(), s.bytes.size());
  }
  return Error::Ok;
}

Error HostModel::set_input_scalar(const std::string& method, size_t index,
                                  const EValue& value) {
  if (functions_ != nullptr) return functions_->set_input_scalar(method, index, value);
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(method));
  return state->method.set_input_scalar(index, value);
}

Error HostModel::execute(const std::string& method, bool profile) {
  // The limit is process-wide; models with different limits take turns on
  // one thread, so setting it per run is enough.
  set_parallel_thread_limit(options_.threads);
  if (functions_ != nullptr) {
    TRI_CHECK(!profile, Error::NotSupported,
              "%s: profiling %s functions is not supported", method.c_str(), format());
    return functions_->execute(method);
  }
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(method));
  for (size_t i = 0; i < state->staged_inputs.size(); ++i) {
    if (state->staged_inputs[i] != nullptr) {
      copy_from_row_major(state->input_staging[i].data(), *state->staged_inputs[i]);
    }
  }
  ExecuteOptions execute_options;
  execute_options.max_instructions = options_.max_instructions_per_run;
  if (profile) {
    state->timings.assign(state->method.num_instructions(), InstructionTiming());
    execute_options.timings = {state->timings.data(), state->timings.size()};
  }
  return state->method.execute(execute_options);
}

Result<std::string> HostModel::profile_json(const std::string& method) {
  TRI_CHECK(functions_ == nullptr, Error::NotSupported,
            "%s: profiling %s functions is not supported", method.c_str(), format());
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(method));
  nlohmann::json list = nlohmann::json::array();
  for (size_t pc = 0; pc < state->timings.size(); ++pc) {
    const InstructionTiming& t = state->timings[pc];
    if (t.calls == 0) continue;
    list.push_back({{"index", pc},
                    {"name", state->method.instruction_name(pc)},
                    {"calls", t.calls},
                    {"ns", t.nanoseconds}});
  }
  return nlohmann::json{{"instructions", std::move(list)}}.dump();
}

Result<size_t> HostModel::output_count(const std::string& method) {
  if (functions_ != nullptr) return functions_->output_count(method);
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(method));
  return state->method.num_outputs();
}

Result<const EValue*> HostModel::output(const std::string& method,
                                        size_t index) {
  TRI_CHECK(functions_ == nullptr, Error::NotSupported,
            "%s: %s functions give their outputs as JSON (output_json)", method.c_str(), format());
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(method));
  TRI_CHECK(index < state->method.num_outputs(), Error::InvalidArgument,
            "method '%s' has %zu outputs; output %zu does not exist",
            method.c_str(), state->method.num_outputs(), index);
  return &state->method.output(index);
}


Result<std::string> HostModel::output_json(const std::string& method,
                                           size_t index) {
  if (functions_ != nullptr) return functions_->output_json(method, index);
  TRI_ASSIGN_OR_RETURN(const EValue* value, output(method, index));
  if (!value->is_tensor() || value->to_tensor().is_contiguous()) {
    return value_json(*value, /*with_pointer=*/true).dump();
  }
  // Callers read outputs as row-major bytes, so hand out a copy in that order.
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(method));
  const Tensor& t = value->to_tensor();
  AlignedBuffer& copy = state->output_storage[index];
  if (copy.data() == nullptr || copy.size() < t.nbytes()) {
    TRI_CHECK(copy.allocate(t.nbytes()), Error::MemoryAllocationFailed,
              "cannot allocate %zu bytes for output %zu", t.nbytes(), index);
  }
  copy_to_row_major(t, copy.data());
  nlohmann::json json = value_json(*value, /*with_pointer=*/true);
  json["ptr"] = reinterpret_cast<uintptr_t>(copy.data());
  json["contiguous"] = true;
  return json.dump();
}

Result<std::string> HostModel::input_json(const std::string& method, size_t index) {
  TRI_CHECK(functions_ == nullptr, Error::NotSupported,
            "%s: %s functions do not mutate their inputs", method.c_str(), format());
  TRI_ASSIGN_OR_RETURN(MethodState* state, method_state(method));
  TRI_CHECK(index < state->method.num_inputs(), Error::InvalidArgument,
            "method '%s' has %zu inputs; input %zu does not exist", method.c_str(),
            state->method.num_inputs(), index);
  const EValue& value = state->method.input(index);
  TRI_CHECK(!value.is_tensor() || value.to_tensor().is_contiguous(), Error::NotSupported,
            "method '%s': input %zu is not stored row-major", method.c_str(), index);
  return value_json(value, /*with_pointer=*/true).dump();
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
