// Reads of flatbuffer vector elements that may be misaligned. The verifier
// checks the alignment of table fields but only the 4-byte length prefix of
// vectors, and real exports do contain misaligned vectors of 8-byte elements
// (e.g. IntList items in xor.pte), so those are read byte-wise.
#pragma once

#include <cstddef>
#include <cstring>

#include "flatbuffers/flatbuffers.h"

namespace tri::pte {

template <typename T>
T read_element(const flatbuffers::Vector<T>* v, size_t index) {
  T value;
  memcpy(&value, v->Data() + index * sizeof(T), sizeof(T));
  return value;
}

}  // namespace tri::pte
