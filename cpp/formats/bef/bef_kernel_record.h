// A view of one kernel record: fixed32 words, 4-aligned in the file.
//
//   header:  code, location, num_arguments, num_attributes, num_functions,
//            num_results
//   then:    num_results used-by counts,
//            arguments, attribute offsets, function indices, results,
//            and the used-by kernel indices grouped per result.
//
// BefFile validates every record when the file opens (sizes, register,
// attribute, function and kernel indices), so the accessors here do no checks.
#pragma once

#include <cstdint>

#include "cpp/formats/bef/bef_encoding.h"
#include "cpp/runtime/core/byte_reader.h"

namespace tri::bef {

class KernelRecord {
 public:
  KernelRecord() = default;
  explicit KernelRecord(const uint8_t* words) : words_(words) {}

  uint32_t code() const { return word(0); }
  uint32_t location() const { return word(1); }
  uint32_t num_arguments() const { return word(2); }
  uint32_t num_attributes() const { return word(3); }
  uint32_t num_functions() const { return word(4); }
  uint32_t num_results() const { return word(5); }

  uint32_t num_used_by(uint32_t result) const {
    return word(kKernelHeaderWords + result);
  }
  uint32_t argument(uint32_t i) const { return word(body_start() + i); }
  uint32_t attribute_offset(uint32_t i) const {
    return word(body_start() + num_arguments() + i);
  }
  uint32_t function_index(uint32_t i) const {
    return word(body_start() + num_arguments() + num_attributes() + i);
  }
  uint32_t result(uint32_t i) const {
    return word(body_start() + num_arguments() + num_attributes() +
                num_functions() + i);
  }
  // The kernels that use result `result`, as indices into the function's
  // kernel table; `first_used_by(result)` is where its group starts.
  uint32_t used_by(uint32_t result, uint32_t i) const {
    return word(used_by_start() + first_used_by(result) + i);
  }

  // Total words of the record, given that its counts were validated.
  uint64_t size_in_words() const {
    uint64_t total = used_by_start();
    for (uint32_t r = 0; r < num_results(); ++r) total += num_used_by(r);
    return total;
  }

 private:
  uint32_t word(uint64_t index) const { return read_u32_le(words_ + 4 * index); }
  uint64_t body_start() const { return kKernelHeaderWords + uint64_t{num_results()}; }
  uint64_t used_by_start() const {
    return body_start() + uint64_t{num_arguments()} + num_attributes() +
           num_functions() + num_results();
  }
  uint64_t first_used_by(uint32_t result) const {
    uint64_t first = 0;
    for (uint32_t r = 0; r < result; ++r) first += num_used_by(r);
    return first;
  }

  const uint8_t* words_ = nullptr;
};

}  // namespace tri::bef
