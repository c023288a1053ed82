// A BEF file as the host's FunctionProgram: its named functions are the
// methods load() shows, with kinds from their BEF types (i1 Bool, integers
// Int, floats Double, !tfrt.chain None, !tfrt.string String, tensors
// Tensor); execute() runs one like bef_executor does (results awaited, the
// queue drained) and keeps its results until the next run. An error result
// fails the run with TFRT's message and the failing kernel's file:line:col.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cpp/formats/bef/host/bef_instance.h"
#include "cpp/host/function_program.h"

namespace tri::bef {

class BefFunctions final : public host::FunctionProgram {
 public:
  // `kernel_budget` bounds the kernels one run may execute (0: no bound).
  BefFunctions(std::unique_ptr<BefInstance> instance, uint64_t kernel_budget);
  ~BefFunctions() override;

  std::string describe_json() const override;
  const std::vector<std::string>& method_names() const override { return order_; }
  Error set_input_scalar(const std::string& method, size_t index, const EValue& value) override;
  Error execute(const std::string& method) override;
  Result<size_t> output_count(const std::string& method) override;
  Result<std::string> output_json(const std::string& method, size_t index) override;
  std::string take_printed() override;
  size_t printed_size() const override { return printed_.size(); }
  Result<host::MethodGraph> graph(size_t method) const override;
  const BefFile& file() const { return instance_->program().file(); }

 private:
  struct Method {
    uint32_t function = 0;
    std::vector<EValue> inputs;
    std::vector<bool> inputs_set;
    std::vector<async::AsyncValue*> results;  // one reference each, from the last run
  };
  struct Diagnostic {
    std::string message;
    async::SourceLocation location;
  };

  Result<Method*> method(const std::string& name);
  const char* type_name(uint32_t type) const;
  void release_results(Method& m);
  static void collect(void* context, const async::Diagnostic& diagnostic);

  std::unique_ptr<BefInstance> instance_;
  uint64_t kernel_budget_;
  std::map<std::string, Method> methods_;
  std::vector<std::string> order_;  // FunctionIndex order
  std::vector<Diagnostic> diagnostics_;
  std::string printed_;  // what kernels printed (tfrt.print.*) since take_printed()
};

}  // namespace tri::bef
