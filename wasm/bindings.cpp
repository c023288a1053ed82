// The embind boundary (see README.md in this folder for the contract). Every
// method returns a status or a value and leaves failures in lastError(); no
// C++ exception ever crosses into JavaScript.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstddef>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cpp/host/format_registry.h"
#include "cpp/host/host_model.h"
#include "cpp/host/thread_pool.h"
#include "cpp/host/value_descriptor.h"
#include "cpp/host/value_json.h"
#include "cpp/custom/register_custom_kernels.h"
#include "cpp/delegates/register_delegates.h"
#include "cpp/kernels/register_kernels.h"
#include "cpp/kernels/util/simd.h"
#include "cpp/runtime/platform/platform.h"
#include "wasm/heap_counter.h"
#include "wasm/js_kernels.h"

namespace tri::wasm {
namespace {

void release_malloc_block(uint8_t* p) { std::free(p); }

}  // namespace
}  // namespace tri::wasm

// dlmalloc's (Emscripten's malloc): resizes a block only where it lies.
extern "C" void* realloc_in_place(void* p, size_t size);

namespace tri::wasm {
namespace {

// A program's block gives its tail back to the heap once its delegates have
// packed what they read there (HostModel::release_packed_sources); the
// program points into the rest, which must not move.
bool shrink_malloc_block(uint8_t* p, size_t size) {
  return realloc_in_place(p, size > 0 ? size : 1) == p;
}

bool ensure_kernels_registered() {
  static const bool ok = register_portable_kernels() == Error::Ok &&
                         register_custom_kernels() == Error::Ok &&
                         register_builtin_backends() == Error::Ok;
  return ok;
}

class NativeProgram {
 public:
  NativeProgram() { ensure_kernels_registered(); }

  int addDataFile(uintptr_t ptr, size_t len) {
    return finish(model_.add_data_file(
        host::OwnedBytes(reinterpret_cast<uint8_t*>(ptr), len, release_malloc_block)));
  }

  // memory_plan: host::MemoryPlanChoice's value; threads: the model's
  // numThreads (0: all), which decides the Auto plan.
  // Limits of 0 keep the runtime's defaults (host::HostOptions).
  int load(uintptr_t ptr, size_t len, double max_planned_bytes, double max_tensor_elements,
           double max_instructions_per_run, bool optimize, int memory_plan, int threads,
           bool keep_file_bytes, const std::string& source_name) {
    host::HostOptions options;
    options.source_name = source_name;
    options.optimize = optimize;
    options.keep_file_bytes = keep_file_bytes;
    if (memory_plan < 0 || memory_plan > static_cast<int>(host::MemoryPlanChoice::PerShape)) {
      return finish(fail(Error::InvalidArgument,
                         "memory plan %d is not 0 (auto), 1 (file), 2 (lifetimes) or 3 (per-shape)", memory_plan));
    }
    options.memory_plan = static_cast<host::MemoryPlanChoice>(memory_plan);
    options.threads = threads > 0 ? static_cast<uint32_t>(threads) : 0;
    if (max_planned_bytes > 0) {
      options.max_planned_bytes = static_cast<uint64_t>(max_planned_bytes);
    }
    if (max_tensor_elements > 0) {
      options.max_tensor_elements = static_cast<uint64_t>(max_tensor_elements);
    }
    if (max_instructions_per_run > 0) {
      options.max_instructions_per_run = static_cast<uint64_t>(max_instructions_per_run);
    }
    return finish(model_.load(
        host::OwnedBytes(reinterpret_cast<uint8_t*>(ptr), len, release_malloc_block,
                         shrink_malloc_block),
        options));
  }

  std::string format() const { return model_.format(); }
  std::string describe() const { return model_.describe_json(); }

  // The run path addresses methods by index (describe()'s order) and takes
  // and returns plain numbers, so a run allocates nothing in the heap: no
  // strings, no JSON, no vectors cross this boundary.

  // Where JS writes an input's sizes before prepareInput (int32[16]).
  double shapeAddress() { return static_cast<double>(reinterpret_cast<uintptr_t>(shape_)); }

  // Resizes tensor input `index` to the `rank` sizes at shapeAddress() and
  // returns where its bytes go: the data address, or 0 with lastError() set.
  double prepareInput(size_t method, size_t index, size_t rank) {
    if (rank > kTensorDimLimit) {
      finish(fail(Error::InvalidArgument, "input %zu: rank %zu is over the limit of %zu", index, rank,
                  kTensorDimLimit));
      return 0;
    }
    return address_or_zero(model_.prepare_input(method, index, Span<const int32_t>(shape_, rank)));
  }

  // An Int from its two 32-bit halves, so every int64 survives.
  int setInputInt(size_t method, size_t index, uint32_t low, int32_t high) {
    const int64_t v = static_cast<int64_t>((static_cast<uint64_t>(static_cast<uint32_t>(high)) << 32) | low);
    return finish(model_.set_input_scalar(method, index, EValue::from_int(v)));
  }
  int setInputDouble(size_t method, size_t index, double value) {
    return finish(model_.set_input_scalar(method, index, EValue::from_double(value)));
  }
  int setInputBool(size_t method, size_t index, bool value) {
    return finish(model_.set_input_scalar(method, index, EValue::from_bool(value)));
  }

  // Threads this model's runs may use (0: all the pool has).
  void setThreads(unsigned threads) { model_.set_threads(threads); }

  int execute(size_t method, bool profile) { return finish(model_.execute(method, profile)); }

  // A cancellable run, in slices of about sliceMs: 0 when it has finished,
  // kSuspended when it stopped between two instructions (resumeSlice goes on,
  // abandon drops it), else the error's code.
  static constexpr int kSuspended = -1;
  int executeSlice(size_t method, bool profile, double sliceMs) {
    bool finished = false;
    const int code = finish(model_.execute(method, profile, slice_ns(sliceMs), &finished));
    return code == 0 && !finished ? kSuspended : code;
  }
  int resumeSlice(size_t method, double sliceMs) {
    bool finished = false;
    const int code = finish(model_.resume(method, slice_ns(sliceMs), &finished));
    return code == 0 && !finished ? kSuspended : code;
  }
  void abandon(size_t method) { model_.abandon(method); }

  // State kept across runs (KV caches) back to its state after load.
  int resetState() { return finish(model_.reset_state()); }

  // Per-instruction times of the last run executed with profile = true.
  std::string profile(size_t method) { return text_or_empty(model_.profile_json(method)); }

  int outputCount(size_t method) {
    Result<size_t> n = model_.output_count(method);
    if (!n.ok()) {
      record(n.error());
      return -1;
    }
    record(Error::Ok);
    return static_cast<int>(*n);
  }

  // The last run's outputs as outputCount() value records
  // (cpp/host/value_descriptor.h); 0 with lastError() set.
  double outputs(size_t method) { return address_or_zero(model_.output_descriptors(method)); }

  // One input's record, read back after a run (inputs the method mutates).
  double input(size_t method, size_t index) { return address_or_zero(model_.input_descriptor(method, index)); }

  int bundledTestCount() const { return static_cast<int>(model_.bundled_test_count()); }

  std::string bundledTest(size_t index) {
    return text_or_empty(model_.bundled_test_json(index));
  }

  // The example inputs a .pt2 stores for `method` (a JSON array); "" with
  // NotFound when the file has none.
  std::string sampleInputs(const std::string& method) {
    return text_or_empty(model_.sample_inputs_json(method));
  }

  // What the program printed during the runs since the last call. The run
  // path asks printedSize() first: a string return allocates.
  std::string takePrinted() { return model_.take_printed(); }
  double printedSize() const { return static_cast<double>(model_.printed_size()); }

  // Inspection: a method's graph and the weights list (JSON; "" with
  // lastError() set), and where one weight's bytes are:
  // {"dtype","shape","address","nbytes"}, the dtype being what the bytes
  // hold (the list's may name a delegate's quantized kind).
  std::string graph(size_t method) { return text_or_empty(model_.graph_json(method)); }
  std::string weights() { return text_or_empty(model_.weights_json()); }
  // host_model.h's memory_json().
  std::string memory() const { return model_.memory_json(); }
  std::string weight(const std::string& name) {
    Result<const host::WeightInfo*> w = model_.weight(name);
    if (!w.ok()) return text_or_empty(w.error());
    const host::WeightInfo& info = **w;
    std::vector<int64_t> shape = info.shape;
    uint64_t numel = 1;
    for (int64_t d : shape) numel *= static_cast<uint64_t>(d < 0 ? 0 : d);
    // Packed sub-byte kinds (4-bit) are handed over as their bytes.
    if (numel * element_size(info.storage) != info.nbytes) {
      shape = {static_cast<int64_t>(info.nbytes / element_size(info.storage))};
    }
    return text_or_empty(nlohmann::json{{"dtype", scalar_type_numpy_name(info.storage)},
                                        {"shape", shape},
                                        {"address", reinterpret_cast<uintptr_t>(info.data)},
                                        {"nbytes", info.nbytes}}
                             .dump());
  }

  std::string lastError() const { return message_; }
  int lastErrorCode() const { return static_cast<int>(code_); }

 private:
  template <typename T>
  double address_or_zero(Result<T*> result) {
    record(result.ok() ? Error::Ok : result.error());
    return result.ok() ? static_cast<double>(reinterpret_cast<uintptr_t>(*result)) : 0;
  }
  // A JSON answer, or "" with the error recorded for lastError().
  std::string text_or_empty(Result<std::string> json) {
    record(json.ok() ? Error::Ok : json.error());
    return json.ok() ? *json : std::string();
  }
  void record(Error code) {
    code_ = code;
    message_ = code == Error::Ok ? "" : last_error_message();
  }
  static uint64_t slice_ns(double ms) {
    return ms > 0 ? static_cast<uint64_t>(ms * 1e6) + 1 : 1;
  }
  int finish(Error code) {
    record(code);
    return static_cast<int>(code);
  }

  host::HostModel model_;
  int32_t shape_[kTensorDimLimit] = {};
  Error code_ = Error::Ok;
  std::string message_;
};

std::string version() { return TRIDENT_VERSION; }

// The JS layer's only way to tell formats apart (it never sniffs bytes
// itself): {"format":"pte"} or {"error":"...","code":N}. `head` is the file's
// first bytes; embind copies a Uint8Array into the string.
std::string detect_format(const std::string& head) {
  Result<const host::FileFormat*> format = host::detect_format(
      ByteSpan(reinterpret_cast<const uint8_t*>(head.data()), head.size()));
  if (!format.ok()) {
    return host::dump_json(nlohmann::json{{"error", last_error_message()},
                                          {"code", static_cast<int>(format.error())}});
  }
  return nlohmann::json{{"format", (*format)->id}}.dump();
}

// [{"id","description","supported"}] for every format the registry knows.
std::string file_formats() {
  nlohmann::json formats = nlohmann::json::array();
  for (const host::FileFormat& f : host::file_formats()) {
    formats.push_back({{"id", f.id}, {"description", f.description}, {"supported", f.open != nullptr}});
  }
  return host::dump_json(formats);
}

// What js/src/native/value-descriptor.ts needs to read value records: their
// size and field offsets (checked against its own), and the codes of kinds
// and dtypes, so that the numbering lives in C++ only.
std::string value_layout() {
  nlohmann::json kinds = nlohmann::json::object();
  for (int tag = 0; tag <= static_cast<int>(Tag::OptionalTensorList); ++tag) {
    kinds[tag_name(static_cast<Tag>(tag))] = tag;
  }
  kinds["Json"] = host::kJsonValueKind;
  nlohmann::json dtypes = nlohmann::json::object();
  for (int32_t code = 0; code < 64; ++code) {
    if (!is_valid_scalar_type(code)) continue;
    dtypes[scalar_type_numpy_name(static_cast<ScalarType>(code))] = code;
  }
  using host::ValueDescriptor;
  return nlohmann::json{{"size", sizeof(ValueDescriptor)},
                        {"offsets",
                         {{"kind", offsetof(ValueDescriptor, kind)},
                          {"dtype", offsetof(ValueDescriptor, dtype)},
                          {"count", offsetof(ValueDescriptor, count)},
                          {"address", offsetof(ValueDescriptor, address)},
                          {"nbytes", offsetof(ValueDescriptor, nbytes)},
                          {"intValue", offsetof(ValueDescriptor, int_value)},
                          {"doubleValue", offsetof(ValueDescriptor, double_value)},
                          {"sizes", offsetof(ValueDescriptor, sizes)}}},
                        {"maxRank", kTensorDimLimit},
                        {"kinds", std::move(kinds)},
                        {"dtypes", std::move(dtypes)}}
      .dump();
}

unsigned sniff_bytes() { return static_cast<unsigned>(host::kSniffBytes); }

// Starts the kernels' thread pool with `threads` threads, the caller
// included (the first call decides; later calls return the same pool), and
// returns how many it has: 1 in the single-threaded build.
unsigned start_thread_pool(unsigned threads) {
  host::ThreadPool* pool = host::shared_thread_pool(threads);
  return pool == nullptr ? 1 : pool->max_threads();
}

// The built-in kernels go first, so that a JS kernel of the same name
// replaces the built-in one rather than blocking its registration.
int register_js_kernel_after_builtins(const std::string& name, double id, int outs) {
  ensure_kernels_registered();
  return register_js_kernel(name, id, outs);
}

int unregister_js_kernel_after_builtins(const std::string& name) {
  ensure_kernels_registered();
  return unregister_js_kernel(name);
}

bool has_builtin_kernel_after_builtins(const std::string& name) {
  ensure_kernels_registered();
  return has_builtin_kernel(name);
}

}  // namespace
}  // namespace tri::wasm

EMSCRIPTEN_BINDINGS(trident) {
  using tri::wasm::NativeProgram;
  emscripten::function("version", &tri::wasm::version);
  emscripten::function("setSimdEnabled", &tri::set_simd_enabled);
  emscripten::function("registerJsKernel", &tri::wasm::register_js_kernel_after_builtins);
  emscripten::function("unregisterJsKernel", &tri::wasm::unregister_js_kernel_after_builtins);
  emscripten::function("hasBuiltinKernel", &tri::wasm::has_builtin_kernel_after_builtins);
  emscripten::function("simdEnabled", &tri::simd_enabled);
  emscripten::function("detectFormat", &tri::wasm::detect_format);
  emscripten::function("fileFormats", &tri::wasm::file_formats);
  emscripten::function("sniffBytes", &tri::wasm::sniff_bytes);
  emscripten::function("startThreadPool", &tri::wasm::start_thread_pool);
  emscripten::function("valueLayout", &tri::wasm::value_layout);
  emscripten::function("heapAllocations", &tri::wasm::heap_allocations);
  emscripten::function("heapBytes", &tri::wasm::heap_bytes);
  emscripten::function("setMemoryLimit", &tri::wasm::set_memory_limit);
  emscripten::class_<NativeProgram>("NativeProgram")
      .constructor<>()
      .function("addDataFile", &NativeProgram::addDataFile)
      .function("load", &NativeProgram::load)
      .function("format", &NativeProgram::format)
      .function("describe", &NativeProgram::describe)
      .function("shapeAddress", &NativeProgram::shapeAddress)
      .function("prepareInput", &NativeProgram::prepareInput)
      .function("setInputInt", &NativeProgram::setInputInt)
      .function("setInputDouble", &NativeProgram::setInputDouble)
      .function("setInputBool", &NativeProgram::setInputBool)
      .function("setThreads", &NativeProgram::setThreads)
      .function("execute", &NativeProgram::execute)
      .function("executeSlice", &NativeProgram::executeSlice)
      .function("resumeSlice", &NativeProgram::resumeSlice)
      .function("abandon", &NativeProgram::abandon)
      .function("resetState", &NativeProgram::resetState)
      .function("memory", &NativeProgram::memory)
      .function("profile", &NativeProgram::profile)
      .function("outputCount", &NativeProgram::outputCount)
      .function("outputs", &NativeProgram::outputs)
      .function("bundledTestCount", &NativeProgram::bundledTestCount)
      .function("bundledTest", &NativeProgram::bundledTest)
      .function("sampleInputs", &NativeProgram::sampleInputs)
      .function("input", &NativeProgram::input)
      .function("lastError", &NativeProgram::lastError)
      .function("takePrinted", &NativeProgram::takePrinted)
      .function("printedSize", &NativeProgram::printedSize)
      .function("graph", &NativeProgram::graph)
      .function("weights", &NativeProgram::weights)
      .function("weight", &NativeProgram::weight)
      .function("lastErrorCode", &NativeProgram::lastErrorCode);
}
