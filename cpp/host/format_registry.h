// The file formats the runtime knows, each detected from its first bytes in
// this one place (the JavaScript API asks here too, through the bindings). A
// format is a sniff function and an open function that turns the bytes into
// a LoadedFile; adding one is a front end under cpp/formats/<format>/ and one
// line in format_registry.cpp (docs/ARCHITECTURE.md, "How to add a format").
#pragma once

#include <cstdint>
#include <memory>

#include "cpp/host/loaded_file.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"

namespace tri::host {

// Sniffers see at most this many leading bytes.
constexpr size_t kSniffBytes = 16;

struct OpenOptions {
  // Cap on the memory plan of any method (hostile files ask for anything).
  uint64_t max_planned_bytes = uint64_t{1} << 30;
  // Cap on what one run may execute (instructions, or a dataflow format's
  // kernels), so that a looping program cannot hang its host.
  uint64_t max_instructions_per_run = 100000000;
  // Make each method's memory plan again by lifetimes where the format
  // brings its own and that is safe (pte_lifetime_plan.h).
  bool plan_by_lifetimes = false;
  // Plan each method's memory at each run's shapes wherever that is safe
  // (pte_lifetime_plan.h, check_replannable); a method whose file plan is
  // over max_planned_bytes is planned so whenever it is safe, unless the
  // file's plan was asked for (neither this nor plan_by_lifetimes).
  bool plan_per_shape = false;
  // What messages about places in a text file call it (its path); nullptr
  // or "": "<input>.<ext>".
  const char* source_name = nullptr;
};

struct FileFormat {
  const char* id;           // "pte"
  const char* description;  // "ExecuTorch program (.pte)"
  // What identifies it, for the error that lists every format.
  const char* signature;    // "\"ET\" at byte 4"
  bool (*sniff)(ByteSpan head);
  // nullptr for a format this build recognizes but cannot run yet.
  Result<std::unique_ptr<LoadedFile>> (*open)(ByteSpan bytes, const OpenOptions& options);
};

struct DataFormat {
  const char* id;  // "ptd"
  const char* description;
  const char* signature;
  bool (*sniff)(ByteSpan head);
  Result<std::unique_ptr<LoadedDataFile>> (*open)(ByteSpan bytes);
};

Span<const FileFormat> file_formats();
Span<const DataFormat> data_formats();

// The format of `bytes` (only the first kSniffBytes are read); an error
// naming the first bytes and what each format expects when none matches.
Result<const FileFormat*> detect_format(ByteSpan bytes);

// Opens `bytes` in its format, or says why not (unknown, or recognized but
// not supported by this build).
Result<std::unique_ptr<LoadedFile>> open_file(ByteSpan bytes, const OpenOptions& options);
Result<std::unique_ptr<LoadedDataFile>> open_data_file(ByteSpan bytes);

}  // namespace tri::host
