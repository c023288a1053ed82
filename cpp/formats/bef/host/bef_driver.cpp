#include "cpp/formats/bef/host/bef_driver.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "cpp/formats/bef/executor/bef_executor.h"
#include "cpp/formats/bef/host/bef_instance.h"

namespace tri::bef {
namespace {

using async::AsyncValue;
using async::Diagnostic;
using async::HostContext;

struct RuntimeDiagnostic {
  std::string message;
  std::string filename;  // empty when the location is unknown
  uint32_t line = 0;
  uint32_t column = 0;
};

struct Sinks {
  std::string* out;
  std::vector<RuntimeDiagnostic>* diagnostics;
};

void print_to_string(void* context, const char* text, size_t size) {
  static_cast<Sinks*>(context)->out->append(text, size);
}

void collect_diagnostic(void* context, const Diagnostic& diagnostic) {
  RuntimeDiagnostic d;
  d.message = std::string("runtime error: ") + diagnostic.message;
  if (diagnostic.location.filename != nullptr) {
    d.filename = diagnostic.location.filename;
    d.line = diagnostic.location.line;
    d.column = diagnostic.location.column;
  }
  static_cast<Sinks*>(context)->diagnostics->push_back(std::move(d));
}

// LLVM's raw_ostream prints doubles in exponent style ("%e"), with its own
// spellings for the non-finite values.
std::string format_double(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-INF" : "INF";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%e", v);
  return buffer;
}

std::string format_value(const AsyncValue* value, const char* type, bool print_error_code) {
  if (value->is_error()) {
    std::string text = std::string("<<error: ") + value->error_message();
    if (print_error_code) text += ", code: INTERNAL";
    return text + ">>";
  }
  if (!value->available()) return "<<error: the value never became available>>";
  const std::string t = type;
  char buffer[64];
  if (t == "i1" || t == "i32" || t == "i64" || t == "f32" || t == "f64") {
    switch (value->kind()) {
      case async::ValueKind::I1: return value->i1() ? "1" : "0";
      case async::ValueKind::I32:
        std::snprintf(buffer, sizeof(buffer), "%" PRId32, value->i32());
        return buffer;
      case async::ValueKind::I64:
        std::snprintf(buffer, sizeof(buffer), "%" PRId64, value->i64());
        return buffer;
      case async::ValueKind::F32: return format_double(static_cast<double>(value->f32()));
      case async::ValueKind::F64: return format_double(value->f64());
      default: break;
    }
  }
  return t + " value";
}

std::string format_location(const RuntimeDiagnostic& d) {
  if (d.filename.empty()) return "<unknown location>";
  return d.filename + ":" + std::to_string(d.line) + ":" + std::to_string(d.column);
}

// MLIR's diagnostic verifier: each error must match an expectation on its
// line (by substring), and each expectation must be met.
int verify(const std::vector<RuntimeDiagnostic>& diagnostics, const BefRunOptions& options,
           std::string* err) {
  int status = 0;
  std::vector<bool> met(options.expected.size(), false);
  for (const RuntimeDiagnostic& d : diagnostics) {
    bool matched = false;
    for (size_t i = 0; i < options.expected.size() && !matched; ++i) {
      const ExpectedDiagnostic& e = options.expected[i];
      if (!met[i] && e.line == d.line && !d.filename.empty() &&
          d.message.find(e.message) != std::string::npos) {
        met[i] = matched = true;
      }
    }
    if (!matched) {
      *err += format_location(d) + ": error: unexpected error: " + d.message + "\n";
      status = 1;
    }
  }
  for (size_t i = 0; i < options.expected.size(); ++i) {
    if (met[i]) continue;
    *err += "line " + std::to_string(options.expected[i].line) + ": error: expected error \"" +
            options.expected[i].message + "\" was not produced\n";
    status = 1;
  }
  return status;
}

int report_unverified(const std::vector<RuntimeDiagnostic>& diagnostics, std::string* err) {
  for (const RuntimeDiagnostic& d : diagnostics) {
    *err += format_location(d) + ": error: " + d.message + "\n";
  }
  return diagnostics.empty() ? 0 : 1;
}

}  // namespace

BefRunReport run_bef(const uint8_t* data, size_t size, const BefRunOptions& options) {
  BefRunReport report;
  report.out += "Choosing memory leak check allocator.\n";
  report.out += options.multi_threaded_queue ? "Choosing multi-threaded work queue.\n"
                                             : "Choosing single-threaded work queue.\n";
  std::vector<RuntimeDiagnostic> diagnostics;
  auto finish = [&](int status) {
    const int checked = options.verify_diagnostics ? verify(diagnostics, options, &report.err)
                                                   : report_unverified(diagnostics, &report.err);
    report.exit_code = status != 0 ? status : checked;
    return report;
  };

  BefInstanceOptions instance_options;
  instance_options.allow_unknown_kernels = options.allow_unknown_kernels;
  instance_options.heap_bytes = options.heap_bytes;
  LoadErrorLocation where;
  Result<std::unique_ptr<BefInstance>> opened = BefInstance::open(data, size, instance_options, &where);
  if (!opened.ok()) {
    RuntimeDiagnostic d;
    d.message = last_error_message();
    d.filename = where.filename;
    d.line = where.line;
    d.column = where.column;
    diagnostics.push_back(std::move(d));
    return finish(0);
  }
  BefInstance& instance = **opened;
  const BefProgram& program = instance.program();
  const BefFile& file = program.file();
  HostContext& host = instance.host();
  Sinks sinks{&report.out, &diagnostics};
  host.set_print_hook(&print_to_string, &sinks);
  host.set_diagnostic_hook(&collect_diagnostic, &sinks);

  std::vector<uint32_t> order;
  if (!options.init_function.empty()) {
    const int64_t f = file.find_function(options.init_function.c_str());
    if (f < 0) {
      report.err += "error: init function '" + options.init_function + "' not found\n";
      return finish(1);
    }
    order.push_back(static_cast<uint32_t>(f));
  }
  if (options.functions.empty()) {
    for (uint32_t f = 0; f < file.num_functions(); ++f) order.push_back(f);
  } else {
    for (const std::string& name : options.functions) {
      const int64_t f = file.find_function(name.c_str());
      if (f < 0) {
        report.err += "error: function '" + name + "' not found\n";
        return finish(1);
      }
      order.push_back(static_cast<uint32_t>(f));
    }
  }

  int status = 0;
  for (uint32_t f : order) {
    const FunctionEntry& entry = file.function(f);
    if (entry.name[0] == '\0') continue;  // region functions run only when called
    if (!entry.argument_types.empty()) {
      report.out += std::string("--- Not running '") + entry.name + "' because it has arguments.\n";
      continue;
    }
    if (options.allow_unknown_kernels) {
      if (const char* kernel = program.first_unknown_kernel(f)) {
        report.err += std::string("error: '") + entry.name + "' uses kernel '" + kernel +
                      "', which this build does not support\n";
        status = 1;
        continue;
      }
    }
    report.out += std::string("--- Running '") + entry.name + "':\n";
    std::vector<AsyncValue*> results(entry.result_types.size(), nullptr);
    {
      host.set_kernel_budget(options.kernel_budget);
      BefRunner runner(program, host);
      runner.call(f, {}, Span<AsyncValue*>(results.data(), results.size()));
      for (AsyncValue* result : results) host.await(result);
      if (!results.empty()) {
        std::string line = std::string("'") + entry.name + "' returned ";
        for (size_t i = 0; i < results.size(); ++i) {
          if (i != 0) line += ",";
          line += format_value(results[i], file.type_name(entry.result_types[i]),
                               options.print_error_code);
        }
        report.out += line + "\n";
      }
      for (AsyncValue* result : results) result->drop_ref();
      host.quiesce();
    }
    host.quiesce();
    if (host.out_of_memory()) {
      report.err += std::string("error: function '") + entry.name +
                    "' ran out of the executor's heap (" + std::to_string(options.heap_bytes) +
                    " bytes)\n";
      status = 1;
      break;
    }
    if (host.live_values() != 0) {
      report.err += std::string("Evaluation of function '") + entry.name + "' leaked " +
                    std::to_string(host.live_values()) + " async values.\n";
      status = 1;
      break;
    }
  }
  return finish(status);
}

}  // namespace tri::bef
