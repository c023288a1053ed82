// The host-side session over one loaded file: owns the bytes, the front end's
// program, and per method the memory a run needs (method arena, planned
// buffers, scratch, storage for inputs the plan leaves unplanned). The wasm
// bindings and the native tools are thin wrappers over this class.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cpp/host/format_registry.h"
#include "cpp/host/method_graph.h"
#include "cpp/host/owned_bytes.h"
#include "cpp/host/value_descriptor.h"
#include "cpp/runtime/core/named_data_map.h"
#include "cpp/runtime/executor/method.h"

namespace tri::host {

enum class MemoryPlanChoice : uint8_t { Auto, File, Lifetimes, PerShape };

struct HostOptions {
  // Cap on the memory plan of any method, and on the scratch its delegates
  // need for activations (hostile files ask for anything).
  uint64_t max_planned_bytes = uint64_t{1} << 30;
  // Kernel scratch, shared by the model's methods, is sized at load to the
  // most any instruction or delegate takes; this is a floor on it.
  size_t temp_bytes = 0;
  // Bound on the instructions one run may execute (jumps can loop).
  uint64_t max_instructions_per_run = 100000000;
  // Bound on any one tensor's elements (at its upper bound): a tensor over
  // 2^31 - 1 elements cannot be indexed by 32-bit kernels anyway.
  uint64_t max_tensor_elements = 2147483647;
  // Threads a run may spread its kernels over (parallel.h); 0: all the
  // installed runner has. 1 keeps every kernel on the calling thread.
  uint32_t threads = 0;
  // Run the load-time method passes (operator fusion); false runs the
  // program's instructions as written (MethodLoadOptions::optimize).
  bool optimize = true;
  // Keep the whole file after load. By default the bytes only delegates read
  // at init (weights they packed into their own layout) are freed where the
  // file's owner can shrink it (OwnedBytes::shrink), so weights are held
  // once; weight() cannot read those then.
  bool keep_file_bytes = false;
  // Where a method's memory plan comes from when the file brings one (.pte):
  // Auto and Lifetimes make it again by lifetimes wherever that is safe
  // (pte_lifetime_plan.h says why: views placed over their input, less
  // memory shared across cores), File keeps the file's. Auto re-planned only
  // for runs on more than one thread until views were placed in place; it
  // stays the default's name. PerShape places each run's tensors at the
  // shapes that run has (method.h, LazyTensor) wherever that is safe, and
  // by lifetimes elsewhere; Auto and Lifetimes do that too for a method
  // whose file plan is over max_planned_bytes (a bounded-dynamic method
  // planned at its upper bound).
  MemoryPlanChoice memory_plan = MemoryPlanChoice::Auto;
  // What messages about places in a text file (TFRT MLIR) call it: its
  // path; "" for "<input>.mlir".
  std::string source_name;
};

class HostModel {
 public:
  HostModel();
  ~HostModel();
  HostModel(const HostModel&) = delete;
  HostModel& operator=(const HostModel&) = delete;

  // External data that tensors may reference (a .ptd file); before load().
  Error add_data_file(OwnedBytes bytes);
  Error load(OwnedBytes bytes, const HostOptions& options = HostOptions());

  bool loaded() const { return program_ != nullptr || functions_ != nullptr; }
  // The id of the file's format (format_registry.h), "" before load().
  const char* format() const { return file_ ? file_->format() : ""; }
  // For formats of planned methods only: check functions() == nullptr
  // first (a TFRT file has no Program).
  const Program& program() const { return *program_; }
  // For formats of dataflow functions (BEF): the calls below go there.
  FunctionProgram* functions() const { return functions_; }

  // {"methods":[{"name","inputs","outputs","instructions","plannedBytes",
  //   "intermediateBytes" (lifetime-planned formats only), "mutatedInputs"
  //   (indices of inputs a run writes back into, when any),
  //   "delegates":[{"backend","nodeCounts":{type: n},"nodes":[{"type",
  //   "inputs":[{"dtype","shape"}],"outputs":[...]}]}]}]}
  std::string describe_json() const;

  // What the model holds now: {"fileBytes" (the program and data files
  // kept), "scratchBytes" (kernel and delegate scratch, shared),
  // "methods":[{"name","memoryPlan","loaded","methodBytes" (value table,
  // instructions, delegate state),"plannedBytes" (planned buffers, or the
  // per-shape arena),"peakBytes" and "scratchBytes" (per-shape only: the
  // most this method's runs have placed at once, and the kernel scratch
  // they have needed)}]}.
  std::string memory_json() const;

  // Methods are addressed by index on the run path (describe_json's order);
  // the name-based calls below resolve the name first, for native callers.
  Result<size_t> method_index(const std::string& name) const;
  size_t num_methods() const;

  // Resizes tensor input `index` and returns where its bytes go.
  Result<uint8_t*> prepare_input(size_t method, size_t index, Span<const int32_t> shape);
  Error set_input_scalar(size_t method, size_t index, const EValue& value);
  // Changes HostOptions::threads for later runs.
  void set_threads(uint32_t threads) { options_.threads = threads; }
  uint32_t threads() const { return options_.threads; }
  // profile: time each instruction of this run (profile_json reads it).
  // slice_ns (ExecuteOptions::slice_ns): nonzero may return with the run
  // suspended between instructions, *finished false; resume() goes on with
  // it, and writing an input, or reset_state(), abandons it. Dataflow
  // functions always run whole.
  Error execute(size_t method, bool profile = false, uint64_t slice_ns = 0,
                bool* finished = nullptr);
  Error resume(size_t method, uint64_t slice_ns, bool* finished);
  void abandon(size_t method);
  // Puts every loaded method's state back as it was after load: state kept
  // in planned memory across runs (an LLM's KV caches, a training program's
  // parameters). Zeroes the planned buffers, or loads the method again on
  // its next run when its planned memory starts with data of its own.
  Error reset_state();
  // The last profiled run of `method`: {"instructions":[{"index","name",
  // "source","sourceCount","calls","ns"[,"nodeNs"]}]} for each instruction it
  // ran, in program order; source/sourceCount: the file's instructions it
  // runs; nodeNs: a delegate's time per node (its graph's order).
  Result<std::string> profile_json(size_t method);
  Result<size_t> output_count(size_t method);
  // The output value; valid until the next call on this method.
  Result<const EValue*> output(size_t method, size_t index);
  // Every output of the last run as binary records (value_descriptor.h),
  // tensors row-major; valid until the next call on this method. After the
  // first run of a method this allocates nothing. Formats of dataflow
  // functions give one JSON record per output (output_json's text).
  Result<const ValueDescriptor*> output_descriptors(size_t method);
  // An input read back after a run (one the method mutates in place).
  Result<const ValueDescriptor*> input_descriptor(size_t method, size_t index);
  // One output as JSON: tensors as {"kind","dtype","shape","ptr","nbytes"}.
  Result<std::string> output_json(size_t method, size_t index);

  Result<uint8_t*> prepare_input(const std::string& method, size_t index,
                                 const std::vector<int32_t>& shape);
  Error set_input_scalar(const std::string& method, size_t index, const EValue& value);
  Error execute(const std::string& method, bool profile = false);
  Result<size_t> output_count(const std::string& method);
  Result<const EValue*> output(const std::string& method, size_t index);
  Result<std::string> output_json(const std::string& method, size_t index);

  // Inspection: method `method`'s graph (graph_json's form), and the
  // program's constant tensors, its delegates' included (weights_json's
  // form); weight() finds one by name, its data valid while the model is.
  Result<std::string> graph_json(size_t method);
  Result<std::string> weights_json();
  Result<const WeightInfo*> weight(const std::string& name);

  size_t bundled_test_count() const;
  Result<std::string> bundled_test_json(size_t index) const;
  // The example inputs the file stores for `method` (JSON array), if any.
  Result<std::string> sample_inputs_json(const std::string& method) const;
  // What the program printed since the last call (TFRT's tfrt.print.*
  // kernels); "" for formats that cannot print.
  std::string take_printed() { return functions_ == nullptr ? std::string() : functions_->take_printed(); }
  size_t printed_size() const { return functions_ == nullptr ? 0 : functions_->printed_size(); }

 private:
  struct MethodState;
  struct FunctionState;
  Result<MethodState*> method_state(size_t method);
  Result<const char*> function_name(size_t method) const;
  Result<const uint8_t*> row_major_output(size_t method, size_t index);
  Error size_memory();
  // After load: frees the file's tail that only delegates read at init, when
  // no method can be loaded again (which would init its delegates again).
  void release_packed_sources();
  Error size_method_memory(size_t method);
  Error replan(size_t method, size_t index, Span<const int32_t> shape);
  MethodLoadOptions method_load_options() const;

  std::vector<OwnedBytes> data_bytes_;
  std::vector<std::unique_ptr<LoadedDataFile>> data_files_;
  std::vector<const NamedDataMap*> data_map_ptrs_;
  NamedDataMapChain external_data_;
  OwnedBytes bytes_;
  // Bytes of the file freed after load (release_packed_sources).
  size_t released_file_bytes_ = 0;
  HostOptions options_;
  std::unique_ptr<LoadedFile> file_;
  Program* program_ = nullptr;
  FunctionProgram* functions_ = nullptr;
  AlignedBuffer temp_arena_;
  std::vector<MethodMemoryNeeds> needs_;
  // By method index; built at load, rebuilt when a replan needs more memory.
  std::vector<std::unique_ptr<MethodState>> methods_;
  std::vector<std::unique_ptr<FunctionState>> function_states_;
  // weights(), gathered at its first call.
  Result<const std::vector<WeightInfo>*> gather_weights();
  std::vector<WeightInfo> weights_;
  bool weights_gathered_ = false;
};

}  // namespace tri::host
