// XnnpackBackend: runs the XNNGraph payloads ExecuTorch's XNNPACK
// partitioner writes, with Trident's own kernels (no XNNPACK library).
#pragma once

#include "cpp/runtime/backend/backend.h"

namespace tri::xnnpack {

// The id programs name the backend by.
constexpr const char* kXnnpackBackendId = "XnnpackBackend";

const Backend& xnnpack_backend();

}  // namespace tri::xnnpack
