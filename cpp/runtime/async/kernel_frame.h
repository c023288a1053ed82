// The ABI between the async executor and its kernels, after TFRT's
// AsyncKernelFrame: a kernel reads its argument values, attribute offsets and
// function references, and sets one AsyncValue per result (now, or an
// unavailable one it fills later). Kernels never see which file format or
// executor called them.
#pragma once

#include <cstdint>

#include "cpp/runtime/async/async_value.h"
#include "cpp/runtime/async/attribute_reader.h"
#include "cpp/runtime/async/host_context.h"
#include "cpp/runtime/core/span.h"

namespace tri::async {

// What kernels may ask of the program that runs them: calling one of its
// functions (control flow), and the per-run state TFRT keeps in its resource
// context (tfrt.once's cache).
class FunctionCaller {
 public:
  virtual uint32_t num_arguments(uint32_t function) const = 0;
  virtual uint32_t num_results(uint32_t function) const = 0;
  // Starts `function`; `results` receive one new reference each (values that
  // may still be unavailable). Arguments are borrowed.
  virtual void call(uint32_t function, Span<AsyncValue* const> arguments,
                    Span<AsyncValue*> results) = 0;
  // tfrt.once: the cached results of `function` for this run, or empty.
  virtual Span<AsyncValue* const> once_results(uint32_t function) = 0;
  virtual void set_once_results(uint32_t function, Span<AsyncValue* const> results) = 0;

 protected:
  ~FunctionCaller() = default;
};

class KernelFrame {
 public:
  KernelFrame(HostContext& host, FunctionCaller& caller, AttributeReader attributes,
              SourceLocation location)
      : host_(host), caller_(caller), attributes_(attributes), location_(location) {}

  HostContext& host() const { return host_; }
  FunctionCaller& caller() const { return caller_; }
  const SourceLocation& location() const { return location_; }

  uint32_t num_arguments() const { return static_cast<uint32_t>(arguments_.size()); }
  AsyncValue* argument(uint32_t i) const { return arguments_[i]; }
  Span<AsyncValue* const> arguments() const { return arguments_; }

  uint32_t num_attributes() const { return static_cast<uint32_t>(attribute_offsets_.size()); }
  uint32_t attribute_offset(uint32_t i) const { return attribute_offsets_[i]; }
  const AttributeReader& attributes() const { return attributes_; }

  uint32_t num_functions() const { return static_cast<uint32_t>(functions_.size()); }
  uint32_t function(uint32_t i) const { return functions_[i]; }

  uint32_t num_results() const { return static_cast<uint32_t>(results_.size()); }
  // Takes over one reference to `value`.
  void set_result(uint32_t i, AsyncValue* value);
  AsyncValue* result(uint32_t i) const { return results_[i]; }

  // TFRT's ReportError: emits a diagnostic at the kernel's location and sets
  // every result not yet set to an error value with the same message.
  void report_error(const char* format, ...) TRI_PRINTF_LIKE(2, 3);
  // The same, with an error value the kernel made itself (shared by results).
  void report_error_value(AsyncValue* error);

  // Executor side.
  void reset(Span<AsyncValue* const> arguments, Span<const uint32_t> attribute_offsets,
             Span<const uint32_t> functions, Span<AsyncValue*> results, SourceLocation location) {
    arguments_ = arguments;
    attribute_offsets_ = attribute_offsets;
    functions_ = functions;
    results_ = results;
    location_ = location;
  }

 private:
  HostContext& host_;
  FunctionCaller& caller_;
  AttributeReader attributes_;
  SourceLocation location_;
  Span<AsyncValue* const> arguments_;
  Span<const uint32_t> attribute_offsets_;
  Span<const uint32_t> functions_;
  Span<AsyncValue*> results_;
};

using KernelFn = void (*)(KernelFrame& frame);

// The async kernel table: name → function, sorted once so lookups at load
// are binary searches. Registration happens before any file is opened.
struct KernelEntry {
  const char* name;
  KernelFn fn;
};

// Adds kernels to the global table; returns false when it is full.
bool register_kernels(Span<const KernelEntry> kernels);
// nullptr when no kernel has that name.
KernelFn find_kernel(const char* name);
size_t num_registered_kernels();

// Native functions (FunctionIndex kind 1): C++ callables a BEF file names.
using NativeFn = void (*)(HostContext& host, Span<AsyncValue* const> arguments,
                          Span<AsyncValue*> results);
struct NativeFunctionEntry {
  const char* name;
  NativeFn fn;
};
bool register_native_functions(Span<const NativeFunctionEntry> functions);
NativeFn find_native_function(const char* name);

}  // namespace tri::async
