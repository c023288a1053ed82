// What a format's front end hands the host after opening a file: the Program
// the host runs, and whatever else the format carries (a bundled program's
// test cases). Host-side objects: they may own heap memory; the Program they
// expose runs without it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cpp/host/function_program.h"
#include "cpp/host/method_graph.h"
#include "cpp/runtime/core/named_data_map.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/executor/program.h"

namespace tri::host {

class LoadedFile {
 public:
  virtual ~LoadedFile() = default;
  // The id of the format that opened it ("pte", "bpte", ...).
  virtual const char* format() const = 0;
  // The file's program of planned methods; mutable because a format may
  // re-plan its memory (Program::replan) when inputs outgrow an unbounded
  // dimension. nullptr for a format that runs dataflow functions instead.
  virtual Program* program() = 0;
  // The file's functions, for a format whose programs are dataflow
  // functions over async values (BEF); nullptr otherwise.
  virtual FunctionProgram* functions() { return nullptr; }
  // Test cases embedded in the file (bundled programs); none by default.
  virtual size_t bundled_test_count() const { return 0; }
  // {"method","inputs","outputs"} in the CLI's JSON form.
  virtual Result<std::string> bundled_test_json(size_t index) const;
  // Example inputs the file stores for method `method` (a .pt2's
  // data/sample_inputs), as a JSON array of values in the CLI's form;
  // NotFound when the file has none.
  virtual Result<std::string> sample_inputs_json(size_t method) const;

  // Inspection (method_graph.h), for formats of planned methods: method
  // `method`'s graph as the file says it. `loaded` is the Method the host
  // built from it (its delegates describe their own graphs), or nullptr.
  virtual Result<MethodGraph> graph(size_t method, const Method* loaded) const;
  // The program's constant tensors (not the delegates': the host adds
  // those); `external` resolves tensors kept in data files (.ptd).
  virtual Result<std::vector<WeightInfo>> weights(const NamedDataMap* external) const;

  // How long a prefix of the file the program still reads once every method
  // is loaded and will not be loaded again; the rest may be freed (bytes
  // only delegates that pack what they run on read at init). SIZE_MAX: all.
  virtual size_t bytes_needed_after_init() const { return SIZE_MAX; }
};

// An external data file (tensors a program refers to by key).
class LoadedDataFile {
 public:
  virtual ~LoadedDataFile() = default;
  virtual const NamedDataMap& data() const = 0;
};

}  // namespace tri::host
