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

// Bounds the wasm memory (maxWasmMemoryBytes): from now on the heap takes no
// more from the system than keeps the whole memory (static data and stack
// included) within `bytes`, and an allocation past that fails (returns
// null), which the runtime reports as MemoryAllocationFailed. A bound below
// what the heap already holds stops it growing at all; 0 lifts the bound.
void set_memory_limit(double bytes);

// The heap's bound now, as the wasm memory's bytes (0: none).
double memory_limit();

}  // namespace tri::wasm
