// Values as the bindings hand them to JavaScript on the run path: fixed
// binary records in the heap that JS reads with typed-array views, so a run
// formats no JSON and, once its tables have grown to size, allocates nothing.
// The same records describe a run's outputs, inputs read back after a run,
// and the arguments of kernels written in JavaScript.
//
// Layout (little-endian, 8-byte aligned, 112 bytes; js/src/native/
// value-descriptor.ts reads it by these offsets):
//   0  u32 kind      Tag, or kJsonValueKind
//   4  u32 dtype     ScalarType code (tensors)
//   8  u32 count     tensors: rank; String, Json: bytes; lists: items
//   12 u32 reserved
//   16 u64 address   tensor data, string bytes, list items
//   24 u64 nbytes    tensor bytes
//   32 i64 int_value Int, Bool (0/1)
//   40 f64 double_value
//   48 i32 sizes[16] tensor sizes
// List items: IntList int64[count], DoubleList float64[count], BoolList one
// byte each, TensorList / OptionalTensorList `count` records (None items as
// kind None).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/core/tensor.h"

namespace tri::host {

// A value a format hands over as JSON text (a TFRT function's results).
constexpr uint32_t kJsonValueKind = 255;

struct ValueDescriptor {
  uint32_t kind;
  uint32_t dtype;
  uint32_t count;
  uint32_t reserved;
  uint64_t address;
  uint64_t nbytes;
  int64_t int_value;
  double double_value;
  int32_t sizes[kTensorDimLimit];
};
static_assert(sizeof(ValueDescriptor) == 112, "js/src/native/value-descriptor.ts reads this layout");

// Records for a list of values, in storage that only grows: filling it with
// values no bigger than before allocates nothing.
class ValueDescriptorTable {
 public:
  // Describes values[i] in record i; tensor list items go after the last
  // value. `data_override[i]`, when given and not null, replaces tensor i's
  // data address (a row-major copy of a tensor stored in another order).
  // Returns the first record.
  const ValueDescriptor* fill(Span<const EValue* const> values,
                              const uint8_t* const* data_override = nullptr);
  // One record of kJsonValueKind per text; the texts must outlive the use.
  const ValueDescriptor* fill_json(const std::vector<std::string>& texts);

 private:
  ValueDescriptor* reserve(size_t records);
  std::vector<ValueDescriptor> records_;
};

}  // namespace tri::host
