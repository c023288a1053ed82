#include "cpp/delegates/xnnpack/xnn_value.h"

namespace tri::xnnpack {

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::Invalid: return "invalid";
    case DType::F32: return "fp32";
    case DType::F16: return "fp16";
    case DType::QInt8: return "qint8";
    case DType::QUInt8: return "quint8";
    case DType::QInt32: return "qint32";
    case DType::QCInt8: return "qcint8";
    case DType::QCInt32: return "qcint32";
    case DType::QCInt4: return "qcint4";
    case DType::QDInt8: return "qdint8";
    case DType::QBInt4: return "qbint4";
  }
  return "unknown";
}

ScalarType scalar_type_of(DType dtype) {
  switch (dtype) {
    case DType::F32: return ScalarType::Float;
    case DType::F16: return ScalarType::Half;
    case DType::QInt8:
    case DType::QCInt8:
    case DType::QDInt8: return ScalarType::Char;
    case DType::QInt32:
    case DType::QCInt32: return ScalarType::Int;
    default: return ScalarType::Byte;
  }
}

bool is_quantized(DType dtype) { return dtype != DType::F32 && dtype != DType::F16; }

size_t storage_bytes(DType dtype, size_t numel, int32_t last_dim) {
  switch (dtype) {
    case DType::QCInt4:
    case DType::QBInt4: {
      if (last_dim <= 0) return 0;
      const size_t rows = numel / static_cast<size_t>(last_dim);
      return rows * ((static_cast<size_t>(last_dim) + 1) / 2);
    }
    case DType::QInt8:
    case DType::QUInt8:
    case DType::QCInt8:
    case DType::QDInt8: return numel;
    case DType::F16: return numel * 2;
    default: return numel * 4;
  }
}

void qd8_rows(const Value& v, size_t* rows, size_t* row_size) {
  size_t row = 1;
  const int32_t rank = v.rank();
  const int32_t nonbatch = v.quant.num_nonbatch_dims < rank ? v.quant.num_nonbatch_dims : rank;
  for (int32_t d = rank - nonbatch; d < rank; ++d) row *= static_cast<size_t>(v.dim(d));
  *row_size = row;
  *rows = row == 0 ? 0 : v.numel() / row;
}

}  // namespace tri::xnnpack
