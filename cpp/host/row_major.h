// Callers (JS, the CLI, tests) exchange tensor bytes in row-major order; a
// tensor in the runtime may be stored in another dim order (channels-last).
// These copy between the two.
#pragma once

#include <cstdint>

#include "cpp/runtime/core/tensor.h"

namespace tri::host {

// Writes t's elements to dst in row-major order (t.nbytes() bytes).
void copy_to_row_major(const Tensor& t, uint8_t* dst);
// Reads t.nbytes() row-major bytes from src into t's storage order.
void copy_from_row_major(const uint8_t* src, Tensor& t);

}  // namespace tri::host
