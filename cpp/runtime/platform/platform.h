// The platform layer: the only place the runtime logs, aborts or reads a
// clock. Hosts replace the hooks (the wasm bindings route logs to the JS
// console); the defaults write to stderr and call abort().
#pragma once

#include <cstdint>

#include "cpp/runtime/core/error.h"

namespace tri {

enum class LogLevel : uint8_t { Debug, Info, Error, Fatal };

using LogHook = void (*)(LogLevel level, const char* message);
using AbortHook = void (*)(const char* message);
using ClockHook = uint64_t (*)();

void set_log_hook(LogHook hook);
void set_abort_hook(AbortHook hook);
void set_clock_hook(ClockHook hook);

void log(LogLevel level, const char* format, ...) TRI_PRINTF_LIKE(2, 3);

// For broken invariants only: bad input is an Error, never an abort.
[[noreturn]] void runtime_abort(const char* message);

// Monotonic nanoseconds.
uint64_t now_ns();

}  // namespace tri

#define TRI_LOG(level, ...) ::tri::log(::tri::LogLevel::level, __VA_ARGS__)
