// The PT2 front end's Program: every model of the archive (models/<name>.json)
// lowered to a method that the shared interpreter runs. Load-time work uses
// the standard library; what it produces (tables, weights, one planned arena
// per method) is what the heap-free run path reads.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cpp/formats/pt2/host/lowered_method.h"
#include "cpp/formats/pt2/host/pt2_archive.h"
#include "cpp/formats/pt2/host/pt2_graph.h"
#include "cpp/formats/pt2/host/pt2_weights.h"
#include "cpp/formats/pt2/host/tensor_store.h"
#include "cpp/runtime/executor/program.h"

namespace tri::pt2 {

struct Pt2LoadOptions {
  uint64_t max_planned_bytes = uint64_t{1} << 30;
};

struct SampleValue {
  bool is_tensor = false;
  HostTensor tensor;
  int64_t integer = 0;
  double number = 0;
  char kind = 'N';  // 'T' tensor, 'I' int, 'D' double, 'B' bool, 'N' None
};

class Pt2Program final : public Program {
 public:
  // `bytes` must outlive the program (weights are read in place).
  static Result<std::unique_ptr<Pt2Program>> load(ByteSpan bytes, const Pt2LoadOptions& options);

  const char* format() const override { return "pt2"; }
  size_t num_methods() const override { return methods_.size(); }
  const char* method_name(size_t method) const override;
  Result<size_t> method_index(const char* name) const override;
  size_t num_inputs(size_t method) const override;
  Result<ValueInfo> input_info(size_t method, size_t index) const override;
  size_t num_outputs(size_t method) const override;
  Result<ValueInfo> output_info(size_t method, size_t index) const override;
  size_t num_instructions(size_t method) const override;
  size_t num_planned_buffers(size_t method) const override;
  Result<size_t> planned_buffer_size(size_t method, size_t index) const override;
  Result<MethodMemoryNeeds> memory_needs(size_t method, MemoryAllocator& trial,
                                         MemoryAllocator& scratch,
                                         const MethodLoadOptions& options) const override;
  Result<uint64_t> intermediate_bytes(size_t method) const override;
  const char* memory_plan(size_t) const override { return "lifetimes"; }
  Error check_input_shape(size_t method, size_t index, Span<const int32_t> shape) const override;
  bool mutates_input(size_t method, size_t index) const override;
  bool needs_replan(size_t method, size_t index, Span<const int32_t> shape) const override;
  // Any method may grow past its plan; .pt2 files keep everything anyway.
  bool may_replan(size_t) const override { return true; }
  Error replan(size_t method, size_t index, Span<const int32_t> shape) override;
  Error check_dependencies(size_t method) const override;
  Result<Method> load_method(size_t method, MemoryManager& memory,
                             const MethodLoadOptions& options) const override;

  Pt2Layout layout() const { return layout_; }
  // What inspection shows (pt2_inspect.h): a model's graph as the archive
  // has it, and its weights.
  const Pt2Graph& graph(size_t method) const { return sources_[method]->graph; }
  const Pt2Weights& weights(size_t method) const { return sources_[method]->weights; }
  const LoweredMethod& lowered(size_t method) const { return methods_[method]; }
  // The current value of a buffer the method's runs update (module state),
  // by fully qualified name; NotFound for any other name.
  Result<HostTensor> state(size_t method, const std::string& name) const;
  // The example inputs the archive stores for a method (its
  // data/sample_inputs record, flattened to the method's inputs).
  bool has_sample_inputs(size_t method) const { return has_samples_[method]; }
  const std::vector<SampleValue>& sample_inputs(size_t method) const { return samples_[method]; }

 private:
  Pt2Program() : store_(uint64_t{1} << 30) {}
  Error load_model(const Pt2Archive& archive, const Pt2ModelRecords& model);
  Result<LoweredMethod> lower(size_t model, const std::map<std::string, int64_t>& bounds);

  // What re-lowering a model needs: its graph, its weights, its module state
  // and the bounds it was last planned for.
  struct ModelSource {
    std::string name;
    Pt2Graph graph;
    Pt2Weights weights;
    std::map<std::string, HostTensor> state;
    std::map<std::string, int64_t> bounds;
  };

  Pt2LoadOptions options_;
  Pt2Layout layout_ = Pt2Layout::RawWeights;
  TensorStore store_;
  std::vector<LoweredMethod> methods_;
  std::vector<std::unique_ptr<ModelSource>> sources_;
  std::vector<std::vector<SampleValue>> samples_;
  std::vector<bool> has_samples_;
};

}  // namespace tri::pt2
