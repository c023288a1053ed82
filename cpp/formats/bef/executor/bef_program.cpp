#include "cpp/formats/bef/executor/bef_program.h"

#include <cstring>

namespace tri::bef {
namespace {

// Where the first kernel record with `code` is, as TFRT reports it.
SourceLocation first_use(const BefFile& file, uint32_t code) {
  for (uint32_t f = 0; f < file.num_functions(); ++f) {
    const FunctionEntry& entry = file.function(f);
    if (entry.kind == FunctionKind::Native) continue;
    for (uint32_t k = 1; k < entry.body.kernels.size(); ++k) {
      const KernelRecord record = entry.body.kernel(k);
      if (record.code() == code) return decode_location(file, record.location());
    }
  }
  return {};
}

void unsupported_kernel(async::KernelFrame& frame) {
  frame.report_error("this kernel is not supported by Trident");
}

}  // namespace

Result<BefProgram> BefProgram::open(Span<const uint8_t> bytes, MemoryAllocator& allocator,
                                    const BefProgramOptions& options,
                                    SourceLocation* load_error_location) {
  TRI_ASSIGN_OR_RETURN(BefFile file, BefFile::open(bytes, allocator));
  BefProgram program;
  program.file_ = file;
  const uint32_t num_codes = file.num_kernel_names();
  async::KernelFn* kernels = allocator.allocate_array<async::KernelFn>(num_codes);
  uint8_t* unknown = allocator.allocate_array<uint8_t>(num_codes);
  async::NativeFn* natives = allocator.allocate_array<async::NativeFn>(file.num_functions());
  if (kernels == nullptr || unknown == nullptr || natives == nullptr) {
    return fail(Error::MemoryAllocationFailed, "BEF kernel table: out of memory");
  }
  for (uint32_t code = 0; code < num_codes; ++code) {
    kernels[code] = async::find_kernel(file.kernel_name(code));
    unknown[code] = kernels[code] == nullptr ? 1 : 0;
    if (kernels[code] != nullptr) continue;
    if (!options.allow_unknown_kernels) {
      if (load_error_location != nullptr) *load_error_location = first_use(file, code);
      return fail(Error::OperatorMissing, "unknown kernel name '%s'", file.kernel_name(code));
    }
    kernels[code] = &unsupported_kernel;
  }
  for (uint32_t f = 0; f < file.num_functions(); ++f) {
    natives[f] = nullptr;
    const FunctionEntry& entry = file.function(f);
    if (entry.kind != FunctionKind::Native) continue;
    natives[f] = async::find_native_function(entry.name);
    if (natives[f] == nullptr) {
      return fail(Error::OperatorMissing, "unknown native function '%s'", entry.name);
    }
  }
  program.kernels_ = Span<const async::KernelFn>(kernels, num_codes);
  program.unknown_ = Span<const uint8_t>(unknown, num_codes);
  program.natives_ = Span<const async::NativeFn>(natives, file.num_functions());
  return program;
}

const char* BefProgram::first_unknown_kernel(uint32_t function) const {
  // Depth-first over reachable functions; a small fixed stack and a visited
  // bitmap bound the walk for any file.
  constexpr uint32_t kMaxFunctions = 4096;
  if (file_.num_functions() > kMaxFunctions) return nullptr;
  uint8_t visited[kMaxFunctions] = {};
  uint32_t stack[kMaxFunctions];
  uint32_t depth = 0;
  stack[depth++] = function;
  visited[function] = 1;
  while (depth > 0) {
    const FunctionEntry& entry = file_.function(stack[--depth]);
    if (entry.kind == FunctionKind::Native) continue;
    for (uint32_t k = 1; k < entry.body.kernels.size(); ++k) {
      const KernelRecord record = entry.body.kernel(k);
      if (unknown_[record.code()]) return file_.kernel_name(record.code());
      for (uint32_t i = 0; i < record.num_functions(); ++i) {
        const uint32_t callee = record.function_index(i);
        if (!visited[callee]) {
          visited[callee] = 1;
          stack[depth++] = callee;
        }
      }
    }
  }
  return nullptr;
}

}  // namespace tri::bef
