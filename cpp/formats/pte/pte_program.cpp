#include "cpp/formats/pte/pte_program.h"

#include <cinttypes>
#include <cstring>

#include "cpp/formats/pte/fb_read.h"
#include "cpp/formats/pte/pte_lifetime_plan.h"
#include "cpp/formats/pte/pte_method_source.h"
#include "cpp/formats/pte/pte_values.h"
#include "cpp/formats/pte/schema/program_generated.h"
#include "cpp/runtime/executor/method_builder.h"

namespace tri::pte {

namespace fb = executorch_flatbuffer;

Result<PteProgram> PteProgram::load(ByteSpan bytes,
                                    const PteLoadOptions& options) {
  PteProgram program;
  TRI_ASSIGN_OR_RETURN(program.file_, PteFile::open(bytes));
  program.options_ = options;
  program.named_data_ = PteNamedData(program.file_);
  TRI_TRY(program.check_methods());
  return program;
}

// What can be checked before any method is built: one chain each, and a
// memory plan within the limit.
Error PteProgram::check_methods() const {
  for (size_t m = 0; m < num_methods(); ++m) {
    const auto* chains = plan(m)->chains();
    TRI_CHECK(chains == nullptr || chains->size() <= 1, Error::NotSupported,
              "method '%s' has %" PRIu32 " chains (only single-chain programs exist)",
              method_name(m), chains->size());
    const auto* sizes = plan(m)->non_const_buffer_sizes();
    const size_t n = sizes ? sizes->size() : 0;
    for (size_t i = 1; i < n; ++i) {
      const int64_t size = read_element(sizes, i);
      TRI_CHECK(size >= 0, Error::InvalidProgram,
                "method '%s': planned buffer %zu has negative size %" PRId64,
                method_name(m), i, size);
    }
    if (!options_.defer_plan_limit) TRI_TRY(check_plan_limit(m));
  }
  return Error::Ok;
}

Error PteProgram::check_plan_limit(size_t m) const {
  TRI_CHECK(m < num_methods(), Error::InvalidArgument, "method %zu out of range", m);
  const auto* sizes = plan(m)->non_const_buffer_sizes();
  const size_t n = sizes ? sizes->size() : 0;
  uint64_t total = 0;
  for (size_t i = 1; i < n; ++i) {
    // check_methods() refused negative sizes.
    const uint64_t size = static_cast<uint64_t>(read_element(sizes, i));
    TRI_CHECK(size <= options_.max_planned_bytes && total + size <= options_.max_planned_bytes,
              Error::LimitExceeded,
              "method '%s': memory plan needs %" PRIu64 " bytes (buffer %zu alone is %" PRIu64
              "), over the limit of %" PRIu64 " bytes",
              method_name(m), total + size, i, size, options_.max_planned_bytes);
    total += size;
  }
  return Error::Ok;
}

size_t PteProgram::num_methods() const {
  const auto* plans = file_.program->execution_plan();
  return plans ? plans->size() : 0;
}

const fb::ExecutionPlan* PteProgram::plan(size_t method) const {
  return file_.program->execution_plan()->Get(
      static_cast<flatbuffers::uoffset_t>(method));
}

const char* PteProgram::method_name(size_t method) const {
  const flatbuffers::String* name = plan(method)->name();
  return name ? name->c_str() : "";
}

Result<size_t> PteProgram::method_index(const char* name) const {
  char names[256];
  size_t used = 0;
  names[0] = '\0';
  for (size_t m = 0; m < num_methods(); ++m) {
    if (strcmp(method_name(m), name) == 0) {
      return m;
    }
    const int n = snprintf(names + used, sizeof(names) - used, "%s'%s'",
                           m ? ", " : "", method_name(m));
    used = n > 0 && used + static_cast<size_t>(n) < sizeof(names)
               ? used + static_cast<size_t>(n)
               : used;
  }
  return fail(Error::MethodMissing, "no method '%s' (the program has %s)", name,
              num_methods() ? names : "no methods");
}

size_t PteProgram::num_inputs(size_t method) const {
  const auto* inputs = plan(method)->inputs();
  return inputs ? inputs->size() : 0;
}

size_t PteProgram::num_outputs(size_t method) const {
  const auto* outputs = plan(method)->outputs();
  return outputs ? outputs->size() : 0;
}

Result<ValueInfo> PteProgram::input_info(size_t method, size_t index) const {
  TRI_CHECK(index < num_inputs(method), Error::InvalidArgument,
            "input %zu out of range", index);
  return describe_value(plan(method),
                        plan(method)->inputs()->Get(static_cast<flatbuffers::uoffset_t>(index)));
}

Result<ValueInfo> PteProgram::output_info(size_t method, size_t index) const {
  TRI_CHECK(index < num_outputs(method), Error::InvalidArgument,
            "output %zu out of range", index);
  return describe_value(plan(method),
                        plan(method)->outputs()->Get(static_cast<flatbuffers::uoffset_t>(index)));
}

size_t PteProgram::num_instructions(size_t method) const {
  const auto* chains = plan(method)->chains();
  if (chains == nullptr || chains->size() == 0) {
    return 0;
  }
  const auto* instructions = chains->Get(0)->instructions();
  return instructions ? instructions->size() : 0;
}

size_t PteProgram::num_planned_buffers(size_t method) const {
  if (plans_per_shape(method)) return 0;
  if (lifetime_offsets(method) != nullptr) return 1;
  // Entry 0 of non_const_buffer_sizes is reserved by ExecuTorch.
  const auto* sizes = plan(method)->non_const_buffer_sizes();
  return sizes && sizes->size() > 0 ? sizes->size() - 1 : 0;
}

Result<size_t> PteProgram::planned_buffer_size(size_t method,
                                               size_t index) const {
  TRI_CHECK(index < num_planned_buffers(method), Error::InvalidArgument,
            "planned buffer %zu out of range", index);
  if (lifetime_offsets(method) != nullptr) return static_cast<size_t>(lifetime_plans_[method].bytes);
  // check_planned_sizes() bounded every entry at load.
  return static_cast<size_t>(
      read_element(plan(method)->non_const_buffer_sizes(), index + 1));
}

const char* PteProgram::memory_plan(size_t method) const {
  if (plans_per_shape(method)) return "per-shape";
  return lifetime_offsets(method) != nullptr ? "lifetimes" : "file";
}

bool PteProgram::planned_initial_data(size_t method) const {
  const fb::ExecutionPlan* p = plan(method);
  if (p == nullptr || p->values() == nullptr) return false;
  for (const fb::EValue* v : *p->values()) {
    if (v == nullptr || v->val_type() != fb::KernelTypes::Tensor) continue;
    const fb::Tensor* t = v->val_as_Tensor();
    if (t == nullptr || t->allocation_info() == nullptr) continue;
    // Planned and filled at load: from a mutable data segment, or from a
    // .ptd (a training program's parameters).
    const fb::ExtraTensorInfo* extra = t->extra_tensor_info();
    if (t->data_buffer_idx() > 0 ||
        (extra != nullptr && extra->location() == fb::TensorDataLocation::EXTERNAL)) {
      return true;
    }
  }
  return false;
}

Result<uint64_t> PteProgram::plan_by_lifetimes(size_t method, Span<uint64_t> offsets,
                                               MemoryAllocator scratch) const {
  TRI_CHECK(method < num_methods(), Error::InvalidArgument, "method %zu out of range", method);
  return pte::plan_by_lifetimes(plan(method), offsets, scratch, options_.max_planned_bytes);
}

Error PteProgram::check_per_shape(size_t method, MemoryAllocator scratch,
                                  Span<uint8_t> views) const {
  TRI_CHECK(method < num_methods(), Error::InvalidArgument, "method %zu out of range", method);
  return pte::check_replannable(plan(method), scratch, views);
}

Result<ByteSpan> PteProgram::constant_data(uint32_t buffer_index,
                                           size_t nbytes) const {
  const fb::Program* p = file_.program;
  const auto* segment = p->constant_segment();
  if (segment != nullptr && segment->offsets() != nullptr &&
      segment->offsets()->size() > 0) {
    const auto* offsets = segment->offsets();
    TRI_CHECK(buffer_index < offsets->size(), Error::InvalidProgram,
              "constant %" PRIu32 " is not in constant_segment (%" PRIu32
              " entries)",
              buffer_index, offsets->size());
    TRI_ASSIGN_OR_RETURN(const ByteSpan data,
                         file_.segment(segment->segment_index()));
    const uint64_t offset = read_element(offsets, buffer_index);
    TRI_CHECK(offset <= data.size() && nbytes <= data.size() - offset,
              Error::InvalidProgram,
              "constant %" PRIu32 " [%" PRIu64 ", +%zu) lies outside "
              "constant segment %" PRIu32 " (%zu bytes)",
              buffer_index, offset, nbytes, segment->segment_index(),
              data.size());
    return ByteSpan(data.data() + offset, data.size() - offset);
  }
  const auto* buffers = p->constant_buffer();
  TRI_CHECK(buffers != nullptr && buffer_index < buffers->size(),
            Error::InvalidProgram,
            "constant %" PRIu32 " does not exist (the program has %" PRIu32
            " inline constant buffers and no constant segment)",
            buffer_index, buffers ? buffers->size() : 0);
  const auto* storage = buffers->Get(buffer_index)->storage();
  const size_t size = storage ? storage->size() : 0;
  TRI_CHECK(nbytes <= size, Error::InvalidProgram,
            "inline constant buffer %" PRIu32 " holds %zu bytes, the tensor "
            "needs %zu",
            buffer_index, size, nbytes);
  return ByteSpan(storage ? storage->data() : nullptr, size);
}

Result<ByteSpan> PteProgram::mutable_data(uint64_t segments_index,
                                          uint32_t buffer_index,
                                          size_t nbytes) const {
  const auto* all = file_.program->mutable_data_segments();
  TRI_CHECK(all != nullptr && segments_index < all->size(),
            Error::InvalidProgram,
            "mutable_data_segments[%" PRIu64 "] does not exist", segments_index);
  const auto* sub = all->Get(static_cast<flatbuffers::uoffset_t>(segments_index));
  const auto* offsets = sub->offsets();
  TRI_CHECK(offsets != nullptr && buffer_index < offsets->size(),
            Error::InvalidProgram,
            "mutable data %" PRIu32 " is not in mutable_data_segments[%" PRIu64
            "]",
            buffer_index, segments_index);
  TRI_ASSIGN_OR_RETURN(const ByteSpan data, file_.segment(sub->segment_index()));
  const uint64_t offset = read_element(offsets, buffer_index);
  TRI_CHECK(offset <= data.size() && nbytes <= data.size() - offset,
            Error::InvalidProgram,
            "mutable data %" PRIu32 " [%" PRIu64 ", +%zu) lies outside "
            "segment %" PRIu32 " (%zu bytes)",
            buffer_index, offset, nbytes, sub->segment_index(), data.size());
  return ByteSpan(data.data() + offset, nbytes);
}

Result<ByteSpan> PteProgram::delegate_data(uint32_t location,
                                           uint32_t index) const {
  if (location == static_cast<uint32_t>(fb::DataLocation::SEGMENT)) {
    return file_.segment(index);
  }
  const auto* inline_data = file_.program->backend_delegate_data();
  TRI_CHECK(inline_data != nullptr && index < inline_data->size(),
            Error::InvalidProgram,
            "inline delegate data %" PRIu32 " does not exist", index);
  const auto* data = inline_data->Get(index)->data();
  return ByteSpan(data ? data->data() : nullptr, data ? data->size() : 0);
}

Error PteProgram::check_dependencies(size_t method) const {
  TRI_CHECK(method < num_methods(), Error::InvalidArgument, "method %zu out of range", method);
  return check_method_dependencies(PteMethodSource(*this, method));
}

Result<MethodMemoryNeeds> PteProgram::memory_needs(size_t method, MemoryAllocator& trial,
                                                   MemoryAllocator& scratch,
                                                   const MethodLoadOptions& options) const {
  TRI_CHECK(method < num_methods(), Error::InvalidArgument, "method %zu out of range", method);
  return size_method(PteMethodSource(*this, method), trial, scratch, options);
}

Result<Method> PteProgram::load_method(size_t method, MemoryManager& memory,
                                       const MethodLoadOptions& options) const {
  TRI_CHECK(method < num_methods(), Error::InvalidArgument, "method %zu out of range", method);
  return build_method(PteMethodSource(*this, method), memory, options);
}

}  // namespace tri::pte
