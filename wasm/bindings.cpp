// The embind boundary (see README.md in this folder for the contract). Every
// method returns a status or a value and leaves failures in lastError(); no
// C++ exception ever crosses into JavaScript.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cpp/host/format_registry.h"
#include "cpp/host/host_model.h"
#include "cpp/host/thread_pool.h"
#include "cpp/custom/register_custom_kernels.h"
#include "cpp/delegates/register_delegates.h"
#include "cpp/kernels/register_kernels.h"
#include "cpp/kernels/util/simd.h"
#include "cpp/runtime/platform/platform.h"
#include "wasm/js_kernels.h"

namespace tri::wasm {
namespace {

void release_malloc_block(uint8_t* p) { std::free(p); }

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

  int load(uintptr_t ptr, size_t len, double max_planned_bytes) {
    host::HostOptions options;
    if (max_planned_bytes > 0) {
      options.max_planned_bytes = static_cast<uint64_t>(max_planned_bytes);
    }
    return finish(model_.load(
        host::OwnedBytes(reinterpret_cast<uint8_t*>(ptr), len, release_malloc_block),
        options));
  }

  std::string format() const { return model_.format(); }
  std::string describe() const { return model_.describe_json(); }

  // Returns the data address, or 0 with lastError() set.
  double prepareInput(const std::string& method, size_t index,
                      const emscripten::val& shape) {
    const std::vector<int32_t> sizes =
        emscripten::vecFromJSArray<int32_t>(shape);
    Result<uint8_t*> ptr = model_.prepare_input(method, index, sizes);
    if (!ptr.ok()) {
      record(ptr.error());
      return 0;
    }
    record(Error::Ok);
    return static_cast<double>(reinterpret_cast<uintptr_t>(*ptr));
  }

  int setInputScalar(const std::string& method, size_t index,
                     const std::string& kind, const std::string& value) {
    EValue v;
    if (kind == "Int") {
      char* end = nullptr;
      const long long parsed = std::strtoll(value.c_str(), &end, 10);
      if (end == value.c_str() || *end != '\0') {
        return finish(fail(Error::InvalidArgument,
                           "input %zu: '%s' is not an integer", index, value.c_str()));
      }
      v = EValue::from_int(parsed);
    } else if (kind == "Double") {
      v = EValue::from_double(std::strtod(value.c_str(), nullptr));
    } else if (kind == "Bool") {
      v = EValue::from_bool(value == "true");
    } else {
      return finish(fail(Error::InvalidArgument, "input %zu: unknown kind '%s'",
                         index, kind.c_str()));
    }
    return finish(model_.set_input_scalar(method, index, v));
  }

  // Threads this model's runs may use (0: all the pool has).
  void setThreads(unsigned threads) { model_.set_threads(threads); }

  int execute(const std::string& method, bool profile) {
    return finish(model_.execute(method, profile));
  }

  // Per-instruction times of the last run executed with profile = true.
  std::string profile(const std::string& method) {
    return text_or_empty(model_.profile_json(method));
  }

  int outputCount(const std::string& method) {
    Result<size_t> n = model_.output_count(method);
    if (!n.ok()) {
      record(n.error());
      return -1;
    }
    record(Error::Ok);
    return static_cast<int>(*n);
  }

  std::string output(const std::string& method, size_t index) {
    return text_or_empty(model_.output_json(method, index));
  }

  // An input read back after a run (inputs the method mutates), in
  // output()'s JSON form; "" on failure.
  std::string input(const std::string& method, size_t index) {
    return text_or_empty(model_.input_json(method, index));
  }

  int bundledTestCount() const { return static_cast<int>(model_.bundled_test_count()); }

  std::string bundledTest(size_t index) {
    return text_or_empty(model_.bundled_test_json(index));
  }

  // The example inputs a .pt2 stores for `method` (a JSON array); "" with
  // NotFound when the file has none.
  std::string sampleInputs(const std::string& method) {
    return text_or_empty(model_.sample_inputs_json(method));
  }

  std::string lastError() const { return message_; }
  int lastErrorCode() const { return static_cast<int>(code_); }

 private:
  // A JSON answer, or "" with the error recorded for lastError().
  std::string text_or_empty(Result<std::string> json) {
    record(json.ok() ? Error::Ok : json.error());
    return json.ok() ? *json : std::string();
  }
  void record(Error code) {
    code_ = code;
    message_ = code == Error::Ok ? "" : last_error_message();
  }
  int finish(Error code) {
    record(code);
    return static_cast<int>(code);
  }

  host::HostModel model_;
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
    return nlohmann::json{{"error", last_error_message()},
                          {"code", static_cast<int>(format.error())}}
        .dump();
  }
  return nlohmann::json{{"format", (*format)->id}}.dump();
}

// [{"id","description","supported"}] for every format the registry knows.
std::string file_formats() {
  nlohmann::json formats = nlohmann::json::array();
  for (const host::FileFormat& f : host::file_formats()) {
    formats.push_back({{"id", f.id}, {"description", f.description}, {"supported", f.open != nullptr}});
  }
  return formats.dump();
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
int register_js_kernel_after_builtins(const std::string& name) {
  ensure_kernels_registered();
  return register_js_kernel(name);
}

}  // namespace
}  // namespace tri::wasm

EMSCRIPTEN_BINDINGS(trident) {
  using tri::wasm::NativeProgram;
  emscripten::function("version", &tri::wasm::version);
  emscripten::function("setSimdEnabled", &tri::set_simd_enabled);
  emscripten::function("registerJsKernel", &tri::wasm::register_js_kernel_after_builtins);
  emscripten::function("simdEnabled", &tri::simd_enabled);
  emscripten::function("detectFormat", &tri::wasm::detect_format);
  emscripten::function("fileFormats", &tri::wasm::file_formats);
  emscripten::function("sniffBytes", &tri::wasm::sniff_bytes);
  emscripten::function("startThreadPool", &tri::wasm::start_thread_pool);
  emscripten::class_<NativeProgram>("NativeProgram")
      .constructor<>()
      .function("addDataFile", &NativeProgram::addDataFile)
      .function("load", &NativeProgram::load)
      .function("format", &NativeProgram::format)
      .function("describe", &NativeProgram::describe)
      .function("prepareInput", &NativeProgram::prepareInput)
      .function("setInputScalar", &NativeProgram::setInputScalar)
      .function("setThreads", &NativeProgram::setThreads)
      .function("execute", &NativeProgram::execute)
      .function("profile", &NativeProgram::profile)
      .function("outputCount", &NativeProgram::outputCount)
      .function("output", &NativeProgram::output)
      .function("bundledTestCount", &NativeProgram::bundledTestCount)
      .function("bundledTest", &NativeProgram::bundledTest)
      .function("sampleInputs", &NativeProgram::sampleInputs)
      .function("input", &NativeProgram::input)
      .function("lastError", &NativeProgram::lastError)
      .function("lastErrorCode", &NativeProgram::lastErrorCode);
}
