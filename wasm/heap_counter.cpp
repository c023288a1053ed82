// The wasm build's allocation functions: Emscripten's own dlmalloc behind a
// counter. dlmalloc defines malloc and friends as weak aliases and exports
// the originals as emscripten_builtin_* (and __libc_realloc) precisely so
// that a program can interpose like this. Every C and C++ allocation in the
// module (operator new, std::vector, embind's strings, _malloc from JS)
// passes here, so the count covers the runtime, the host layer and the
// bindings alike. The cost is one relaxed atomic add per allocation.
#include "wasm/heap_counter.h"

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <malloc.h>
#include <unistd.h>

extern "C" {
void* emscripten_builtin_malloc(size_t size);
void emscripten_builtin_free(void* ptr);
void* emscripten_builtin_memalign(size_t alignment, size_t size);
void* __libc_realloc(void* ptr, size_t size);
size_t malloc_footprint(void);
size_t malloc_set_footprint_limit(size_t bytes);
}

namespace {

std::atomic<uint64_t> allocations{0};

void count() { allocations.fetch_add(1, std::memory_order_relaxed); }

}  // namespace

extern "C" {

void* malloc(size_t size) {
  count();
  return emscripten_builtin_malloc(size);
}

void free(void* ptr) { emscripten_builtin_free(ptr); }

void* calloc(size_t n, size_t size) {
  if (size != 0 && n > SIZE_MAX / size) return nullptr;
  void* p = malloc(n * size);
  if (p != nullptr) std::memset(p, 0, n * size);
  return p;
}

void* realloc(void* ptr, size_t size) {
  count();
  return __libc_realloc(ptr, size);
}

void* memalign(size_t alignment, size_t size) {
  count();
  return emscripten_builtin_memalign(alignment, size);
}

void* aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }

int posix_memalign(void** out, size_t alignment, size_t size) {
  if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* p = memalign(alignment, size);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}

}  // extern "C"

namespace tri::wasm {

double heap_allocations() { return static_cast<double>(allocations.load(std::memory_order_relaxed)); }

// mallinfo's fields are ints: past 2 GiB in use the count wraps negative,
// and the heap (wasm32) holds less than 4 GiB.
double heap_bytes() { return static_cast<double>(static_cast<uint32_t>(mallinfo().uordblks)); }

}  // namespace tri::wasm

namespace tri::wasm {

namespace {
double limit_bytes = 0;
}  // namespace

// dlmalloc's footprint limit bounds what it takes through sbrk; the rest of
// the memory (static data, the stack, anything below the heap's start) is
// sbrk's current break less that footprint.
void set_memory_limit(double bytes) {
  limit_bytes = bytes > 0 ? bytes : 0;
  if (limit_bytes == 0 || limit_bytes >= 4294967296.0) {
    malloc_set_footprint_limit(SIZE_MAX);
    return;
  }
  const size_t footprint = malloc_footprint();
  const size_t brk = reinterpret_cast<uintptr_t>(sbrk(0));
  const size_t outside = brk > footprint ? brk - footprint : 0;
  const size_t wanted = static_cast<size_t>(limit_bytes);
  // Never below what is held: dlmalloc would refuse every later growth
  // anyway, and the bound must not read as "none" (a limit of 0).
  const size_t heap = wanted > outside ? wanted - outside : 0;
  malloc_set_footprint_limit(heap > footprint ? heap : footprint);
}

double memory_limit() { return limit_bytes; }

}  // namespace tri::wasm
