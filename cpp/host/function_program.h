// What a format whose programs are dataflow functions over async values
// (TFRT BEF) offers the host, in place of a Program of planned methods. The
// host (HostModel, the bindings, the JS API) talks to either kind through the
// same calls, so it still names no format: methods, their signatures, inputs,
// execute, outputs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cpp/host/method_graph.h"
#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/core/result.h"

namespace tri::host {

class FunctionProgram {
 public:
  virtual ~FunctionProgram() = default;

  // {"methods":[{"name","inputs":[{"kind","type"}],"outputs":[...]}]}, kinds
  // as HostModel::describe_json names them; "type" is the format's own type
  // name.
  virtual std::string describe_json() const = 0;
  // The functions' names, in describe_json's order (their indices).
  virtual const std::vector<std::string>& method_names() const = 0;
  // A scalar input (Int, Double, Bool, or None for a chain) for the next run.
  virtual Error set_input_scalar(const std::string& method, size_t index, const EValue& value) = 0;
  // Runs `method`; an error result fails with its message and the source
  // location of the kernel that reported it.
  virtual Error execute(const std::string& method) = 0;
  virtual Result<size_t> output_count(const std::string& method) = 0;
  // The output in HostModel::output_json's form; valid until the next run.
  virtual Result<std::string> output_json(const std::string& method, size_t index) = 0;
  // What the program's kernels printed (TFRT's tfrt.print.*) since the last
  // call, which empties it.
  virtual std::string take_printed() = 0;
  // How many bytes take_printed() would return (asking allocates nothing).
  virtual size_t printed_size() const = 0;
  // Inspection (method_graph.h): function `method`'s kernels, with the
  // functions they call nested.
  virtual Result<MethodGraph> graph(size_t method) const {
    return fail(Error::NotSupported, "this format does not describe its functions");
  }
};

}  // namespace tri::host
