// What every format front end offers the bindings and tools: the methods of a
// loaded file, their signatures and memory needs, and loading one of them
// into a Method that the shared interpreter runs.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/named_data_map.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/tensor.h"
#include "cpp/runtime/executor/method.h"

namespace tri {

// The declared kind of an input or output (and, for tensors, the type, the
// shape or its upper bound, and the dynamism).
struct ValueInfo {
  Tag tag = Tag::None;
  ScalarType dtype = ScalarType::Float;
  ShapeDynamism dynamism = ShapeDynamism::Static;
  uint8_t dim = 0;
  SizesType sizes[kTensorDimLimit] = {};
};

// What the caller must provide before load_method(), besides the planned
// buffers: the method allocator's size, and the scratch (MemoryManager::temp)
// that its instructions need at run time (delegate activations; kernels that
// need more scratch than they are given work in tiles).
struct MethodMemoryNeeds {
  size_t method_bytes = 0;
  size_t temp_bytes = 0;
};

struct MethodLoadOptions {
  // External data (e.g. `.ptd` files) that tensors may reference by key.
  const NamedDataMap* external_data = nullptr;
  // Run the registered method passes (operator fusion, method_pass.h).
  bool optimize = true;
  // Refuse a method with a tensor of more elements (at its upper bound, for
  // a bounded-dynamic one): hostile files declare any sizes.
  uint64_t max_tensor_elements = UINT64_MAX;
};

class Program {
 public:
  virtual const char* format() const = 0;
  virtual size_t num_methods() const = 0;
  virtual const char* method_name(size_t method) const = 0;
  // NotFound, listing the method names, when there is no such method.
  virtual Result<size_t> method_index(const char* name) const = 0;

  virtual size_t num_inputs(size_t method) const = 0;
  virtual Result<ValueInfo> input_info(size_t method, size_t index) const = 0;
  virtual size_t num_outputs(size_t method) const = 0;
  virtual Result<ValueInfo> output_info(size_t method, size_t index) const = 0;
  virtual size_t num_instructions(size_t method) const = 0;

  // The memory plan: buffer sizes the caller must provide to load_method().
  virtual size_t num_planned_buffers(size_t method) const = 0;
  virtual Result<size_t> planned_buffer_size(size_t method,
                                             size_t index) const = 0;
  // Where that plan comes from: "file" (the format's own), or "lifetimes"
  // (made at load by lifetime_planner.h).
  virtual const char* memory_plan(size_t method) const {
    (void)method;
    return "file";
  }
  // Checks the shape a caller gives input `index` against what the format
  // declares beyond the tensor's own bound (e.g. a .pt2's range_constraints);
  // the error names the dimension and its range.
  virtual Error check_input_shape(size_t method, size_t index,
                                  Span<const int32_t> shape) const {
    (void)method;
    (void)index;
    (void)shape;
    return Error::Ok;
  }

  // Whether a run writes a new value into input `index` (a graph that
  // mutates its argument in place, as a .pt2's user_input_mutation says).
  virtual bool mutates_input(size_t method, size_t index) const {
    (void)method;
    (void)index;
    return false;
  }

  // Whether input `index` taking `shape` needs a new memory plan (a
  // dimension the file leaves unbounded has outgrown the plan), and making
  // one: afterwards num_planned_buffers, planned_buffer_size, memory_needs and
  // load_method describe the new plan. The caller must have destroyed every
  // Method it loaded for `method` before calling replan().
  virtual bool needs_replan(size_t method, size_t index, Span<const int32_t> shape) const {
    (void)method;
    (void)index;
    (void)shape;
    return false;
  }
  virtual Error replan(size_t method, size_t index, Span<const int32_t> shape) {
    (void)method;
    (void)index;
    (void)shape;
    return Error::NotSupported;
  }
  // Whether needs_replan() can ever say yes for this method.
  virtual bool may_replan(size_t method) const {
    (void)method;
    return false;
  }

  // Whether the method's planned memory starts with data of its own (a
  // mutable buffer with an initial value, e.g. a .pte's mutable data
  // segment, a .pt2's mutated buffer): then resetting its state means
  // loading it again, otherwise zeroing its planned buffers is enough. The
  // conservative default says yes.
  virtual bool planned_initial_data(size_t method) const {
    (void)method;
    return true;
  }

  // Every planned intermediate's bytes added up, for a front end that plans
  // by lifetime (what sharing saves is this minus the planned bytes);
  // NotSupported where the file brings its own plan.
  virtual Result<uint64_t> intermediate_bytes(size_t method) const {
    (void)method;
    return Error::NotSupported;
  }

  // The memory load_method() and execution need beyond the planned buffers,
  // found by a trial build (method_builder.h's size_method): `trial` takes
  // the bookkeeping (when too small: MemoryAllocationFailed with
  // trial.exhausted() set), `scratch` is working memory for the delegates'
  // queries.
  virtual Result<MethodMemoryNeeds> memory_needs(size_t method, MemoryAllocator& trial,
                                                 MemoryAllocator& scratch,
                                                 const MethodLoadOptions& options) const = 0;

  // Whether every operator and backend the method needs is registered; the
  // error names the missing ones. Cheap: allocates nothing.
  virtual Error check_dependencies(size_t method) const = 0;

  virtual Result<Method> load_method(size_t method, MemoryManager& memory,
                                     const MethodLoadOptions& options) const = 0;

 protected:
  ~Program() = default;
};

}  // namespace tri
