#include "cpp/runtime/core/error.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace tri {
namespace {

// One buffer per thread: the pthreads build may run methods on workers.
thread_local char t_message[kErrorMessageCapacity];
thread_local Error t_code = Error::Ok;

}  // namespace

const char* error_name(Error code) {
  switch (code) {
    case Error::Ok: return "Ok";
    case Error::Internal: return "Internal";
    case Error::InvalidState: return "InvalidState";
    case Error::NotSupported: return "NotSupported";
    case Error::NotImplemented: return "NotImplemented";
    case Error::InvalidArgument: return "InvalidArgument";
    case Error::InvalidType: return "InvalidType";
    case Error::OperatorMissing: return "OperatorMissing";
    case Error::LimitExceeded: return "LimitExceeded";
    case Error::MethodMissing: return "MethodMissing";
    case Error::NotFound: return "NotFound";
    case Error::MemoryAllocationFailed: return "MemoryAllocationFailed";
    case Error::AccessFailed: return "AccessFailed";
    case Error::InvalidProgram: return "InvalidProgram";
    case Error::InvalidExternalData: return "InvalidExternalData";
    case Error::ExternalDataMissing: return "ExternalDataMissing";
    case Error::DelegateInvalidCompatibility: return "DelegateInvalidCompatibility";
    case Error::DelegateMemoryAllocationFailed: return "DelegateMemoryAllocationFailed";
    case Error::DelegateInvalidHandle: return "DelegateInvalidHandle";
    case Error::BackendMissing: return "BackendMissing";
  }
  return "Unknown";
}

Error fail(Error code, const char* format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(t_message, sizeof(t_message), format, args);
  va_end(args);
  t_code = code;
  return code;
}

Error add_context(Error code, const char* format, ...) {
  char prefix[256];
  va_list args;
  va_start(args, format);
  const int n = vsnprintf(prefix, sizeof(prefix), format, args);
  va_end(args);
  if (n <= 0) {
    return code;
  }
  const size_t prefix_len = strnlen(prefix, sizeof(prefix) - 1);
  const size_t old_len = strnlen(t_message, sizeof(t_message) - 1);
  // Room for "<prefix>: <old>" with the old text cut if needed.
  const size_t keep = (prefix_len + 2 < sizeof(t_message))
                          ? sizeof(t_message) - prefix_len - 3
                          : 0;
  const size_t moved = old_len < keep ? old_len : keep;
  memmove(t_message + prefix_len + 2, t_message, moved);
  t_message[prefix_len + 2 + moved] = '\0';
  memcpy(t_message, prefix, prefix_len);
  t_message[prefix_len] = ':';
  t_message[prefix_len + 1] = ' ';
  t_code = code;
  return code;
}

const char* last_error_message() { return t_message; }
Error last_error_code() { return t_code; }

void clear_error() {
  t_message[0] = '\0';
  t_code = Error::Ok;
}

}  // namespace tri
