// The lowering's working state, shared by pt2_lower.cpp (signature, generic
// functional -> out lowering, planning) and pt2_rewrites.cpp (composites).
// Internal to the PT2 front end.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "cpp/formats/pt2/host/aten_schema.h"
#include "cpp/formats/pt2/host/pt2_lower.h"

namespace tri::pt2 {

// A node's arguments by schema name, as written (absent = default).
using BoundArgs = std::map<std::string, Pt2Arg>;
// Values for an out variant's arguments, by schema name.
using ArgValues = std::map<std::string, int32_t>;

class Lowerer {
 public:
  explicit Lowerer(const LoweringInputs& in) : in_(in), graph_(*in.graph) {}
  Result<LoweredMethod> run();

  // --- used by the rewrites ---
  // The value of schema argument `arg` as the node gives it (or its default).
  Result<int32_t> argument(const SchemaArg& arg, const BoundArgs& bound);
  // A new planned tensor for the node output called `name`.
  Result<int32_t> define_output(const std::string& name);
  // A new planned tensor no graph value names (an out the graph drops).
  int32_t scratch_tensor(ScalarType dtype, const std::vector<int32_t>& sizes,
                         ShapeDynamism dynamism = ShapeDynamism::Static);
  // The sizes a view op must produce for graph value `name`: its static
  // dims, and -1 for its one symbolic dim (the kernel infers it).
  Result<std::vector<int64_t>> view_sizes(const std::string& name);
  // A constant tensor the lowering makes (owned by the program's store).
  Result<int32_t> constant(const HostTensor& tensor);
  TensorStore& store() { return *in_.store; }
  int32_t int_value(int64_t v);
  int32_t double_value(double v);
  int32_t bool_value(bool v);
  int32_t int_list(const std::vector<int64_t>& items);
  // Emits a call of out variant `schema`: its non-out arguments from `args`
  // by name (missing ones at their defaults), then `outs`, then the returns.
  Error emit(const AtenSchema& schema, const ArgValues& args,
             const std::vector<int32_t>& outs);
  Error emit(const char* out_name, const ArgValues& args,
             const std::vector<int32_t>& outs);
  const LoweredValue& value(int32_t index) const { return method_.values[static_cast<size_t>(index)]; }
  // The node output names (as_tensor / as_tensors items; "" for as_none).
  Result<std::vector<std::string>> output_names(const Pt2Node& node, const std::string& where);
  const std::string& where() const { return where_; }

 private:
  struct Planned {
    int32_t value;
    int32_t first;
    int32_t last;
    int32_t reuse_value = -1;
  };

  Error bind_symbols();
  Result<std::vector<int32_t>> planned_sizes(const TensorMeta& meta, const std::string& name,
                                             bool* dynamic);
  Result<int32_t> sym_int(const Json& value, const std::string& where);
  // Symbolic-int nodes (sym_size, Python operators on sizes) and run-time
  // assertions; false when `node` is none of them.
  Result<bool> lower_sym_node(const Pt2Node& node);
  Error bind_signature();
  Error lower_node(const Pt2Node& node, size_t index);
  Error missing(const std::string& op, const Pt2Node& node, size_t index);
  Error lower_generic(const OpLowering& lowering, const Pt2Node& node, const BoundArgs& bound);
  Error rewrite(const std::string& op, const AtenSchema& schema, const Pt2Node& node,
                const BoundArgs& bound, bool* handled);
  Error bind_outputs();
  Error plan();

  Result<int32_t> tensor_named(const std::string& name, const std::string& where);
  Result<int32_t> constant_tensor(const HostTensor& t, const std::string& placeholder,
                                  const std::string& what);
  Result<int32_t> default_value(const SchemaArg& arg);
  Result<int32_t> given_value(const SchemaArg& arg, const Pt2Arg& given);
  int32_t add_value(LoweredValue v);
  int32_t operator_index(const std::string& full_name);
  void use(int32_t value);

  const LoweringInputs& in_;
  const Pt2Graph& graph_;
  LoweredMethod method_;
  std::map<std::string, int32_t> tensors_;  // graph value name -> value
  std::map<std::string, int32_t> sym_ints_;  // symbolic int name -> Int value
  std::map<std::string, int64_t> sym_max_;   // symbol -> planning bound
  std::map<std::string, int64_t> sym_min_;
  std::set<std::string> unbounded_;
  std::map<std::string, int32_t> operators_;
  std::map<int32_t, size_t> planned_index_;  // value -> planned_
  std::vector<Planned> planned_;
  std::map<std::string, int32_t> state_values_;  // mutated buffer FQN -> value
  std::set<std::string> mutated_buffers_;
  std::vector<std::string> missing_;
  std::string where_;
};

}  // namespace tri::pt2
