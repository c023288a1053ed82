// A method as the PT2 lowering produces it: plain tables of values,
// operators and kernel calls, with intermediates placed in one planned
// arena. LoweredMethodSource hands them to the core's method builder, which
// checks and assembles them like any format's (method_source.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cpp/runtime/executor/method_source.h"
#include "cpp/runtime/executor/program.h"

namespace tri::pt2 {

enum class TensorPlace : uint8_t {
  Constant,  // `data`: the archive, or memory the program owns (state)
  Planned,   // `offset` in planned buffer 0
};

struct LoweredTensor {
  ScalarType dtype = ScalarType::Float;
  std::vector<int32_t> sizes;
  ShapeDynamism dynamism = ShapeDynamism::Static;
  TensorPlace place = TensorPlace::Planned;
  uint8_t* data = nullptr;
  uint64_t offset = 0;
  uint64_t nbytes = 0;
};

struct LoweredValue {
  Tag tag = Tag::None;
  int64_t integer = 0;
  double number = 0;
  bool boolean = false;
  std::string text;
  std::vector<int32_t> items;  // IntList, TensorList, OptionalTensorList (-1 = None)
  std::vector<double> numbers;
  std::vector<uint8_t> booleans;
  LoweredTensor tensor;
};

struct LoweredCall {
  int32_t op = 0;
  std::vector<int32_t> args;
};

struct LoweredOperator {
  std::string name;      // "aten::add"
  std::string overload;  // "out"
};

// What an input's dimension may be: a number, or a symbol within its range
// (range_constraints); compound expressions are left to the kernels.
struct InputDim {
  bool symbolic = false;
  std::string symbol;  // "" for a compound expression
  int64_t min = 0;
  int64_t max = 0;     // the planned bound
  bool unbounded = false;  // the archive gives no upper bound; max is the plan's
};

struct LoweredMethod {
  std::string name;
  std::vector<LoweredValue> values;
  std::vector<LoweredOperator> operators;
  std::vector<LoweredCall> calls;
  // Graph node i became calls [node_calls[i], node_calls[i + 1]) (one entry
  // per node, and the end), for inspection.
  std::vector<int32_t> node_calls;
  std::vector<int32_t> inputs;
  std::vector<std::string> input_names;
  std::vector<std::vector<InputDim>> input_dims;
  std::vector<int32_t> outputs;
  // Method inputs the graph mutates (user_input_mutation): each run ends by
  // writing the new value into the input's slot.
  std::vector<size_t> mutated_inputs;
  // Buffers the graph mutates (module state), by FQN: the value whose
  // writable constant memory every run updates.
  std::map<std::string, int32_t> state;
  uint64_t planned_bytes = 0;
  // Every intermediate's bytes added up: what the plan saves is the difference.
  uint64_t unplanned_bytes = 0;
};

class LoweredMethodSource final : public MethodSource {
 public:
  explicit LoweredMethodSource(const LoweredMethod& method) : method_(method) {}

  const char* name() const override { return method_.name.c_str(); }
  size_t num_values() const override { return method_.values.size(); }
  Error build_values(const ValueBuildContext& context, Span<EValue> values) const override;
  Span<const int32_t> inputs() const override {
    return {method_.inputs.data(), method_.inputs.size()};
  }
  Span<const int32_t> outputs() const override {
    return {method_.outputs.data(), method_.outputs.size()};
  }
  size_t num_planned_buffers() const override { return method_.planned_bytes > 0 ? 1 : 0; }
  size_t num_operators() const override { return method_.operators.size(); }
  Result<OperatorRef> operator_at(size_t index) const override;
  size_t num_delegates() const override { return 0; }
  Result<DelegateRef> delegate_at(size_t index) const override;
  Result<CompileSpec> compile_spec_at(size_t delegate, size_t index) const override;
  size_t num_instructions() const override { return method_.calls.size(); }
  Result<InstructionRef> instruction_at(size_t index) const override;

 private:
  const LoweredMethod& method_;
};

// The declared kind, type and shape of value `index`, for signatures.
ValueInfo describe_lowered_value(const LoweredMethod& method, int32_t index);

}  // namespace tri::pt2
