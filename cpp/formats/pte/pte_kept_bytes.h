// How much of a .pte file a program still reads once its methods are loaded.
// Delegates whose backends pack or copy all they run on
// (Backend::runs_without_sources) read their blobs and the program's named
// data only at init; ExecuTorch writes those segments after the constant
// and mutable-data segments, so the file's tail can be freed after load and
// its weights are held once, packed.
#pragma once

#include <cstdint>

#include "cpp/formats/pte/pte_program.h"

namespace tri::pte {

// The length of the prefix that must stay: the program flatbuffer and every
// segment something may still read (constants, initial mutable data, blobs
// of backends that need them, and all named data when such a backend is
// present). The file's size when nothing can go.
uint64_t bytes_needed_after_init(const PteProgram& program);

}  // namespace tri::pte
