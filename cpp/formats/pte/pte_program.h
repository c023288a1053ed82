// The .pte front end: verifies an ExecuTorch program file and maps it, in
// place, into what the shared executor runs. The file's bytes are never
// copied; constants and delegate blobs are views into them, so the bytes must
// outlive the program.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/formats/pte/pte_file.h"
#include "cpp/formats/pte/pte_named_data.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/executor/program.h"

namespace executorch_flatbuffer {
struct Program;
struct ExecutionPlan;
}  // namespace executorch_flatbuffer

namespace tri::pte {

struct PteLoadOptions {
  // A method whose memory plan asks for more than this fails to load (a
  // hostile file could otherwise make the host allocate without bound).
  uint64_t max_planned_bytes = uint64_t{1} << 30;
  // Let a method whose file plan is over that limit load, to be planned per
  // shape (set_lifetime_plans); the host checks check_plan_limit() for the
  // others.
  bool defer_plan_limit = false;
};

// A method's memory plan made at load by lifetimes (pte_lifetime_plan.h):
// each value's offset in the one planned buffer, and that buffer's size.
struct LifetimePlan {
  const uint64_t* offsets = nullptr;  // null: the file's plan
  uint64_t bytes = 0;
  // Planned at each run's shapes instead (method.h, LazyTensor): no planned
  // buffers; offsets stays null, and `views` flags the values that are views
  // (check_per_shape), which get no memory of their own.
  bool per_shape = false;
  const uint8_t* views = nullptr;
};

class PteProgram final : public Program {
 public:
  PteProgram() = default;

  // Checks the header, verifies the flatbuffer and every segment's bounds.
  static Result<PteProgram> load(ByteSpan file,
                                 const PteLoadOptions& options = {});

  const char* format() const override { return "pte"; }
  size_t num_methods() const override;
  const char* method_name(size_t method) const override;
  Result<size_t> method_index(const char* name) const override;
  size_t num_inputs(size_t method) const override;
  Result<ValueInfo> input_info(size_t method, size_t index) const override;
  size_t num_outputs(size_t method) const override;
  Result<ValueInfo> output_info(size_t method, size_t index) const override;
  size_t num_instructions(size_t method) const override;
  size_t num_planned_buffers(size_t method) const override;
  Result<size_t> planned_buffer_size(size_t method,
                                     size_t index) const override;
  const char* memory_plan(size_t method) const override;
  bool planned_initial_data(size_t method) const override;
  Result<MethodMemoryNeeds> memory_needs(size_t method, MemoryAllocator& trial,
                                         MemoryAllocator& scratch,
                                         const MethodLoadOptions& options) const override;
  Error check_dependencies(size_t method) const override;
  Result<Method> load_method(size_t method, MemoryManager& memory,
                             const MethodLoadOptions& options) const override;

  // Plans `method` by lifetimes into `offsets` (one per value), without
  // installing it; NotSupported says why the file's plan must stay.
  Result<uint64_t> plan_by_lifetimes(size_t method, Span<uint64_t> offsets,
                                     MemoryAllocator scratch) const;
  // Installs plans (one per method) made by plan_by_lifetimes(); the caller
  // owns them, and they must outlive the program and every method loaded
  // after. Methods loaded before keep the plan they were loaded with.
  void set_lifetime_plans(Span<const LifetimePlan> plans) { lifetime_plans_ = plans; }
  const uint64_t* lifetime_offsets(size_t method) const {
    return method < lifetime_plans_.size() ? lifetime_plans_[method].offsets : nullptr;
  }
  bool plans_per_shape(size_t method) const {
    return method < lifetime_plans_.size() && lifetime_plans_[method].per_shape;
  }
  // LimitExceeded when the file's plan of `method` is over max_planned_bytes.
  Error check_plan_limit(size_t method) const;
  // Whether planning `method` per shape is safe (pte_lifetime_plan.h's
  // rules); NotSupported says which rule fails. `views`: one flag per
  // value, set for the views its kernels return.
  Error check_per_shape(size_t method, MemoryAllocator scratch, Span<uint8_t> views) const;
  // The view flags of a method planned per shape (null otherwise).
  const uint8_t* per_shape_views(size_t method) const {
    return plans_per_shape(method) ? lifetime_plans_[method].views : nullptr;
  }

  const PteFile& file() const { return file_; }
  const executorch_flatbuffer::ExecutionPlan* plan(size_t method) const;

  // The data of constant `buffer_index` (constant_segment or the deprecated
  // inline constant_buffer), at least `nbytes` long.
  Result<ByteSpan> constant_data(uint32_t buffer_index, size_t nbytes) const;
  // The initial state of a mutable tensor.
  Result<ByteSpan> mutable_data(uint64_t segments_index, uint32_t buffer_index,
                                size_t nbytes) const;
  // The processed blob of a delegate (inline or in a segment).
  Result<ByteSpan> delegate_data(uint32_t location, uint32_t index) const;
  // The program's named data (delegate weights by key).
  const PteNamedData& named_data() const { return named_data_; }

 private:
  Error check_methods() const;

  PteFile file_;
  PteLoadOptions options_;
  PteNamedData named_data_;
  Span<const LifetimePlan> lifetime_plans_;
};

}  // namespace tri::pte
