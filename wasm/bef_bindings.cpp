// Bindings for TFRT's tools: the MLIR-to-BEF translator and the bef_executor
// driver, so `trident mlir-to-bef`, `trident bef-run` and the demo page run
// the same C++ as the native tools.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cpp/formats/bef/host/bef_driver.h"
#include "cpp/formats/bef/host/verify_translation.h"
#include "cpp/formats/bef/host/mlir_to_bef/expected_diagnostics.h"
#include "cpp/host/value_json.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_to_bef.h"
#include "cpp/runtime/core/error.h"

namespace tri::wasm {
namespace {

// {bytes: Uint8Array} or {error, line, column}.
emscripten::val mlir_to_bef(const std::string& source, const std::string& filename) {
  bef::MlirDiagnostic diagnostic;
  Result<std::vector<uint8_t>> bytes = bef::mlir_to_bef(source, filename, {}, &diagnostic);
  emscripten::val answer = emscripten::val::object();
  if (!bytes.ok()) {
    answer.set("error", std::string(last_error_message()));
    answer.set("message", diagnostic.message);
    answer.set("line", diagnostic.line);
    answer.set("column", diagnostic.column);
    return answer;
  }
  emscripten::val view(emscripten::typed_memory_view(bytes->size(), bytes->data()));
  answer.set("bytes", emscripten::val::global("Uint8Array").new_(view));
  return answer;
}

// Options JSON: {functions, initFunction, printErrorCode, multiThreadedQueue,
// allowUnknownKernels, verifySource}; answer JSON: {out, err, exitCode}.
std::string bef_run(const std::string& bytes, const std::string& options_json) {
  nlohmann::json options = nlohmann::json::parse(options_json, nullptr, false);
  bef::BefRunOptions run;
  nlohmann::json answer;
  if (options.is_discarded() || !options.is_object()) {
    answer["out"] = "";
    answer["err"] = "bef-run: the options are not a JSON object\n";
    answer["exitCode"] = 2;
    return host::dump_json(answer);
  }
  if (options.contains("functions") && options["functions"].is_array()) {
    for (const auto& name : options["functions"]) {
      if (name.is_string()) run.functions.push_back(name.get<std::string>());
    }
  }
  run.init_function = options.value("initFunction", std::string());
  run.print_error_code = options.value("printErrorCode", false);
  run.multi_threaded_queue = options.value("multiThreadedQueue", false);
  run.allow_unknown_kernels = options.value("allowUnknownKernels", false);
  if (options.contains("verifySource") && options["verifySource"].is_string()) {
    run.verify_diagnostics = true;
    run.expected = bef::expected_errors(options["verifySource"].get<std::string>());
  }
  const bef::BefRunReport report =
      bef::run_bef(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), run);
  answer["out"] = report.out;
  answer["err"] = report.err;
  answer["exitCode"] = report.exit_code;
  return host::dump_json(answer);
}

// tfrt_translate -verify-diagnostics: {exitCode, err} as JSON.
std::string mlir_to_bef_verify(const std::string& source, const std::string& filename, bool split) {
  const bef::TranslationCheck check = bef::verify_translation(source, filename, split);
  nlohmann::json answer;
  answer["exitCode"] = check.exit_code;
  answer["err"] = check.err;
  return host::dump_json(answer);
}

}  // namespace
}  // namespace tri::wasm

EMSCRIPTEN_BINDINGS(trident_bef) {
  emscripten::function("mlirToBef", &tri::wasm::mlir_to_bef);
  emscripten::function("befRun", &tri::wasm::bef_run);
  emscripten::function("mlirToBefVerify", &tri::wasm::mlir_to_bef_verify);
}
