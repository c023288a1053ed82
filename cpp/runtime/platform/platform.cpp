#include "cpp/runtime/platform/platform.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace tri {
namespace {

void default_log(LogLevel level, const char* message) {
  static const char* const kNames[] = {"D", "I", "E", "F"};
  fprintf(stderr, "[trident %s] %s\n", kNames[static_cast<int>(level)],
          message);
}

void default_abort(const char* message) {
  fprintf(stderr, "[trident] abort: %s\n", message);
  abort();
}

uint64_t default_clock() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u +
         static_cast<uint64_t>(ts.tv_nsec);
}

LogHook g_log = default_log;
AbortHook g_abort = default_abort;
ClockHook g_clock = default_clock;

}  // namespace

void set_log_hook(LogHook hook) { g_log = hook ? hook : default_log; }
void set_abort_hook(AbortHook hook) { g_abort = hook ? hook : default_abort; }
void set_clock_hook(ClockHook hook) { g_clock = hook ? hook : default_clock; }

void log(LogLevel level, const char* format, ...) {
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  g_log(level, message);
}

void runtime_abort(const char* message) {
  g_abort(message);
  abort();  // a hook that returns must not continue the runtime
}

uint64_t now_ns() { return g_clock(); }

}  // namespace tri
