// Reading the XNNGraph's values: dtype, dims, quantization, constant bytes
// and external ids, each checked against the payload.
#include <cinttypes>
#include <cmath>
#include <cstring>

#include "cpp/delegates/xnnpack/xnn_graph.h"

namespace tri::xnnpack {
namespace {

constexpr uint32_t kFlagExternalInput = 1;
constexpr uint32_t kFlagExternalOutput = 2;

bool supported_dtype(DType d) {
  switch (d) {
    case DType::F32:
    case DType::QInt8:
    case DType::QUInt8:
    case DType::QInt32:
    case DType::QCInt8:
    case DType::QCInt32:
    case DType::QCInt4:
    case DType::QDInt8:
    case DType::QBInt4: return true;
    default: return false;
  }
}

const char* raw_dtype_name(fb::XNNDatatype d) {
  const char* name = fb::EnumNameXNNDatatype(d);
  return name != nullptr && name[0] != '\0' ? name : "unknown";
}

// The bytes of constant `index`: in the payload's constant area (offset),
// the program's named data (named_key), or, without a header, the graph's
// own buffers.
Error constant_bytes(const XnnPayload& payload, const GraphReadOptions& options, uint32_t index,
                     ByteSpan* out) {
  const fb::XNNGraph* g = payload.graph;
  if (!payload.has_header) {
    const auto* buffers = g->constant_buffer();
    TRI_CHECK(buffers != nullptr && index < buffers->size(), Error::InvalidProgram,
              "constant %" PRIu32 " is not in the graph's %u constant buffers", index,
              buffers ? buffers->size() : 0u);
    const fb::Buffer* b = buffers->Get(index);
    TRI_CHECK(b != nullptr && b->storage() != nullptr, Error::InvalidProgram,
              "constant buffer %" PRIu32 " has no storage", index);
    *out = ByteSpan(b->storage()->data(), b->storage()->size());
    return Error::Ok;
  }
  const auto* table = g->constant_data();
  TRI_CHECK(table != nullptr && index < table->size(), Error::InvalidProgram,
            "constant %" PRIu32 " is not in the graph's %u constant_data entries", index,
            table ? table->size() : 0u);
  const fb::ConstantDataOffset* entry = table->Get(index);
  TRI_CHECK(entry != nullptr, Error::InvalidProgram, "constant_data[%" PRIu32 "] is missing",
            index);
  if (entry->named_key() != nullptr) {
    const flatbuffers::String* key = entry->named_key();
    TRI_CHECK(options.named_data != nullptr, Error::ExternalDataMissing,
              "constant %" PRIu32 " is named data ('%.64s') and no named data is available",
              index, key->c_str());
    Result<ByteSpan> data = options.named_data->get(Span<const char>(key->c_str(), key->size()));
    if (!data.ok()) {
      // A key no data file has: a file is missing, not broken.
      const Error code = data.error() == Error::NotFound ? Error::ExternalDataMissing : data.error();
      return add_context(code, "constant %" PRIu32 " ('%.64s')", index, key->c_str());
    }
    TRI_CHECK(data->size() >= entry->size(), Error::InvalidProgram,
              "constant %" PRIu32 " ('%.64s') declares %" PRIu64 " bytes, the named data has %zu",
              index, key->c_str(), entry->size(), data->size());
    *out = ByteSpan(data->data(), static_cast<size_t>(entry->size()));
    return Error::Ok;
  }
  const ByteSpan area = payload.constant_data;
  TRI_CHECK(entry->offset() <= area.size() && entry->size() <= area.size() - entry->offset(),
            Error::InvalidProgram,
            "constant %" PRIu32 " lies at [%" PRIu64 ", +%" PRIu64
            ") outside the payload's %zu bytes of constant data",
            index, entry->offset(), entry->size(), area.size());
  *out = ByteSpan(area.data() + entry->offset(), static_cast<size_t>(entry->size()));
  return Error::Ok;
}

// The named-data key of constant `index`, or "" (data in the payload).
const char* constant_key(const XnnPayload& payload, uint32_t index) {
  const auto* table = payload.has_header ? payload.graph->constant_data() : nullptr;
  if (table == nullptr || index >= table->size()) return "";
  const fb::ConstantDataOffset* entry = table->Get(index);
  return entry != nullptr && entry->named_key() != nullptr ? entry->named_key()->c_str() : "";
}

// Scales kept as constant `index` (count values of `size` bytes: fp32 or
// bf16), checked for length and alignment.
Error scale_buffer(const XnnPayload& payload, const GraphReadOptions& options, uint32_t index,
                   size_t count, size_t size, size_t position, const void** out) {
  ByteSpan bytes;
  TRI_TRY_CONTEXT(constant_bytes(payload, options, index, &bytes), "value %zu: scales", position);
  TRI_CHECK(bytes.size() >= count * size && reinterpret_cast<uintptr_t>(bytes.data()) % size == 0,
            Error::InvalidProgram,
            "value %zu: scales need %zu aligned %zu-byte values, constant %" PRIu32 " has %zu bytes",
            position, count, size, index, bytes.size());
  *out = bytes.data();
  return Error::Ok;
}

Error check_scales(const float* scales, size_t n, size_t position) {
  for (size_t i = 0; i < n; ++i) {
    float s;
    memcpy(&s, scales + i, sizeof(s));
    TRI_CHECK(std::isfinite(s) && s > 0, Error::InvalidProgram,
              "value %zu: quantization scale %zu is %g (must be finite and positive)",
              position, i, static_cast<double>(s));
  }
  return Error::Ok;
}

// bf16 block scales, as XNNPACK requires them: normal and positive.
Error check_bf16_scales(const uint16_t* scales, size_t n, size_t position) {
  for (size_t i = 0; i < n; ++i) {
    uint16_t h;
    memcpy(&h, scales + i, sizeof(h));
    const uint32_t bits = uint32_t{h} << 16;
    float s;
    memcpy(&s, &bits, sizeof(s));
    TRI_CHECK(std::isnormal(s) && s > 0, Error::InvalidProgram,
              "value %zu: bf16 block scale %zu is %g (must be normal and positive)", position, i,
              static_cast<double>(s));
  }
  return Error::Ok;
}

Error read_quant(const XnnPayload& payload, const GraphReadOptions& options,
                 const fb::XNNQuantizedTensorValue* q, size_t position, Value* v) {
  const int32_t rank = v->declared_rank;
  switch (q->quant_params_type()) {
    case fb::XNNQuantParams::PerTensorQuant: {
      const fb::PerTensorQuant* p = q->quant_params_as_PerTensorQuant();
      TRI_CHECK(p != nullptr, Error::InvalidProgram, "value %zu: PerTensorQuant table missing",
                position);
      TRI_CHECK(v->dtype == DType::QInt8 || v->dtype == DType::QUInt8 ||
                    v->dtype == DType::QInt32,
                Error::InvalidProgram, "value %zu: %s values cannot be quantized per tensor",
                position, dtype_name(v->dtype));
      v->quant.scale = p->scale();
      v->quant.zero_point = p->zero_point();
      TRI_TRY(check_scales(&v->quant.scale, 1, position));
      const int32_t lo = v->dtype == DType::QUInt8 ? 0 : -128;
      const int32_t hi = v->dtype == DType::QUInt8 ? 255 : 127;
      TRI_CHECK(v->dtype == DType::QInt32 || (p->zero_point() >= lo && p->zero_point() <= hi),
                Error::InvalidProgram, "value %zu: zero point %d is outside %s's range",
                position, static_cast<int>(p->zero_point()), dtype_name(v->dtype));
      return Error::Ok;
    }
    case fb::XNNQuantParams::PerChannelQuant: {
      const fb::PerChannelQuant* p = q->quant_params_as_PerChannelQuant();
      TRI_CHECK(p != nullptr, Error::InvalidProgram, "value %zu: PerChannelQuant table missing",
                position);
      TRI_CHECK(v->dtype == DType::QCInt8 || v->dtype == DType::QCInt32 ||
                    v->dtype == DType::QCInt4,
                Error::InvalidProgram, "value %zu: %s values cannot be quantized per channel",
                position, dtype_name(v->dtype));
      TRI_CHECK(p->channel_dim() >= 0 && p->channel_dim() < rank, Error::InvalidProgram,
                "value %zu: channel_dim %d of a rank-%d value", position,
                static_cast<int>(p->channel_dim()), rank);
      const uint32_t channels = static_cast<uint32_t>(v->declared_dims[p->channel_dim()]);
      v->quant.channel_dim = p->channel_dim();
      v->quant.zero_point = v->dtype == DType::QCInt4 ? 8 : 0;
      v->quant.num_scales = channels;
      if (p->scale_buffer_idx() != 0) {
        if (!options.resolve_constants) return Error::Ok;
        const void* data = nullptr;
        TRI_TRY(scale_buffer(payload, options, p->scale_buffer_idx(), channels, 4, position, &data));
        v->quant.scales = static_cast<const float*>(data);
      } else {
        TRI_CHECK(p->scale() != nullptr && p->scale()->size() == channels,
                  Error::InvalidProgram, "value %zu: %u scales for %" PRIu32 " channels",
                  position, p->scale() ? p->scale()->size() : 0u, channels);
        v->quant.scales = p->scale()->data();
      }
      return check_scales(v->quant.scales, channels, position);
    }
    case fb::XNNQuantParams::PerTokenDynamicQuant: {
      const fb::PerTokenDynamicQuant* p = q->quant_params_as_PerTokenDynamicQuant();
      TRI_CHECK(p != nullptr, Error::InvalidProgram,
                "value %zu: PerTokenDynamicQuant table missing", position);
      TRI_CHECK(v->dtype == DType::QDInt8, Error::InvalidProgram,
                "value %zu: %s values cannot be quantized per token", position,
                dtype_name(v->dtype));
      TRI_CHECK(p->num_nonbatch_dims() >= 1 && p->num_nonbatch_dims() <= (rank > 0 ? rank : 1),
                Error::InvalidProgram, "value %zu: %d non-batch dims of a rank-%d value",
                position, static_cast<int>(p->num_nonbatch_dims()), rank);
      v->quant.num_nonbatch_dims = p->num_nonbatch_dims();
      return Error::Ok;
    }
    case fb::XNNQuantParams::PerChannelGroupQuant: {
      const fb::PerChannelGroupQuant* p = q->quant_params_as_PerChannelGroupQuant();
      TRI_CHECK(p != nullptr, Error::InvalidProgram,
                "value %zu: PerChannelGroupQuant table missing", position);
      TRI_CHECK(v->dtype == DType::QBInt4 && rank == 2, Error::InvalidProgram,
                "value %zu: block quantization needs a rank-2 qbint4 value (got rank-%d %s)",
                position, rank, dtype_name(v->dtype));
      const int32_t oc = v->declared_dims[0];
      const int32_t ic = v->declared_dims[1];
      TRI_CHECK(p->group_size() > 0 && ic % p->group_size() == 0, Error::InvalidProgram,
                "value %zu: block size %d does not divide %d input channels", position,
                static_cast<int>(p->group_size()), static_cast<int>(ic));
      TRI_CHECK(p->channel_dim() == 0, Error::InvalidProgram,
                "value %zu: blockwise scales along dim %d (only 0 exists)", position,
                static_cast<int>(p->channel_dim()));
      const uint32_t count = static_cast<uint32_t>(oc) * static_cast<uint32_t>(ic / p->group_size());
      v->quant.block_size = p->group_size();
      v->quant.zero_point = 8;
      v->quant.num_scales = count;
      if (p->scale_buffer_idx() != 0) {
        TRI_CHECK(p->num_scales() == 0 || p->num_scales() == count, Error::InvalidProgram,
                  "value %zu: num_scales %u, %" PRIu32 " blocks expected", position,
                  p->num_scales(), count);
        if (!options.resolve_constants) return Error::Ok;
        const void* data = nullptr;
        TRI_TRY(scale_buffer(payload, options, p->scale_buffer_idx(), count, 2, position, &data));
        v->quant.bf16_scales = static_cast<const uint16_t*>(data);
        TRI_TRY(check_bf16_scales(v->quant.bf16_scales, count, position));
      } else if (p->scale_bf16() != nullptr && p->scale_bf16()->size() == count) {
        v->quant.bf16_scales = p->scale_bf16()->data();
        TRI_TRY(check_bf16_scales(v->quant.bf16_scales, count, position));
      } else {
        TRI_CHECK(p->scale() != nullptr && p->scale()->size() == count, Error::InvalidProgram,
                  "value %zu: %u block scales, %" PRIu32 " expected", position,
                  p->scale() ? p->scale()->size() : 0u, count);
        v->quant.scales = p->scale()->data();
        TRI_TRY(check_scales(v->quant.scales, count, position));
      }
      return Error::Ok;
    }
    default:
      return fail(Error::InvalidProgram, "value %zu: %s value without quantization parameters",
                  position, dtype_name(v->dtype));
  }
}

}  // namespace

Error read_value(const XnnPayload& payload, const GraphReadOptions& options, size_t position,
                 Span<Value> values) {
  const fb::XValue* xv = payload.graph->xvalues()->Get(static_cast<flatbuffers::uoffset_t>(position));
  TRI_CHECK(xv != nullptr, Error::InvalidProgram, "value %zu is missing", position);
  const fb::XNNTensorValue* tv = nullptr;
  const fb::XNNQuantizedTensorValue* qv = nullptr;
  switch (xv->xvalue_union_type()) {
    case fb::XValueUnion::XNNTensorValue:
      tv = xv->xvalue_union_as_XNNTensorValue();
      break;
    case fb::XValueUnion::XNNQuantizedTensorValue:
      qv = xv->xvalue_union_as_XNNQuantizedTensorValue();
      tv = qv ? qv->tensor_value() : nullptr;
      break;
    default:
      return fail(Error::InvalidProgram, "value %zu has no tensor (union type %d)", position,
                  static_cast<int>(xv->xvalue_union_type()));
  }
  TRI_CHECK(tv != nullptr, Error::InvalidProgram, "value %zu: its tensor table is missing",
            position);
  TRI_CHECK(tv->id_out() < values.size(), Error::InvalidProgram,
            "value %zu has id %" PRIu32 " (the graph has %zu values)", position, tv->id_out(),
            values.size());
  Value& v = values[tv->id_out()];
  TRI_CHECK(v.dtype == DType::Invalid, Error::InvalidProgram,
            "value %zu reuses id %" PRIu32, position, tv->id_out());
  const int raw = static_cast<int>(tv->datatype());
  TRI_CHECK(raw >= 1 && raw <= static_cast<int>(DType::QBInt4) &&
                supported_dtype(static_cast<DType>(raw)),
            Error::NotSupported, "value %zu: datatype %s (%d) is not supported", position,
            raw_dtype_name(tv->datatype()), raw);
  TRI_CHECK(tv->dq_datatype() == fb::XNNDatatype::xnn_datatype_invalid, Error::NotSupported,
            "value %zu: XN00 input quantization (dq_datatype %s) is not supported; re-export "
            "with a current ExecuTorch",
            position, raw_dtype_name(tv->dq_datatype()));
  v.dtype = static_cast<DType>(raw);
  v.id = tv->id_out();
  const auto* dims = tv->dims();
  const uint32_t rank = dims ? dims->size() : 0;
  TRI_CHECK(rank <= static_cast<uint32_t>(kMaxDims), Error::NotSupported,
            "value %zu has %" PRIu32 " dims (XNNPACK allows %d)", position, rank, kMaxDims);
  TRI_CHECK(tv->num_dims() == rank, Error::InvalidProgram,
            "value %zu: num_dims %" PRIu32 " but %" PRIu32 " dims", position, tv->num_dims(),
            rank);
  v.declared_rank = static_cast<uint8_t>(rank);
  for (uint32_t d = 0; d < rank; ++d) {
    const uint32_t size = dims->Get(d);
    TRI_CHECK(size <= 0x7FFFFFFFu, Error::InvalidProgram,
              "value %zu: dim %" PRIu32 " is %" PRIu32, position, d, size);
    v.declared_dims[d] = static_cast<int32_t>(size);
  }
  size_t numel = 0;
  TRI_CHECK(checked_numel(Span<const SizesType>(v.declared_dims, rank), &numel) &&
                strides_fit(Span<const SizesType>(v.declared_dims, rank)) &&
                numel <= (size_t{1} << 31) / 4,
            Error::InvalidProgram, "value %zu: its dims are too large", position);
  const bool is_quant_dtype = is_quantized(v.dtype);
  TRI_CHECK(is_quant_dtype == (qv != nullptr), Error::InvalidProgram,
            "value %zu: %s %s", position, dtype_name(v.dtype),
            qv ? "values are not quantized" : "values need quantization parameters");
  if (qv != nullptr) {
    TRI_TRY(read_quant(payload, options, qv, position, &v));
  }

  const uint32_t flags = tv->flags();
  TRI_CHECK((flags & ~(kFlagExternalInput | kFlagExternalOutput)) == 0, Error::InvalidProgram,
            "value %zu has flags 0x%" PRIx32 " (only external input 1 and output 2 exist)",
            position, flags);
  const int32_t last = rank > 0 ? v.declared_dims[rank - 1] : 1;
  const size_t bytes = storage_bytes(v.dtype, numel, last);
  if (flags != 0) {
    TRI_CHECK(tv->constant_buffer_idx() == 0, Error::InvalidProgram,
              "value %zu is both external and constant", position);
    TRI_CHECK(v.dtype != DType::QCInt4 && v.dtype != DType::QBInt4 && v.dtype != DType::QDInt8,
              Error::NotSupported, "value %zu: external %s values are not supported", position,
              dtype_name(v.dtype));
    v.kind = (flags & kFlagExternalInput) != 0 ? ValueKind::ExternalInput
                                                : ValueKind::ExternalOutput;
    v.external_id = tv->external_id();
  } else if (tv->constant_buffer_idx() != 0) {
    TRI_CHECK(v.dtype != DType::QDInt8, Error::InvalidProgram,
              "value %zu: qdint8 values are computed, they cannot be constants", position);
    v.kind = ValueKind::Constant;
    v.constant_key = constant_key(payload, tv->constant_buffer_idx());
    if (options.resolve_constants) {
      ByteSpan data;
      TRI_TRY_CONTEXT(constant_bytes(payload, options, tv->constant_buffer_idx(), &data),
                      "value %zu", position);
      TRI_CHECK(data.size() >= bytes, Error::InvalidProgram,
                "value %zu: its %s[%zu elements] need %zu bytes, constant %" PRIu32
                " has %zu",
                position, dtype_name(v.dtype), numel, bytes, tv->constant_buffer_idx(),
                data.size());
      const size_t align = bytes >= 4 && (v.dtype == DType::F32 || v.dtype == DType::QInt32 ||
                                          v.dtype == DType::QCInt32)
                               ? 4
                               : 1;
      TRI_CHECK(reinterpret_cast<uintptr_t>(data.data()) % align == 0, Error::InvalidProgram,
                "value %zu: constant %" PRIu32 " is not %zu-byte aligned", position,
                tv->constant_buffer_idx(), align);
      v.constant = data.data();
      v.constant_bytes = bytes;
    }
  }
  v.capacity = bytes;
  if (v.dtype == DType::QDInt8) {
    // The per-row (scale, zero point) pairs follow the data.
    size_t row = 1;
    for (uint32_t d = rank - static_cast<uint32_t>(v.quant.num_nonbatch_dims < static_cast<int32_t>(rank) ? v.quant.num_nonbatch_dims : static_cast<int32_t>(rank)); d < rank; ++d) {
      row *= static_cast<size_t>(v.declared_dims[d]);
    }
    const size_t rows = row == 0 ? 0 : numel / row;
    v.capacity = qd8_params_offset(bytes) + rows * 8;
  }
  return Error::Ok;
}

}  // namespace tri::xnnpack
