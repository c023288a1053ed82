#include "cpp/formats/bef/host/bef_instance.h"

#include <cstring>

#include "cpp/kernels/tfrt/register_tfrt_kernels.h"

namespace tri::bef {

BefInstance::BefInstance(size_t heap_bytes)
    : heap_bytes_(heap_bytes),
      heap_memory_(new uint8_t[heap_bytes]),
      heap_(heap_memory_.get(), heap_bytes),
      host_(heap_) {}

Result<std::unique_ptr<BefInstance>> BefInstance::open(const uint8_t* data, size_t size,
                                                       const BefInstanceOptions& options,
                                                       LoadErrorLocation* where) {
  register_tfrt_kernels();
  std::unique_ptr<BefInstance> instance(new BefInstance(options.heap_bytes));
  instance->bytes_.resize((size + 7) / 8);
  if (size != 0) std::memcpy(instance->bytes_.data(), data, size);
  instance->index_memory_.resize(size * kIndexBytesPerFileByte + kIndexBytesBase);
  MemoryAllocator index_allocator(instance->index_memory_.data(), instance->index_memory_.size());
  BefProgramOptions program_options;
  program_options.allow_unknown_kernels = options.allow_unknown_kernels;
  const Span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(instance->bytes_.data()), size);
  SourceLocation location;
  Result<BefProgram> program = BefProgram::open(bytes, index_allocator, program_options, &location);
  if (!program.ok()) {
    if (where != nullptr && location.filename != nullptr) {
      *where = LoadErrorLocation{location.filename, location.line, location.column};
    }
    return program.error();
  }
  instance->program_ = program.take();
  return instance;
}

}  // namespace tri::bef
