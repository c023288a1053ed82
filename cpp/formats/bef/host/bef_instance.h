// A BEF file loaded for running, as the driver and the host session both
// need it: the bytes copied to an 8-aligned home (BEF aligns by address),
// the index memory sized from the file, the program with its kernels
// resolved, and the executor's heap and host context.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cpp/formats/bef/executor/bef_program.h"
#include "cpp/runtime/async/host_context.h"
#include "cpp/runtime/core/free_list_allocator.h"

namespace tri::bef {

// Where a load error points, copied out of the file (whose bytes go away
// with the failed instance).
struct LoadErrorLocation {
  std::string filename;  // empty when the error has no location
  uint32_t line = 0;
  uint32_t column = 0;
};

struct BefInstanceOptions {
  bool allow_unknown_kernels = false;
  size_t heap_bytes = size_t{64} << 20;
};

class BefInstance {
 public:
  // `where`, when given, receives the source location a load error points
  // at (an unknown kernel's first use).
  static Result<std::unique_ptr<BefInstance>> open(const uint8_t* data, size_t size,
                                                   const BefInstanceOptions& options,
                                                   LoadErrorLocation* where = nullptr);
  BefInstance(const BefInstance&) = delete;
  BefInstance& operator=(const BefInstance&) = delete;

  const BefProgram& program() const { return program_; }
  async::HostContext& host() { return host_; }
  size_t heap_bytes() const { return heap_bytes_; }

 private:
  explicit BefInstance(size_t heap_bytes);

  std::vector<uint64_t> bytes_;
  std::vector<uint8_t> index_memory_;
  BefProgram program_;
  size_t heap_bytes_;
  std::unique_ptr<uint8_t[]> heap_memory_;
  FreeListAllocator heap_;
  async::HostContext host_;
};

}  // namespace tri::bef
