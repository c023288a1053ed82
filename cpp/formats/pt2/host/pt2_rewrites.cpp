// Training-IR composites (what torch.export.export writes by default) as
// calls of the out variants the kernel library has. Each rewrite reads the
// node's arguments against the composite's own ATen schema, so defaults work
// as for any op.
#include <cinttypes>

#include "cpp/formats/pt2/host/pt2_lowerer.h"

namespace tri::pt2 {
namespace {

// The node's single output name.
Result<std::string> single_output(Lowerer& l, const Pt2Node& node) {
  TRI_ASSIGN_OR_RETURN(std::vector<std::string> names, l.output_names(node, l.where()));
  TRI_CHECK(names.size() == 1 && !names[0].empty(), Error::InvalidProgram,
            "%s: expected one output, found %zu", l.where().c_str(), names.size());
  return names[0];
}

// A literal bool argument (training flags decide which kernel runs).
Result<bool> literal_bool(Lowerer& l, const AtenSchema& schema, const BoundArgs& bound,
                          const char* name) {
  TRI_ASSIGN_OR_RETURN(const int32_t v, l.argument(*schema.arg(name), bound));
  TRI_CHECK(l.value(v).tag == Tag::Bool, Error::InvalidProgram, "%s: '%s' is not a bool",
            l.where().c_str(), name);
  return l.value(v).boolean;
}

// Every argument of `schema` that `out` also takes, by name.
Result<ArgValues> shared_args(Lowerer& l, const AtenSchema& schema,
                                                  const BoundArgs& bound, const char* out) {
  const AtenSchema* o = find_out_schema(out);
  TRI_CHECK(o != nullptr, Error::Internal, "no schema for %s", out);
  ArgValues args;
  for (const SchemaArg& arg : o->args) {
    const SchemaArg* f = schema.arg(arg.name);
    if (arg.is_out || f == nullptr) continue;
    TRI_ASSIGN_OR_RETURN(args[arg.name], l.argument(*f, bound));
  }
  return args;
}

// The composite lowers to `out` with the same arguments (plus defaults) and
// the node's one output.
Error same_args(Lowerer& l, const AtenSchema& schema, const Pt2Node& node, const BoundArgs& bound,
                const char* out, ArgValues extra = {}) {
  TRI_ASSIGN_OR_RETURN(ArgValues args, shared_args(l, schema, bound, out));
  for (auto& [k, v] : extra) args[k] = v;
  TRI_ASSIGN_OR_RETURN(const std::string name, single_output(l, node));
  TRI_ASSIGN_OR_RETURN(const int32_t result, l.define_output(name));
  return l.emit(out, args, {result});
}

// reshape, flatten, unflatten: a view_copy to the shape the graph recorded.
Error as_view_copy(Lowerer& l, const AtenSchema& schema, const Pt2Node& node,
                   const BoundArgs& bound) {
  TRI_ASSIGN_OR_RETURN(const int32_t self, l.argument(*schema.arg("self"), bound));
  TRI_ASSIGN_OR_RETURN(const std::string name, single_output(l, node));
  TRI_ASSIGN_OR_RETURN(const int32_t result, l.define_output(name));
  std::vector<int64_t> sizes(l.value(result).tensor.sizes.begin(), l.value(result).tensor.sizes.end());
  return l.emit("aten::view_copy.out", {{"self", self}, {"size", l.int_list(sizes)}}, {result});
}

Error convolution(Lowerer& l, const AtenSchema& schema, const Pt2Node& node,
                  const BoundArgs& bound, size_t spatial) {
  TRI_ASSIGN_OR_RETURN(ArgValues args,
                       shared_args(l, schema, bound, "aten::convolution.out"));
  args["transposed"] = l.bool_value(false);
  args["output_padding"] = l.int_list(std::vector<int64_t>(spatial, 0));
  TRI_ASSIGN_OR_RETURN(const std::string name, single_output(l, node));
  TRI_ASSIGN_OR_RETURN(const int32_t result, l.define_output(name));
  return l.emit("aten::convolution.out", args, {result});
}

Error batch_norm(Lowerer& l, const AtenSchema& schema, const Pt2Node& node,
                 const BoundArgs& bound) {
  TRI_ASSIGN_OR_RETURN(const bool training, literal_bool(l, schema, bound, "training"));
  TRI_CHECK(!training, Error::NotSupported,
            "%s: batch_norm in training mode (export the model in eval mode, or decompose it "
            "with run_decompositions())",
            l.where().c_str());
  TRI_ASSIGN_OR_RETURN(ArgValues args,
                       shared_args(l, schema, bound, "aten::_native_batch_norm_legit_no_training.out"));
  TRI_ASSIGN_OR_RETURN(const std::string name, single_output(l, node));
  TRI_ASSIGN_OR_RETURN(const int32_t result, l.define_output(name));
  const ScalarType dtype = l.value(result).tensor.dtype;
  // Inference computes no batch statistics: the kernel leaves these empty.
  const int32_t mean = l.scratch_tensor(dtype, {0});
  const int32_t invstd = l.scratch_tensor(dtype, {0});
  return l.emit("aten::_native_batch_norm_legit_no_training.out", args, {result, mean, invstd});
}

// Training-mode batch norm of a decomposed graph: the running statistics
// are copied, updated in place by the kernel, and returned.
Error batch_norm_functional(Lowerer& l, const AtenSchema& schema, const Pt2Node& node,
                            const BoundArgs& bound) {
  TRI_ASSIGN_OR_RETURN(std::vector<std::string> names, l.output_names(node, l.where()));
  TRI_CHECK(names.size() == 5, Error::InvalidProgram, "%s: expected 5 outputs, found %zu",
            l.where().c_str(), names.size());
  std::vector<int32_t> outs;
  for (const std::string& n : names) {
    TRI_CHECK(!n.empty(), Error::NotSupported, "%s: an output written as None",
              l.where().c_str());
    TRI_ASSIGN_OR_RETURN(const int32_t v, l.define_output(n));
    outs.push_back(v);
  }
  TRI_ASSIGN_OR_RETURN(ArgValues args,
                       shared_args(l, schema, bound, "aten::_native_batch_norm_legit.out"));
  TRI_TRY(l.emit("aten::clone.out", {{"self", args["running_mean"]}}, {outs[3]}));
  TRI_TRY(l.emit("aten::clone.out", {{"self", args["running_var"]}}, {outs[4]}));
  args["running_mean"] = outs[3];
  args["running_var"] = outs[4];
  return l.emit("aten::_native_batch_norm_legit.out", args, {outs[0], outs[1], outs[2]});
}

Error layer_norm(Lowerer& l, const AtenSchema& schema, const Pt2Node& node,
                 const BoundArgs& bound) {
  TRI_ASSIGN_OR_RETURN(ArgValues args,
                       shared_args(l, schema, bound, "aten::native_layer_norm.out"));
  TRI_ASSIGN_OR_RETURN(const std::string name, single_output(l, node));
  TRI_ASSIGN_OR_RETURN(const int32_t result, l.define_output(name));
  const LoweredTensor& out = l.value(result).tensor;
  const size_t normalized = l.value(args["normalized_shape"]).items.size();
  TRI_CHECK(normalized <= out.sizes.size(), Error::InvalidProgram,
            "%s: normalized_shape has more dims than the input", l.where().c_str());
  // Mean and rstd: the outer dims, then ones.
  std::vector<int32_t> stats(out.sizes.begin(), out.sizes.end() - static_cast<std::ptrdiff_t>(normalized));
  stats.resize(out.sizes.size(), 1);
  const ScalarType dtype = out.dtype;
  const int32_t mean = l.scratch_tensor(dtype, stats);
  const int32_t rstd = l.scratch_tensor(dtype, stats);
  return l.emit("aten::native_layer_norm.out", args, {result, mean, rstd});
}

Error max_pool2d(Lowerer& l, const AtenSchema& schema, const Pt2Node& node,
                 const BoundArgs& bound) {
  TRI_ASSIGN_OR_RETURN(ArgValues args,
                       shared_args(l, schema, bound, "aten::max_pool2d_with_indices.out"));
  TRI_ASSIGN_OR_RETURN(const std::string name, single_output(l, node));
  TRI_ASSIGN_OR_RETURN(const int32_t result, l.define_output(name));
  const int32_t indices = l.scratch_tensor(ScalarType::Long, l.value(result).tensor.sizes);
  return l.emit("aten::max_pool2d_with_indices.out", args, {result, indices});
}

Error softmax(Lowerer& l, const AtenSchema& schema, const Pt2Node& node, const BoundArgs& bound,
              const char* out) {
  TRI_ASSIGN_OR_RETURN(const int32_t self, l.argument(*schema.arg("self"), bound));
  TRI_ASSIGN_OR_RETURN(const int32_t dim, l.argument(*schema.arg("dim"), bound));
  TRI_ASSIGN_OR_RETURN(const std::string name, single_output(l, node));
  TRI_ASSIGN_OR_RETURN(const int32_t result, l.define_output(name));
  TRI_CHECK(l.value(result).tensor.dtype == l.value(self).tensor.dtype, Error::NotSupported,
            "%s: softmax into another dtype", l.where().c_str());
  return l.emit(out, {{"self", self}, {"dim", dim}, {"half_to_float", l.bool_value(false)}},
                {result});
}

}  // namespace

Error Lowerer::rewrite(const std::string& op, const AtenSchema& schema, const Pt2Node& node,
                       const BoundArgs& bound, bool* handled) {
  *handled = true;
  Lowerer& l = *this;
  if (op == "aten::conv1d") return convolution(l, schema, node, bound, 1);
  if (op == "aten::conv2d") return convolution(l, schema, node, bound, 2);
  if (op == "aten::conv3d") return convolution(l, schema, node, bound, 3);
  if (op == "aten::batch_norm") return batch_norm(l, schema, node, bound);
  if (op == "aten::_native_batch_norm_legit_functional") {
    return batch_norm_functional(l, schema, node, bound);
  }
  if (op == "aten::layer_norm") return layer_norm(l, schema, node, bound);
  if (op == "aten::max_pool2d") return max_pool2d(l, schema, node, bound);
  if (op == "aten::softmax.int") return softmax(l, schema, node, bound, "aten::_softmax.out");
  if (op == "aten::log_softmax.int") {
    return softmax(l, schema, node, bound, "aten::_log_softmax.out");
  }
  if (op == "aten::adaptive_avg_pool2d") {
    return same_args(l, schema, node, bound, "aten::_adaptive_avg_pool2d.out");
  }
  if (op == "aten::contiguous") {
    TRI_ASSIGN_OR_RETURN(const int32_t self, l.argument(*schema.arg("self"), bound));
    TRI_ASSIGN_OR_RETURN(const std::string name, single_output(l, node));
    TRI_ASSIGN_OR_RETURN(const int32_t result, l.define_output(name));
    return l.emit("aten::clone.out", {{"self", self}}, {result});
  }
  if (op == "aten::dropout") {
    TRI_ASSIGN_OR_RETURN(const bool train, literal_bool(l, schema, bound, "train"));
    TRI_CHECK(!train, Error::NotSupported, "%s: dropout in training mode", l.where().c_str());
    TRI_ASSIGN_OR_RETURN(const int32_t input, l.argument(*schema.arg("input"), bound));
    TRI_ASSIGN_OR_RETURN(const std::string name, single_output(l, node));
    TRI_ASSIGN_OR_RETURN(const int32_t result, l.define_output(name));
    return l.emit("aten::alias_copy.out", {{"self", input}}, {result});
  }
  if (op == "aten::reshape" || op == "aten::flatten.using_ints" || op == "aten::unflatten.int") {
    return as_view_copy(l, schema, node, bound);
  }
  if (op == "aten::_assert_tensor_metadata") return Error::Ok;  // checked at load
  *handled = false;
  return Error::Ok;
}

}  // namespace tri::pt2
