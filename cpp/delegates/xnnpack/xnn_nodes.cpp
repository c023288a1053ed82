// Reading the XNNGraph's node tables into Node: value ids, the fused output
// range and each kind's parameters.
#include <cinttypes>

#include "cpp/delegates/xnnpack/xnn_graph.h"

namespace tri::xnnpack {
namespace {

const char* const kNodeNames[kMaxNodeType + 1] = {
    "NONE", "Add", "FullyConnected", "Softmax", "Sigmoid", "StaticTranspose", "Clamp",
    "Conv2d", "Div", "StaticResizeBilinear2D", "StaticConstantPad", "AvgPooling2d", "Minimum",
    "DepthwiseConv2d", "MaxPooling2d", "Multiply", "Subtract", "Floor", "Convert",
    "GlobalAvgPooling2d", "StaticReshape", "ArgMaxPooling2d", "SquareRoot", "Ceiling",
    "Hardswish", "LeakyReLU", "Maximum", "Negate", "Square", "ELU", "Abs", "PReLU",
    "Concatenate2", "Concatenate3", "Concatenate4", "StaticSlice", "ScaledDotProductAttention",
    "BatchMatrixMultiply", "Concatenate5", "ConvTranspose2d", "ReciprocalSquareRoot", "Log",
    "Gelu", "Tanh", "Exp", "Sin", "Copy", "Cos", "ApproxGelu"};

struct IdReader {
  size_t num_values;
  uint32_t index;
  NodeType type;

  // A value id the node must have.
  Error required(uint32_t id, const char* what, uint32_t* out) const {
    TRI_CHECK(id < num_values, Error::InvalidProgram,
              "node %" PRIu32 " (%s): %s is value %" PRIu32 " (the graph has %zu values)",
              index, node_type_name(type), what, id, num_values);
    *out = id;
    return Error::Ok;
  }
  // An id that may be absent (0xFFFFFFFF), such as a bias.
  Error optional(uint32_t id, const char* what, uint32_t* out) const {
    if (id == kInvalidId) {
      *out = kInvalidId;
      return Error::Ok;
    }
    return required(id, what, out);
  }
};

Error read_list(const flatbuffers::Vector<uint32_t>* v, const char* what, const IdReader& ids,
                uint8_t* rank, int64_t* out) {
  TRI_CHECK(v != nullptr, Error::InvalidProgram, "node %" PRIu32 " (%s): %s is missing",
            ids.index, node_type_name(ids.type), what);
  TRI_CHECK(v->size() <= static_cast<uint32_t>(kMaxDims), Error::InvalidProgram,
            "node %" PRIu32 " (%s): %s has %u entries (at most %d)", ids.index,
            node_type_name(ids.type), what, v->size(), kMaxDims);
  *rank = static_cast<uint8_t>(v->size());
  for (uint32_t i = 0; i < v->size(); ++i) out[i] = v->Get(i);
  return Error::Ok;
}

// One input, one output: most node tables.
Error read_io(uint32_t input, uint32_t output, uint32_t flags, const IdReader& ids, Node* node) {
  node->num_inputs = 1;
  node->num_outputs = 1;
  node->flags = flags;
  TRI_TRY(ids.required(input, "input", &node->inputs[0]));
  return ids.required(output, "output", &node->outputs[0]);
}

Error read_1x1(const fb::_XNNNode1x1* t, const IdReader& ids, Node* node) {
  return read_io(t->input_id(), t->output_id(), t->flags(), ids, node);
}

Error read_2x1(const fb::_XNNNode2x1* t, const IdReader& ids, Node* node) {
  node->num_inputs = 2;
  node->num_outputs = 1;
  node->flags = t->flags();
  TRI_TRY(ids.required(t->input1_id(), "input 1", &node->inputs[0]));
  TRI_TRY(ids.required(t->input2_id(), "input 2", &node->inputs[1]));
  return ids.required(t->output_id(), "output", &node->outputs[0]);
}

Error read_conv(const fb::_XNNNodeConv* t, const IdReader& ids, Node* node) {
  ConvParams& c = node->params.conv;
  c = {t->padding_top(),        t->padding_right(),         t->padding_bottom(),
       t->padding_left(),       t->kernel_height(),         t->kernel_width(),
       t->subsampling_height(), t->subsampling_width(),     t->dilation_height(),
       t->dilation_width(),     t->group_input_channels(),  t->group_output_channels(),
       t->groups(),             t->adjustment_height(),     t->adjustment_width()};
  node->num_inputs = 3;
  node->num_outputs = 1;
  node->flags = t->flags();
  TRI_TRY(ids.required(t->input1_id(), "input", &node->inputs[0]));
  TRI_TRY(ids.required(t->filter_id(), "filter", &node->inputs[1]));
  TRI_TRY(ids.optional(t->bias_id(), "bias", &node->inputs[2]));
  return ids.required(t->output_id(), "output", &node->outputs[0]);
}

Error read_pool(const fb::_XNNPooling2D* t, const IdReader& ids, Node* node) {
  node->params.pool = {t->padding_top(),    t->padding_right(),  t->padding_bottom(),
                       t->padding_left(),   t->pooling_height(), t->pooling_width(),
                       t->stride_height(),  t->stride_width(),   t->dilation_height(),
                       t->dilation_width()};
  return read_io(t->input_id(), t->output_id(), t->flags(), ids, node);
}

Error read_cat(const fb::_XNNCat* t, int n, const IdReader& ids, Node* node) {
  node->params.concat.axis = static_cast<int32_t>(t->axis());
  node->num_inputs = static_cast<uint8_t>(n);
  node->num_outputs = 1;
  node->flags = t->flags();
  const uint32_t in[5] = {t->input1_id(), t->input2_id(), t->input3_id(), t->input4_id(),
                          t->input5_id()};
  const char* names[5] = {"input 1", "input 2", "input 3", "input 4", "input 5"};
  for (int i = 0; i < n; ++i) TRI_TRY(ids.required(in[i], names[i], &node->inputs[i]));
  return ids.required(t->output_id(), "output", &node->outputs[0]);
}

// The table of a union member, or an error when the verifier let a type
// through without its table.
template <typename T>
Error table_of(const T* t, const IdReader& ids, const T** out) {
  TRI_CHECK(t != nullptr, Error::InvalidProgram, "node %" PRIu32 " (%s): its table is missing",
            ids.index, node_type_name(ids.type));
  *out = t;
  return Error::Ok;
}

}  // namespace

const char* node_type_name(NodeType type) {
  const int t = static_cast<int>(type);
  return t >= 0 && t <= kMaxNodeType ? kNodeNames[t] : "unknown";
}

Error read_node(const fb::XNode* xnode, uint32_t index, size_t num_values, Node* node) {
  TRI_CHECK(xnode != nullptr, Error::InvalidProgram, "node %" PRIu32 " is missing", index);
  const int raw = static_cast<int>(xnode->xnode_union_type());
  TRI_CHECK(raw >= 1 && raw <= kMaxNodeType, Error::NotSupported,
            "node %" PRIu32 " has XNNPACK node type %d, which this runtime does not know "
            "(the XN01 schema it reads ends at %d, %s)",
            index, raw, kMaxNodeType, kNodeNames[kMaxNodeType]);
  node->type = static_cast<NodeType>(raw);
  node->index = index;
  const IdReader ids{num_values, index, node->type};
  if (const fb::OutputMinMax* range = xnode->output_min_max()) {
    node->has_out_range = true;
    node->out_min = range->output_min();
    node->out_max = range->output_max();
    TRI_CHECK(!(node->out_min > node->out_max), Error::InvalidProgram,
              "node %" PRIu32 " (%s): output range [%g, %g] is empty", index,
              node_type_name(node->type), static_cast<double>(node->out_min),
              static_cast<double>(node->out_max));
  } else {
    node->out_min = -__builtin_inff();
    node->out_max = __builtin_inff();
  }
  switch (node->type) {
    case NodeType::Add:
    case NodeType::Div:
    case NodeType::Minimum:
    case NodeType::Multiply:
    case NodeType::Subtract:
    case NodeType::Maximum:
    case NodeType::PReLU:
    case NodeType::BatchMatrixMultiply: {
      const fb::_XNNNode2x1* t = nullptr;
      TRI_TRY(table_of(static_cast<const fb::_XNNNode2x1*>(xnode->xnode_union()), ids, &t));
      return read_2x1(t, ids, node);
    }
    case NodeType::Softmax:
    case NodeType::Sigmoid:
    case NodeType::Clamp:
    case NodeType::Floor:
    case NodeType::Convert:
    case NodeType::GlobalAvgPooling2d:
    case NodeType::SquareRoot:
    case NodeType::Ceiling:
    case NodeType::Hardswish:
    case NodeType::Negate:
    case NodeType::Square:
    case NodeType::Abs:
    case NodeType::ReciprocalSquareRoot:
    case NodeType::Log:
    case NodeType::Gelu:
    case NodeType::Tanh:
    case NodeType::Exp:
    case NodeType::Sin:
    case NodeType::Copy:
    case NodeType::Cos:
    case NodeType::ApproxGelu: {
      const fb::_XNNNode1x1* t = nullptr;
      TRI_TRY(table_of(static_cast<const fb::_XNNNode1x1*>(xnode->xnode_union()), ids, &t));
      return read_1x1(t, ids, node);
    }
    case NodeType::Conv2d:
    case NodeType::DepthwiseConv2d:
    case NodeType::ConvTranspose2d: {
      const fb::_XNNNodeConv* t = nullptr;
      TRI_TRY(table_of(static_cast<const fb::_XNNNodeConv*>(xnode->xnode_union()), ids, &t));
      return read_conv(t, ids, node);
    }
    case NodeType::AvgPooling2d:
    case NodeType::MaxPooling2d: {
      const fb::_XNNPooling2D* t = nullptr;
      TRI_TRY(table_of(static_cast<const fb::_XNNPooling2D*>(xnode->xnode_union()), ids, &t));
      return read_pool(t, ids, node);
    }
    case NodeType::Concatenate2:
    case NodeType::Concatenate3:
    case NodeType::Concatenate4:
    case NodeType::Concatenate5: {
      const fb::_XNNCat* t = nullptr;
      TRI_TRY(table_of(static_cast<const fb::_XNNCat*>(xnode->xnode_union()), ids, &t));
      const int n = node->type == NodeType::Concatenate2   ? 2
                    : node->type == NodeType::Concatenate3 ? 3
                    : node->type == NodeType::Concatenate4 ? 4
                                                           : 5;
      return read_cat(t, n, ids, node);
    }
    case NodeType::FullyConnected: {
      const fb::XNNFullyConnected* t = nullptr;
      TRI_TRY(table_of(xnode->xnode_union_as_XNNFullyConnected(), ids, &t));
      node->num_inputs = 3;
      node->num_outputs = 1;
      node->flags = t->flags();
      TRI_TRY(ids.required(t->input1_id(), "input", &node->inputs[0]));
      TRI_TRY(ids.required(t->filter_id(), "filter", &node->inputs[1]));
      TRI_TRY(ids.optional(t->bias_id(), "bias", &node->inputs[2]));
      return ids.required(t->output_id(), "output", &node->outputs[0]);
    }
    case NodeType::StaticTranspose: {
      const fb::XNNStaticTranspose* t = nullptr;
      TRI_TRY(table_of(xnode->xnode_union_as_XNNStaticTranspose(), ids, &t));
      DimLists& d = node->params.dims;
      TRI_TRY(read_list(t->perm(), "perm", ids, &d.rank, d.a));
      return read_io(t->input_id(), t->output_id(), t->flags(), ids, node);
    }
    case NodeType::StaticReshape: {
      const fb::XNNStaticReshape* t = nullptr;
      TRI_TRY(table_of(xnode->xnode_union_as_XNNStaticReshape(), ids, &t));
      DimLists& d = node->params.dims;
      TRI_TRY(read_list(t->new_shape(), "new_shape", ids, &d.rank, d.a));
      return read_io(t->input_id(), t->output_id(), t->flags(), ids, node);
    }
    case NodeType::StaticSlice: {
      const fb::XNNStaticSlice* t = nullptr;
      TRI_TRY(table_of(xnode->xnode_union_as_XNNStaticSlice(), ids, &t));
      DimLists& d = node->params.dims;
      uint8_t sizes_rank = 0;
      TRI_TRY(read_list(t->offsets(), "offsets", ids, &d.rank, d.a));
      TRI_TRY(read_list(t->sizes(), "sizes", ids, &sizes_rank, d.b));
      TRI_CHECK(sizes_rank == d.rank, Error::InvalidProgram,
                "node %" PRIu32 " (StaticSlice): %u offsets but %u sizes", index,
                static_cast<unsigned>(d.rank), static_cast<unsigned>(sizes_rank));
      return read_io(t->input_id(), t->output_id(), t->flags(), ids, node);
    }
    case NodeType::StaticConstantPad: {
      const fb::XNNStaticConstantPad* t = nullptr;
      TRI_TRY(table_of(xnode->xnode_union_as_XNNStaticConstantPad(), ids, &t));
      DimLists& d = node->params.scalar.dims;
      uint8_t post_rank = 0;
      TRI_TRY(read_list(t->pre_paddings(), "pre_paddings", ids, &d.rank, d.a));
      TRI_TRY(read_list(t->post_paddings(), "post_paddings", ids, &post_rank, d.b));
      TRI_CHECK(post_rank == d.rank, Error::InvalidProgram,
                "node %" PRIu32 " (StaticConstantPad): %u pre but %u post paddings", index,
                static_cast<unsigned>(d.rank), static_cast<unsigned>(post_rank));
      node->params.scalar.value = t->padding_value();
      return read_io(t->input_id(), t->output_id(), t->flags(), ids, node);
    }
    case NodeType::StaticResizeBilinear2D: {
      const fb::XNNStaticResizeBilinear2D* t = nullptr;
      TRI_TRY(table_of(xnode->xnode_union_as_XNNStaticResizeBilinear2D(), ids, &t));
      node->params.resize.new_h = t->new_height();
      node->params.resize.new_w = t->new_width();
      return read_io(t->input_id(), t->output_id(), t->flags(), ids, node);
    }
    case NodeType::ArgMaxPooling2d: {
      const fb::XNNArgMaxPooling2d* t = nullptr;
      TRI_TRY(table_of(xnode->xnode_union_as_XNNArgMaxPooling2d(), ids, &t));
      node->params.pool = {t->padding_top(),    t->padding_right(),  t->padding_bottom(),
                           t->padding_left(),   t->pooling_height(), t->pooling_width(),
                           t->pooling_height(), t->pooling_width(),  1,
                           1};
      node->num_inputs = 1;
      node->num_outputs = 2;
      node->flags = t->flags();
      TRI_TRY(ids.required(t->input_id(), "input", &node->inputs[0]));
      TRI_TRY(ids.required(t->output_value_id(), "value output", &node->outputs[0]));
      return ids.required(t->output_index_id(), "index output", &node->outputs[1]);
    }
    case NodeType::LeakyReLU: {
      const fb::XNNLeakyReLU* t = nullptr;
      TRI_TRY(table_of(xnode->xnode_union_as_XNNLeakyReLU(), ids, &t));
      node->params.scalar.value = t->negative_slope();
      return read_io(t->input_id(), t->output_id(), t->flags(), ids, node);
    }
    case NodeType::ELU: {
      const fb::XNNELU* t = nullptr;
      TRI_TRY(table_of(xnode->xnode_union_as_XNNELU(), ids, &t));
      node->params.scalar.value = t->alpha();
      return read_io(t->input_id(), t->output_id(), t->flags(), ids, node);
    }
    case NodeType::ScaledDotProductAttention: {
      const fb::XNNScaledDotProductAttention* t = nullptr;
      TRI_TRY(table_of(xnode->xnode_union_as_XNNScaledDotProductAttention(), ids, &t));
      node->num_inputs = 5;
      node->num_outputs = 1;
      node->flags = t->flags();
      TRI_TRY(ids.required(t->query_id(), "query", &node->inputs[0]));
      TRI_TRY(ids.required(t->key_id(), "key", &node->inputs[1]));
      TRI_TRY(ids.required(t->value_id(), "value", &node->inputs[2]));
      TRI_TRY(ids.required(t->scale_id(), "scale", &node->inputs[3]));
      TRI_TRY(ids.required(t->mask_id(), "mask", &node->inputs[4]));
      return ids.required(t->output_id(), "output", &node->outputs[0]);
    }
    case NodeType::None:
      break;
  }
  return fail(Error::NotSupported, "node %" PRIu32 " has XNNPACK node type %d", index, raw);
}

}  // namespace tri::xnnpack
