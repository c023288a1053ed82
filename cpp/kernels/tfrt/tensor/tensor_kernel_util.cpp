#include "cpp/kernels/tfrt/tensor/tensor_kernel_util.h"

#include "cpp/kernels/tfrt/tensor/dtype.h"
#include "cpp/kernels/tfrt/tensor/tensor_shape.h"
#include "cpp/runtime/async/object_types.h"

namespace tri::tfrt_kernels {

const char* object_type_name(uint16_t type_id) {
  switch (type_id) {
    case async::kStringObject: return "!tfrt.string";
    case async::kHostBufferObject: return "!ht.host_buffer";
    case async::kDenseHostTensorObject: return "!t.tensor";
    case async::kTensorShapeObject: return "!ts.shape";
    case async::kPartialTensorShapeObject: return "!ts.partial_shape";
    case async::kFixedRankShapeObject: return "!ts.fixed_rank_shape";
    default: return "object";
  }
}

const char* argument_description(const AsyncValue* value) {
  if (value->is_error()) return "an error";
  if (value->kind() == async::ValueKind::Object && value->object() != nullptr) {
    return object_type_name(value->object()->type_id());
  }
  return value_kind_name(value->kind());
}

DenseHostTensor* read_tensor(KernelFrame& frame, uint32_t i, ScalarType type) {
  DenseHostTensor* tensor = read_object<DenseHostTensor>(frame, i);
  if (tensor == nullptr) return nullptr;
  if (tensor->scalar_type() != type) {
    frame.report_error("argument %u is a tensor of %s, expected %s", i,
                       dtype_name(tensor->scalar_type()), dtype_name(type));
    return nullptr;
  }
  return tensor;
}

void report_last_error(KernelFrame& frame) { frame.report_error("%s", last_error_message()); }

void set_object_result(KernelFrame& frame, uint32_t i, async::Object* object) {
  if (object == nullptr) {
    report_last_error(frame);
    return;
  }
  AsyncValue* value = frame.host().make_unavailable();
  value->set_object(object);
  // On heap exhaustion make_unavailable hands out the shared error value,
  // which ignores set_object; the object would leak.
  if (value->object() != object) object->drop_ref(frame.host());
  frame.set_result(i, value);
}

void forward_chain(KernelFrame& frame, uint32_t in, uint32_t out) {
  AsyncValue* chain = frame.argument(in);
  chain->add_ref();
  frame.set_result(out, chain);
}

void set_chain_results(KernelFrame& frame) {
  for (uint32_t i = 0; i < frame.num_results(); ++i) {
    if (frame.result(i) == nullptr) frame.set_result(i, frame.host().make_chain());
  }
}

const char* sizes_text(Span<const SizesType> sizes, char* buffer, size_t capacity) {
  BufferOut out(buffer, capacity);
  write_dims(out, sizes.data(), sizes.size());
  return out.c_str();
}

const char* dims_text(const int64_t* dims, size_t rank, char* buffer, size_t capacity) {
  BufferOut out(buffer, capacity);
  write_dims(out, dims, rank);
  return out.c_str();
}

}  // namespace tri::tfrt_kernels
