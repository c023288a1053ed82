// Whole-file reads for fuzzers that take a fixed companion file (a schema, a
// program); a missing file is the harness's mistake, so it aborts loudly.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

inline std::vector<uint8_t> read_whole_file(const char* what, const char* path) {
  FILE* f = std::fopen(path, "rb");
  if (f == nullptr) {
    std::fprintf(stderr, "%s: cannot open %s\n", what, path);
    std::abort();
  }
  std::vector<uint8_t> bytes;
  uint8_t buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) {
    bytes.insert(bytes.end(), buffer, buffer + n);
  }
  std::fclose(f);
  return bytes;
}
