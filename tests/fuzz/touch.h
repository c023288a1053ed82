// Reads every byte of a span the code under test handed out, so that one
// pointing outside its file or buffer trips ASan here, where it is found.
#pragma once

#include <cstddef>
#include <cstdint>

inline void touch_bytes(const uint8_t* data, size_t size) {
  uint8_t sum = 0;
  for (size_t i = 0; i < size; ++i) sum ^= data[i];
  volatile uint8_t sink = sum;
  (void)sink;
}
