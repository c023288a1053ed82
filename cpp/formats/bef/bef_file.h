// The BEF reader: header, sections, string/kernel/type tables, FunctionIndex
// and every function body, all validated when the file opens.
//
// The file's bytes stay where the caller put them (attributes are read in
// place, so the buffer must be 8-aligned, as TFRT requires); the decoded
// tables come from the MemoryAllocator the caller hands in. Decoded tables
// are bounded by the file's size: every count is checked against the bytes
// left before anything is allocated for it (see kIndexBytesPerFileByte).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/formats/bef/bef_encoding.h"
#include "cpp/formats/bef/bef_kernel_record.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"

namespace tri::bef {

// Enough allocator bytes per file byte for BefFile::open's tables, plus
// kIndexBytesBase. Each decoded uint32 comes from at least one VBR byte,
// and each table allocation from at least a few bytes of the file.
constexpr size_t kIndexBytesPerFileByte = 24;
constexpr size_t kIndexBytesBase = 4096;

struct KernelTableEntry {
  uint32_t offset = 0;        // bytes from the start of the kernel list
  uint32_t num_operands = 0;  // the executor's initial ready count
  uint32_t stream_id = 0;
};

// A decoded function header (FORMAT-NOTES §5).
struct FunctionBody {
  uint32_t location_offset = 0;
  uint32_t num_registers = 0;
  Span<const uint32_t> register_use_counts;
  Span<const KernelTableEntry> kernels;  // kernels[0] is the pseudo kernel
  Span<const uint32_t> result_registers;
  const uint8_t* kernel_list = nullptr;  // 4-aligned
  size_t kernel_list_size = 0;

  KernelRecord kernel(uint32_t index) const {
    return KernelRecord(kernel_list + kernels[index].offset);
  }
};

struct FunctionEntry {
  FunctionKind kind = FunctionKind::Async;
  uint32_t function_offset = 0;
  const char* name = "";  // "" for region functions
  Span<const uint32_t> argument_types;  // indices into the Types table
  Span<const uint32_t> result_types;
  FunctionBody body;  // empty for native functions
};

class BefFile {
 public:
  // Reads and validates `bytes`; kernel names are not resolved here (the
  // executor does that against its registry).
  static Result<BefFile> open(Span<const uint8_t> bytes, MemoryAllocator& allocator);

  bool has_section(SectionId id) const {
    return sections_[static_cast<uint32_t>(id)].data() != nullptr;
  }
  Span<const uint8_t> section(SectionId id) const {
    return sections_[static_cast<uint32_t>(id)];
  }

  // The NUL-terminated string at `offset` in Strings, or nullptr when the
  // offset is out of range or the string is unterminated.
  const char* string_at(uint32_t offset) const;

  uint32_t num_kernel_names() const { return static_cast<uint32_t>(kernel_names_.size()); }
  const char* kernel_name(uint32_t code) const { return kernel_names_[code]; }
  uint32_t num_types() const { return static_cast<uint32_t>(type_names_.size()); }
  const char* type_name(uint32_t index) const { return type_names_[index]; }

  uint32_t num_functions() const { return static_cast<uint32_t>(functions_.size()); }
  const FunctionEntry& function(uint32_t index) const { return functions_[index]; }
  // The index of the named function, or -1.
  int64_t find_function(const char* name) const;

  Span<const uint8_t> attributes() const { return section(SectionId::Attributes); }

 private:
  Span<const uint8_t> sections_[kNumSections];
  Span<const char* const> kernel_names_;
  Span<const char* const> type_names_;
  Span<const FunctionEntry> functions_;
};

}  // namespace tri::bef
