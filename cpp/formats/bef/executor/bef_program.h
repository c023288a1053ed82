// A BEF file ready to run: the validated file plus, for every kernel code,
// the kernel function, and for every native function its C++ callable.
// Unknown kernel names fail here, at load, naming the kernel and the source
// location of its first use (TFRT's "unknown kernel name 'X'").
#pragma once

#include <cstdint>

#include "cpp/formats/bef/bef_file.h"
#include "cpp/formats/bef/bef_location.h"
#include "cpp/runtime/async/kernel_frame.h"

namespace tri::bef {

struct BefProgramOptions {
  // Kernels missing from the registry become kernels that fail with
  // "unsupported kernel 'X'" when they run, instead of failing the load. The
  // peer test runner uses this to run a file's supported functions.
  bool allow_unknown_kernels = false;
};

class BefProgram {
 public:
  // `load_error_location`, when given, receives where a load error points.
  static Result<BefProgram> open(Span<const uint8_t> bytes, MemoryAllocator& allocator,
                                 const BefProgramOptions& options = {},
                                 SourceLocation* load_error_location = nullptr);

  const BefFile& file() const { return file_; }
  async::KernelFn kernel(uint32_t code) const { return kernels_[code]; }
  bool kernel_is_unknown(uint32_t code) const { return unknown_[code] != 0; }
  async::NativeFn native_function(uint32_t function) const { return natives_[function]; }
  async::AttributeReader attributes() const { return async::AttributeReader(file_.attributes()); }
  SourceLocation location(uint32_t offset) const { return decode_location(file_, offset); }

  // Whether `function` (or a function it calls or holds as a region) uses a
  // kernel the registry does not have: such functions are "unsupported".
  // Returns the first unknown kernel's name, or nullptr.
  const char* first_unknown_kernel(uint32_t function) const;

 private:
  BefFile file_;
  Span<const async::KernelFn> kernels_;
  Span<const uint8_t> unknown_;
  Span<const async::NativeFn> natives_;
};

}  // namespace tri::bef
