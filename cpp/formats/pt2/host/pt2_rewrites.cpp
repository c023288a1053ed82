// Training-IR composites (what torch.export.export writes by default) as
// calls of the out variants the kernel library has. Each rewrite reads the
// node's arguments against the composite's own ATen schema, so defaults work
// as for any op.
#include <cinttypes>
#include <cmath>
#include <limits>

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

// reshape (to its own shape argument, symbolic sizes included), flatten and
// unflatten (to the shape the graph recorded): a view_copy.
Error as_view_copy(Lowerer& l, const AtenSchema& schema, const Pt2Node& node,
                   const BoundArgs& bound) {
  TRI_ASSIGN_OR_RETURN(const int32_t self, l.argument(*schema.arg("self"), bound));
  TRI_ASSIGN_OR_RETURN(const std::string name, single_output(l, node));
  int32_t size = -1;
  if (schema.arg("shape") != nullptr) {
    TRI_ASSIGN_OR_RETURN(size, l.argument(*schema.arg("shape"), bound));
  } else {
    TRI_ASSIGN_OR_RETURN(const std::vector<int64_t> sizes, l.view_sizes(name));
    size = l.int_list(sizes);
  }
  TRI_ASSIGN_OR_RETURN(const int32_t result, l.define_output(name));
  return l.emit("aten::view_copy.out", {{"self", self}, {"size", size}}, {result});
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
  const ShapeDynamism dynamism = out.dynamism;
  const int32_t mean = l.scratch_tensor(dtype, stats, dynamism);
  const int32_t rstd = l.scratch_tensor(dtype, stats, dynamism);
  return l.emit("aten::native_layer_norm.out", args, {result, mean, rstd});
}

Error max_pool2d(Lowerer& l, const AtenSchema& schema, const Pt2Node& node,
                 const BoundArgs& bound) {
  TRI_ASSIGN_OR_RETURN(ArgValues args,
                       shared_args(l, schema, bound, "aten::max_pool2d_with_indices.out"));
  TRI_ASSIGN_OR_RETURN(const std::string name, single_output(l, node));
  TRI_ASSIGN_OR_RETURN(const int32_t result, l.define_output(name));
  const int32_t indices = l.scratch_tensor(ScalarType::Long, l.value(result).tensor.sizes,
                                           l.value(result).tensor.dynamism);
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

std::vector<int32_t> with_last_two(const std::vector<int32_t>& batch, int32_t a, int32_t b) {
  std::vector<int32_t> out = batch;
  out.push_back(a);
  out.push_back(b);
  return out;
}

std::vector<int64_t> as_int64(const std::vector<int32_t>& v) { return {v.begin(), v.end()}; }

// softmax(q kᵀ · scale + mask) v, as batched matmuls over the flattened
// batch dims: the ops an inference export decomposes it into.
Error scaled_dot_product_attention(Lowerer& l, const AtenSchema& schema, const Pt2Node& node,
                                   const BoundArgs& bound) {
  auto arg = [&](const char* name) { return l.argument(*schema.arg(name), bound); };
  TRI_ASSIGN_OR_RETURN(const int32_t q, arg("query"));
  TRI_ASSIGN_OR_RETURN(const int32_t k, arg("key"));
  TRI_ASSIGN_OR_RETURN(const int32_t v, arg("value"));
  TRI_ASSIGN_OR_RETURN(const int32_t mask, arg("attn_mask"));
  TRI_ASSIGN_OR_RETURN(const int32_t dropout, arg("dropout_p"));
  TRI_ASSIGN_OR_RETURN(const bool causal, literal_bool(l, schema, bound, "is_causal"));
  TRI_ASSIGN_OR_RETURN(const bool gqa, literal_bool(l, schema, bound, "enable_gqa"));
  TRI_ASSIGN_OR_RETURN(const int32_t scale_value, arg("scale"));
  TRI_CHECK(l.value(dropout).tag == Tag::Double && l.value(dropout).number == 0.0,
            Error::NotSupported, "%s: attention dropout (export in eval mode)", l.where().c_str());
  TRI_CHECK(!gqa, Error::NotSupported, "%s: grouped-query attention (enable_gqa)",
            l.where().c_str());
  for (int32_t t : {q, k, v}) {
    TRI_CHECK(l.value(t).tag == Tag::Tensor && l.value(t).tensor.sizes.size() >= 2,
              Error::InvalidProgram, "%s: query, key and value must be tensors of rank >= 2",
              l.where().c_str());
    TRI_CHECK(l.value(t).tensor.dynamism == ShapeDynamism::Static, Error::NotSupported,
              "%s: scaled_dot_product_attention on dynamic shapes is not supported yet",
              l.where().c_str());
  }
  const LoweredTensor& qt = l.value(q).tensor;
  const LoweredTensor& kt = l.value(k).tensor;
  const LoweredTensor& vt = l.value(v).tensor;
  const size_t rank = qt.sizes.size();
  TRI_CHECK(kt.sizes.size() == rank && vt.sizes.size() == rank, Error::NotSupported,
            "%s: query, key and value of different ranks", l.where().c_str());
  const std::vector<int32_t> batch(qt.sizes.begin(), qt.sizes.end() - 2);
  TRI_CHECK(std::vector<int32_t>(kt.sizes.begin(), kt.sizes.end() - 2) == batch &&
                std::vector<int32_t>(vt.sizes.begin(), vt.sizes.end() - 2) == batch,
            Error::NotSupported, "%s: key or value broadcast over the batch dims",
            l.where().c_str());
  const int32_t L = qt.sizes[rank - 2];
  const int32_t E = qt.sizes[rank - 1];
  const int32_t S = kt.sizes[rank - 2];
  const int32_t Ev = vt.sizes[rank - 1];
  TRI_CHECK(kt.sizes[rank - 1] == E && vt.sizes[rank - 2] == S, Error::InvalidProgram,
            "%s: query, key and value shapes do not agree", l.where().c_str());
  int32_t B = 1;
  for (int32_t b : batch) B *= b;
  const ScalarType dtype = qt.dtype;
  double scale = 1.0 / std::sqrt(static_cast<double>(E));
  if (l.value(scale_value).tag == Tag::Double) scale = l.value(scale_value).number;

  auto view = [&](int32_t from, const std::vector<int32_t>& sizes) -> Result<int32_t> {
    const int32_t to = l.scratch_tensor(l.value(from).tensor.dtype, sizes);
    TRI_TRY(l.emit("aten::view_copy.out", {{"self", from}, {"size", l.int_list(as_int64(sizes))}},
                   {to}));
    return to;
  };
  TRI_ASSIGN_OR_RETURN(const int32_t q3, view(q, {B, L, E}));
  TRI_ASSIGN_OR_RETURN(const int32_t k3, view(k, {B, S, E}));
  const int32_t k3t = l.scratch_tensor(dtype, {B, E, S});
  TRI_TRY(l.emit("aten::transpose_copy.int_out",
                 {{"self", k3}, {"dim0", l.int_value(1)}, {"dim1", l.int_value(2)}}, {k3t}));
  const int32_t scores3 = l.scratch_tensor(dtype, {B, L, S});
  TRI_TRY(l.emit("aten::bmm.out", {{"self", q3}, {"mat2", k3t}}, {scores3}));
  const int32_t scaled3 = l.scratch_tensor(dtype, {B, L, S});
  TRI_TRY(l.emit("aten::mul.Scalar_out", {{"self", scores3}, {"other", l.double_value(scale)}},
                 {scaled3}));
  // Masks broadcast against the scores' own batch dims.
  const std::vector<int32_t> scores_shape = with_last_two(batch, L, S);
  TRI_ASSIGN_OR_RETURN(int32_t scores, view(scaled3, scores_shape));
  // Masks: a float mask adds; a bool mask (and is_causal) keeps where true.
  auto keep_where = [&](int32_t keep) -> Error {
    const int32_t dropped = l.scratch_tensor(ScalarType::Bool, l.value(keep).tensor.sizes);
    TRI_TRY(l.emit("aten::logical_not.out", {{"self", keep}}, {dropped}));
    const int32_t filled = l.scratch_tensor(dtype, scores_shape);
    TRI_TRY(l.emit("aten::masked_fill.Scalar_out",
                   {{"self", scores}, {"mask", dropped},
                    {"value", l.double_value(-std::numeric_limits<double>::infinity())}},
                   {filled}));
    scores = filled;
    return Error::Ok;
  };
  if (causal) {
    TRI_ASSIGN_OR_RETURN(HostTensor tril, l.store().zeros(ScalarType::Bool, {L, S}, "causal mask"));
    for (int32_t i = 0; i < L; ++i) {
      for (int32_t j = 0; j <= i && j < S; ++j) tril.data[static_cast<size_t>(i) * S + j] = 1;
    }
    TRI_ASSIGN_OR_RETURN(const int32_t keep, l.constant(tril));
    TRI_TRY(keep_where(keep));
  }
  if (l.value(mask).tag == Tag::Tensor) {
    if (l.value(mask).tensor.dtype == ScalarType::Bool) {
      TRI_TRY(keep_where(mask));
    } else {
      const int32_t added = l.scratch_tensor(dtype, scores_shape);
      TRI_TRY(l.emit("aten::add.out", {{"self", scores}, {"other", mask}}, {added}));
      scores = added;
    }
  }
  const int32_t probs = l.scratch_tensor(dtype, scores_shape);
  TRI_TRY(l.emit("aten::_softmax.out",
                 {{"self", scores}, {"dim", l.int_value(-1)}, {"half_to_float", l.bool_value(false)}},
                 {probs}));
  TRI_ASSIGN_OR_RETURN(const int32_t probs3, view(probs, {B, L, S}));
  TRI_ASSIGN_OR_RETURN(const int32_t v3, view(v, {B, S, Ev}));
  const int32_t out3 = l.scratch_tensor(dtype, {B, L, Ev});
  TRI_TRY(l.emit("aten::bmm.out", {{"self", probs3}, {"mat2", v3}}, {out3}));
  TRI_ASSIGN_OR_RETURN(const std::string name, single_output(l, node));
  TRI_ASSIGN_OR_RETURN(const int32_t result, l.define_output(name));
  return l.emit("aten::view_copy.out",
                {{"self", out3}, {"size", l.int_list(as_int64(l.value(result).tensor.sizes))}},
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
  if (op == "aten::scaled_dot_product_attention") {
    return scaled_dot_product_attention(l, schema, node, bound);
  }
  if (op == "aten::_assert_tensor_metadata") return Error::Ok;  // checked at load
  *handled = false;
  return Error::Ok;
}

}  // namespace tri::pt2
