// Turns a MethodSource into a Method, the same way for every format:
// operators resolved to kernels (one error lists every missing one),
// argument counts checked against the kernels, backends checked, every value
// index and jump target validated, delegates initialized (and destroyed
// again if a later one fails), and the MethodPlan assembled.
//
// Sizing runs this same code: size_method() builds into a trial allocator
// without binding planned memory or initializing delegates (they report
// their memory_needs instead), and the method allocator a real build needs
// is what the trial used plus what the delegates asked for. No hand-kept
// mirror of the allocations to drift out of date.
#pragma once

#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/executor/method.h"
#include "cpp/runtime/executor/method_source.h"
#include "cpp/runtime/executor/program.h"

namespace tri {

// Whether every operator and backend the method needs is registered (and
// the backends available). Allocates nothing.
Error check_method_dependencies(const MethodSource& source);

// What build_method() will take from the method allocator and from scratch.
// `trial` receives the bookkeeping a build allocates (and is reset after a
// success); when it is too small the error is MemoryAllocationFailed and
// trial.exhausted() is set, so the caller can retry with more. `scratch` is
// working memory for the delegates' memory_needs.
Result<MethodMemoryNeeds> size_method(const MethodSource& source, MemoryAllocator& trial,
                                      MemoryAllocator& scratch,
                                      const MethodLoadOptions& options);

Result<Method> build_method(const MethodSource& source, MemoryManager& memory,
                            const MethodLoadOptions& options);

}  // namespace tri
