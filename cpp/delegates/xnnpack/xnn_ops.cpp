#include "cpp/delegates/xnnpack/xnn_ops.h"

#include <cinttypes>

namespace tri::xnnpack {

const OpDef* find_op_def(NodeType type) {
  using Family = const OpDef* (*)(NodeType);
  const Family families[] = {&elementwise_op_def, &unary_op_def,   &gemm_op_def,
                             &conv_op_def,        &pooling_op_def, &shape_op_def,
                             &convert_op_def,     &attention_op_def};
  for (Family family : families) {
    if (const OpDef* def = family(type)) return def;
  }
  return nullptr;
}

Error resize_output(const Node& node, Value* values, int i, const int32_t* dims, int rank) {
  Value& v = out(node, values, i);
  const Span<const SizesType> sizes(dims, static_cast<size_t>(rank));
  size_t numel = 0;
  char text[96];
  TRI_CHECK(rank <= kMaxDims && checked_numel(sizes, &numel), Error::InvalidProgram,
            "output %d would have shape %s", i, format_sizes(sizes, text, sizeof(text)));
  const int32_t last = rank > 0 ? dims[rank - 1] : 1;
  size_t bytes = storage_bytes(v.dtype, numel, last);
  if (v.dtype == DType::QDInt8) {
    size_t row = 1;
    const int32_t nonbatch = v.quant.num_nonbatch_dims < rank ? v.quant.num_nonbatch_dims : rank;
    for (int32_t d = rank - nonbatch; d < rank; ++d) row *= static_cast<size_t>(dims[d]);
    bytes = qd8_params_offset(bytes) + (row == 0 ? 0 : numel / row) * 8;
  }
  TRI_CHECK(bytes <= v.capacity, Error::InvalidArgument,
            "output %d (value %" PRIu32 ") would have shape %s: %zu bytes, more than the %zu "
            "reserved for it (inputs beyond the shapes the graph was exported for?)",
            i, v.id, format_sizes(sizes, text, sizeof(text)), bytes, v.capacity);
  return v.tensor.init(scalar_type_of(v.dtype), sizes, {}, v.tensor.mutable_data(), v.capacity,
                       ShapeDynamism::DynamicBound);
}

Error expect_dtype(const Node& node, const Value& v, const char* what, DType a, DType b,
                   DType c) {
  TRI_CHECK(v.dtype == a || (b != DType::Invalid && v.dtype == b) ||
                (c != DType::Invalid && v.dtype == c),
            Error::NotSupported, "%s (value %" PRIu32 ") is %s; %s takes %s%s%s%s%s", what,
            v.id, dtype_name(v.dtype), node_type_name(node.type), dtype_name(a),
            b != DType::Invalid ? " or " : "", b != DType::Invalid ? dtype_name(b) : "",
            c != DType::Invalid ? " or " : "", c != DType::Invalid ? dtype_name(c) : "");
  return Error::Ok;
}

Error expect_constant(const Node& node, const Value& v, const char* what) {
  TRI_CHECK(v.kind == ValueKind::Constant, Error::NotSupported,
            "%s (value %" PRIu32 ") must be a constant: %s packs it at load", what, v.id,
            node_type_name(node.type));
  return Error::Ok;
}

Error expect_rank(const Node& node, const Value& v, const char* what, int rank) {
  // 4-bit weights keep their packed bytes in the tensor; their shape is the
  // declared one.
  const bool packed = v.dtype == DType::QCInt4 || v.dtype == DType::QBInt4;
  TRI_CHECK((packed ? v.declared_rank : v.rank()) == rank, Error::InvalidProgram, "%s (value %" PRIu32 ") has %d dims, %d expected",
            what, v.id, packed ? v.declared_rank : v.rank(), rank);
  return Error::Ok;
}

}  // namespace tri::xnnpack
