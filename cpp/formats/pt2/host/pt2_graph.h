// The ExportedProgram JSON of one PT2 model, read into plain structs: the
// graph's nodes with their arguments still as JSON (the lowering reads them
// against each op's schema), tensor metadata, the signature and the range
// constraints. Both union encodings and schema versions 1-8 are accepted.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cpp/formats/pt2/host/pt2_json.h"
#include "cpp/runtime/core/scalar_type.h"

namespace tri::pt2 {

// One dimension (or stride): a number, or a symbol's sympy expression.
struct SymDim {
  bool symbolic = false;
  int64_t value = 0;  // the number, or the hint of a symbolic dim (-1 if none)
  std::string expr;
};

struct TensorMeta {
  ScalarType dtype = ScalarType::Float;
  std::vector<SymDim> sizes;
  std::vector<SymDim> strides;
  int64_t storage_offset = 0;
  bool is_static() const;
};

// An Argument union: its tag and its value.
struct Pt2Arg {
  std::string tag;
  const Json* value = nullptr;
};

struct Pt2NamedArg {
  std::string name;
  Pt2Arg arg;
};

struct Pt2Node {
  std::string target;  // "torch.ops.aten.add.Tensor"
  std::vector<Pt2NamedArg> inputs;
  std::vector<Pt2Arg> outputs;
};

enum class InputKind { UserInput, Parameter, Buffer, TensorConstant, ConstantInput, Token, CustomObj };
enum class OutputKind {
  UserOutput,
  BufferMutation,
  UserInputMutation,
  Token,
  LossOutput,
  GradientToParameter,
  GradientToUserInput,
  ParameterMutation,
};

struct Pt2InputSpec {
  InputKind kind = InputKind::UserInput;
  std::string name;    // the graph placeholder ("" for a constant input)
  std::string target;  // FQN of the parameter, buffer or constant
  bool persistent = true;
  Pt2Arg user_arg;     // UserInput: the argument as written
};

struct Pt2OutputSpec {
  OutputKind kind = OutputKind::UserOutput;
  Pt2Arg arg;          // the graph output
  std::string target;  // buffer or input mutated
};

struct RangeConstraint {
  int64_t min = 0;
  int64_t max = INT64_MAX;  // INT64_MAX when unbounded
};

struct Pt2Graph {
  std::shared_ptr<const Json> document;  // every Json* below points into it
  std::vector<Pt2Arg> inputs;
  std::vector<Pt2Arg> outputs;
  std::vector<Pt2Node> nodes;
  std::map<std::string, TensorMeta> tensor_values;
  std::vector<Pt2InputSpec> input_specs;
  std::vector<Pt2OutputSpec> output_specs;
  std::map<std::string, RangeConstraint> range_constraints;
  int64_t schema_major = 0;
  int64_t schema_minor = 0;
  std::string torch_version;
};

// Reads the model JSON `text` (named `what` in errors).
Result<Pt2Graph> read_graph(ByteSpan text, const std::string& what);

// A TensorMeta object (also used by the raw payload configs).
Result<TensorMeta> read_tensor_meta(const Json& meta, const std::string& where);
// The export schema's ScalarType numbers (not c10's).
Result<ScalarType> export_dtype(int64_t value, const std::string& where);
// A SymInt union of a TensorMeta ({"as_int": 4} or {"as_expr": ...}).
Result<SymDim> read_sym_dim(const Json& value, const std::string& where);
// An Argument union.
Result<Pt2Arg> read_argument(const Json& value, const std::string& where);

}  // namespace tri::pt2
