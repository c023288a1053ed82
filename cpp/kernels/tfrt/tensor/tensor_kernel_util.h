// Argument and result helpers shared by the tensor kernel files: typed reads
// of Object arguments that report a kernel error naming what was found, and
// the chain and object results TFRT's kernels return.
#pragma once

#include <cstdint>

#include "cpp/kernels/tfrt/kernel_util.h"
#include "cpp/kernels/tfrt/tensor/dense_host_tensor.h"

namespace tri::tfrt_kernels {

// "!t.tensor", "!ts.shape", ...: the MLIR type of an Object payload, for
// messages; "object" for ids this folder does not define.
const char* object_type_name(uint16_t type_id);

// What argument `i` holds, for messages: "i32", "!ts.shape", "an error"...
const char* argument_description(const AsyncValue* value);

// Argument `i` as a T, or nullptr after reporting "argument 1 is i32,
// expected !t.tensor".
template <typename T>
T* read_object(KernelFrame& frame, uint32_t i) {
  T* object = frame.argument(i)->get<T>();
  if (object == nullptr) {
    frame.report_error("argument %u is %s, expected %s", i,
                       argument_description(frame.argument(i)), object_type_name(T::kTypeId));
  }
  return object;
}

// A dense host tensor argument whose dtype must be `type` (the kernel name's
// dtype suffix); nullptr after reporting the mismatch.
DenseHostTensor* read_tensor(KernelFrame& frame, uint32_t i, ScalarType type);

// Reports last_error_message() as the kernel's error.
void report_last_error(KernelFrame& frame);

// Result `i` becomes a new concrete value holding `object` (the reference is
// passed on); a null object reports last_error_message() instead.
void set_object_result(KernelFrame& frame, uint32_t i, async::Object* object);

// Result `out` is the input chain `in` itself, as TFRT's `chain_out.Set(chain_in)`.
void forward_chain(KernelFrame& frame, uint32_t in, uint32_t out);

// Sets every result not yet set to a new chain.
void set_chain_results(KernelFrame& frame);

// "[2, 3]" in a caller's buffer, for messages.
const char* sizes_text(Span<const SizesType> sizes, char* buffer, size_t capacity);
const char* dims_text(const int64_t* dims, size_t rank, char* buffer, size_t capacity);

}  // namespace tri::tfrt_kernels
