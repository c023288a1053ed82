// Constants of TFRT's Binary Executable Format, as TFRT's encoder writes it
// (tensorflow/runtime include/tfrt/bef/bef_encoding.h at 4ecc3a44; the public
// binary_executable_format.md is out of date in several places, see
// ../shared/corpus/bef/FORMAT-NOTES.md §12).
#pragma once

#include <cstdint>

namespace tri::bef {

constexpr uint8_t kMagic0 = 0x0B;
constexpr uint8_t kMagic1 = 0xEF;
constexpr uint8_t kFormatVersion = 0;

// Sections align by absolute address, so a file must sit at an address with
// at least this alignment for its attributes to be readable in place.
constexpr uint32_t kAttributeMaxAlignment = 8;

enum class SectionId : uint8_t {
  Strings = 0,
  Attributes = 1,
  Kernels = 2,
  Types = 3,
  FunctionIndex = 4,
  Functions = 5,
  LocationStrings = 6,
  Locations = 7,
  AttributeTypes = 8,
  AttributeNames = 9,
  RegisterTypes = 10,
};
constexpr uint32_t kNumSections = 11;

const char* section_name(SectionId id);

enum class FunctionKind : uint8_t {
  Async = 0,   // run by the dataflow executor
  Native = 1,  // a C++ callable looked up by name; no body in the file
  Sync = 2,    // run in block order by the sync interpreter
};

// The pseudo kernel #0 of every function carries dummy code and location
// words; its results are the synthetic "start" register and the arguments.
constexpr uint32_t kPseudoKernelCode = 0xABABABABu;
constexpr uint32_t kPseudoKernelLocation = 0xCDCDCDCDu;

// Words in a kernel record's header.
constexpr uint32_t kKernelHeaderWords = 6;

}  // namespace tri::bef
