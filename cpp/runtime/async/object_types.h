// Type ids of the Object payloads async kernels exchange. One table, so two
// kernel families never reuse an id (object_cast<T> checks it instead of
// RTTI).
#pragma once

#include <cstdint>

namespace tri::async {

enum ObjectTypeId : uint16_t {
  kStringObject = 1,
  kHostBufferObject = 2,
  kDenseHostTensorObject = 3,
  kTensorShapeObject = 4,
  kPartialTensorShapeObject = 5,
  kFixedRankShapeObject = 6,
  kAtomicI32Object = 7,
  kCoordinateObject = 8,
};

}  // namespace tri::async
