// Counts the wasm heap's allocations, so that a test can prove a run makes
// none (see heap_counter.cpp).
#pragma once

namespace tri::wasm {

// malloc, calloc, realloc and the aligned forms called since the module
// started, from any thread; a double because embind passes no 64-bit ints.
double heap_allocations();

// Bytes allocated in the heap now (dlmalloc's count of blocks in use), so
// that a test can see a model's memory come back when it is disposed.
double heap_bytes();

}  // namespace tri::wasm
