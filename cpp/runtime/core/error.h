// Error codes and the message that goes with the most recent failure.
//
// The runtime has no exceptions, so every fallible call returns an Error (or a
// Result<T>). The code says what kind of failure it was; the text, kept in a
// fixed per-thread buffer so that no heap is touched, says what and where:
// "instruction 3 (aten::add.out): input 1: dtype Long, expected Float".
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__GNUC__) || defined(__clang__)
#define TRI_PRINTF_LIKE(fmt_index, args_index) \
  __attribute__((format(printf, fmt_index, args_index)))
#define TRI_NODISCARD [[nodiscard]]
#else
#define TRI_PRINTF_LIKE(fmt_index, args_index)
#define TRI_NODISCARD
#endif

namespace tri {

// Grouped in ranges like ExecuTorch's, so a code says which layer failed.
enum class Error : uint32_t {
  Ok = 0x00,
  Internal = 0x01,
  InvalidState = 0x02,

  // The caller or the program asked for something wrong.
  NotSupported = 0x10,
  NotImplemented = 0x11,
  InvalidArgument = 0x12,
  InvalidType = 0x13,
  OperatorMissing = 0x14,
  LimitExceeded = 0x15,
  // The program has no method (or function) of the name asked for.
  MethodMissing = 0x16,

  // Resources and data.
  NotFound = 0x20,
  MemoryAllocationFailed = 0x21,
  AccessFailed = 0x22,
  InvalidProgram = 0x23,
  InvalidExternalData = 0x24,
  // The program needs external data (a .ptd file, a named-data key) that
  // was not provided.
  ExternalDataMissing = 0x25,

  // Delegates.
  DelegateInvalidCompatibility = 0x30,
  DelegateMemoryAllocationFailed = 0x31,
  DelegateInvalidHandle = 0x32,
  // The program delegates to a backend this build does not have.
  BackendMissing = 0x33,
};

const char* error_name(Error code);

// Records `code` with a formatted message as the current error and returns
// `code`, so that `return fail(Error::X, "...")` reads naturally.
Error fail(Error code, const char* format, ...) TRI_PRINTF_LIKE(2, 3);

// Puts "<context>: " in front of the current message and returns `code`. Used
// by outer layers (the interpreter, the loader) to say where a failure
// reported by an inner layer (a kernel, a parser) happened.
Error add_context(Error code, const char* format, ...) TRI_PRINTF_LIKE(2, 3);

// The message recorded by the last fail() on this thread ("" if none).
const char* last_error_message();
Error last_error_code();
void clear_error();

constexpr size_t kErrorMessageCapacity = 1024;

}  // namespace tri

#define TRI_CONCAT_INNER(a, b) a##b
#define TRI_CONCAT(a, b) TRI_CONCAT_INNER(a, b)

// Returns fail(code, ...) from the enclosing function when `cond` is false.
#define TRI_CHECK(cond, code, ...)         \
  do {                                     \
    if (!(cond)) {                         \
      return ::tri::fail(code, __VA_ARGS__); \
    }                                      \
  } while (0)

// Propagates a non-Ok Error from `expr`.
#define TRI_TRY(expr)                                 \
  do {                                                \
    const ::tri::Error TRI_CONCAT(tri_e_, __LINE__) = (expr); \
    if (TRI_CONCAT(tri_e_, __LINE__) != ::tri::Error::Ok) {   \
      return TRI_CONCAT(tri_e_, __LINE__);                    \
    }                                                 \
  } while (0)

// Propagates a non-Ok Error from `expr`, first adding context to the message.
#define TRI_TRY_CONTEXT(expr, ...)                              \
  do {                                                          \
    const ::tri::Error TRI_CONCAT(tri_e_, __LINE__) = (expr);   \
    if (TRI_CONCAT(tri_e_, __LINE__) != ::tri::Error::Ok) {     \
      return ::tri::add_context(TRI_CONCAT(tri_e_, __LINE__), __VA_ARGS__); \
    }                                                           \
  } while (0)

// `TRI_ASSIGN_OR_RETURN(auto x, make_x());` unwraps a Result<T> or returns
// its error.
#define TRI_ASSIGN_OR_RETURN(lhs, expr)                      \
  auto TRI_CONCAT(tri_r_, __LINE__) = (expr);                \
  if (!TRI_CONCAT(tri_r_, __LINE__).ok()) {                  \
    return TRI_CONCAT(tri_r_, __LINE__).error();             \
  }                                                          \
  lhs = TRI_CONCAT(tri_r_, __LINE__).take()
