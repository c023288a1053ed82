// TFRT's dense host tensor kernels (lib/tensor/dense_host_tensor_kernels.cc,
// the `tfrt_dht` dialect): creating tensors and buffers, filling and
// comparing tensors, printing them. Operands, results and messages follow
// TFRT's kernels and opdefs (include/tfrt/tensor/opdefs/dense_host_tensor.td);
// where TFRT only asserts (dtype of a tensor argument, slice bounds, value
// kinds), these report a kernel error instead.
#include <cinttypes>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <type_traits>

#include "cpp/kernels/tfrt/tensor/dtype.h"
#include "cpp/kernels/tfrt/tensor/tensor_kernel_util.h"
#include "cpp/kernels/tfrt/tensor/tensor_shape.h"
#include "cpp/runtime/async/attribute_reader.h"

namespace tri::tfrt_kernels {
namespace {

template <typename T>
struct IsComplex : std::false_type {};
template <typename T>
struct IsComplex<std::complex<T>> : std::true_type {};

// An i64 array attribute (a shape) copied out, at most kTensorDimLimit long.
bool read_dims_attribute(KernelFrame& frame, uint32_t i, int64_t* dims, uint32_t* rank) {
  Result<async::ArrayAttr> array = frame.attributes().array(frame.attribute_offset(i), 8);
  if (!array.ok()) {
    report_last_error(frame);
    return false;
  }
  if (array->count > kTensorDimLimit) {
    frame.report_error("Cannot allocate tensor: rank %u exceeds the limit of %zu", array->count,
                       kTensorDimLimit);
    return false;
  }
  std::memcpy(dims, array->data, sizeof(int64_t) * size_t{array->count});
  *rank = array->count;
  return true;
}

// create_uninitialized_tensor.<dtype>.<rank> {shape} -> !t.tensor. Like
// TFRT, the rank in the name is not checked against the shape.
template <typename T>
void create_uninitialized_tensor(KernelFrame& frame) {
  if (!check_arity(frame, 0, 1, 1)) return;
  int64_t dims[kTensorDimLimit];
  uint32_t rank = 0;
  if (!read_dims_attribute(frame, 0, dims, &rank)) return;
  set_object_result(frame, 0,
                    DenseHostTensor::create(frame.host(), DTypeOf<T>::kType,
                                            Span<const int64_t>(dims, rank)));
}

// fill_tensor_with_constant.<dtype> %tensor, %chain {value} -> !tfrt.chain
template <typename T>
void fill_tensor_with_constant(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1, 1)) return;
  DenseHostTensor* tensor = read_tensor(frame, 0, DTypeOf<T>::kType);
  if (tensor == nullptr || !check_kind(frame, 1, async::ValueKind::Chain)) return;
  T value;
  if (!read_attribute(frame, 0, &value)) return;
  T* data = tensor->data<T>();
  for (size_t i = 0, n = tensor->tensor().numel(); i < n; ++i) data[i] = value;
  frame.set_result(0, frame.host().make_chain());
}

// set_tensor_with_constant_values.<dtype> %tensor, %chain {values} -> !tfrt.chain
// Complex values come as an array of their parts, real and imaginary
// interleaved.
template <typename T>
void set_tensor_with_constant_values(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1, 1)) return;
  DenseHostTensor* tensor = read_tensor(frame, 0, DTypeOf<T>::kType);
  if (tensor == nullptr || !check_kind(frame, 1, async::ValueKind::Chain)) return;
  constexpr uint32_t kParts = IsComplex<T>::value ? 2 : 1;
  constexpr uint32_t kPartSize = sizeof(T) / kParts;
  Result<async::ArrayAttr> values = frame.attributes().array(frame.attribute_offset(0), kPartSize);
  if (!values.ok()) {
    report_last_error(frame);
    return;
  }
  const size_t numel = tensor->tensor().numel();
  if (values->count != numel * kParts) {
    frame.report_error("Incorrect number of values for the tensor: %u, but expected %zu",
                       values->count / kParts, numel);
    return;
  }
  if (std::is_same<T, bool>::value) {
    uint8_t* data = tensor->data<uint8_t>();
    for (size_t i = 0; i < numel; ++i) data[i] = values->data[i] != 0 ? 1 : 0;
  } else if (numel != 0) {
    std::memcpy(tensor->tensor().mutable_data(), values->data, numel * sizeof(T));
  }
  forward_chain(frame, 1, 0);
}

// set_tensor_with_values.<dtype> %tensor, %chain, %v0, %v1, ... -> !tfrt.chain
template <typename T>
void set_tensor_with_values(KernelFrame& frame) {
  if (frame.num_arguments() < 2) {
    check_arity(frame, 2, 1);
    return;
  }
  if (!check_arity(frame, frame.num_arguments(), 1)) return;
  DenseHostTensor* tensor = read_tensor(frame, 0, DTypeOf<T>::kType);
  if (tensor == nullptr || !check_kind(frame, 1, async::ValueKind::Chain)) return;
  const uint32_t count = frame.num_arguments() - 2;
  const size_t numel = tensor->tensor().numel();
  if (count != numel) {
    frame.report_error("Incorrect number of values for the tensor: %u, but expected %zu", count,
                       numel);
    return;
  }
  for (uint32_t i = 0; i < count; ++i) {
    if (!check_kind(frame, 2 + i, ValueTraits<T>::kKind)) return;
  }
  T* data = tensor->data<T>();
  for (uint32_t i = 0; i < count; ++i) data[i] = ValueTraits<T>::get(frame.argument(2 + i));
  frame.set_result(0, frame.host().make_chain());
}

// make_tensor.<dtype> %buffer, %shape, %chain -> (!t.tensor, !tfrt.chain):
// a tensor sharing the buffer's bytes.
template <typename T>
void make_tensor(KernelFrame& frame) {
  if (!check_arity(frame, 3, 2)) return;
  HostBuffer* buffer = read_object<HostBuffer>(frame, 0);
  if (buffer == nullptr) return;
  TensorShape* shape = read_object<TensorShape>(frame, 1);
  if (shape == nullptr || !check_kind(frame, 2, async::ValueKind::Chain)) return;
  int64_t numel = 0;
  char text[256];
  const bool fits = shape->num_elements(&numel) &&
                    static_cast<uint64_t>(numel) <= std::numeric_limits<uint64_t>::max() / sizeof(T);
  if (!fits || static_cast<uint64_t>(numel) * sizeof(T) != buffer->size()) {
    frame.report_error(
        "dht.make_tensor failed: buffer_size (%zu) is not equal to the number of elements in "
        "shape (%s) times element size (%zu)",
        buffer->size(), dims_text(shape->dims(), shape->rank(), text, sizeof(text)), sizeof(T));
    return;
  }
  DenseHostTensor* tensor =
      DenseHostTensor::wrap(frame.host(), DTypeOf<T>::kType,
                            Span<const int64_t>(shape->dims(), shape->rank()), buffer);
  if (tensor == nullptr) {
    frame.report_error("dht.make_tensor failed: %s", last_error_message());
    return;
  }
  set_object_result(frame, 0, tensor);
  forward_chain(frame, 2, 1);
}

bool same_shape(const Tensor& a, const Tensor& b) {
  if (a.dim() != b.dim()) return false;
  for (int32_t i = 0; i < a.dim(); ++i) {
    if (a.size(i) != b.size(i)) return false;
  }
  return true;
}

template <typename T>
T load(const DenseHostTensor& t, size_t i) {
  T value;
  std::memcpy(&value, static_cast<const uint8_t*>(t.tensor().data()) + i * sizeof(T), sizeof(T));
  return value;
}

// TFRT's TensorElementsClose: within ULP machine epsilons of the values'
// magnitude, or both subnormally close; integers compare equal.
template <typename T, int kUlp>
bool elements_close(T x, T y) {
  if constexpr (IsComplex<T>::value) {
    using P = typename T::value_type;
    return elements_close<P, kUlp>(x.real(), y.real()) &&
           elements_close<P, kUlp>(x.imag(), y.imag());
  } else if constexpr (std::is_floating_point<T>::value) {
    return std::abs(x - y) <= std::numeric_limits<T>::epsilon() * std::abs(x + y) * kUlp ||
           std::abs(x - y) < std::numeric_limits<T>::min();
  } else {
    return x == y;
  }
}

// ULP 0 means exact equality.
template <typename T, int kUlp>
bool tensors_match(const DenseHostTensor& a, const DenseHostTensor& b) {
  if (!same_shape(a.tensor(), b.tensor())) return false;
  for (size_t i = 0, n = a.tensor().numel(); i < n; ++i) {
    if constexpr (std::is_same<T, bool>::value) {
      // bool bytes written through a buffer may hold any value.
      if ((load<uint8_t>(a, i) != 0) != (load<uint8_t>(b, i) != 0)) return false;
    } else if constexpr (kUlp == 0) {
      if (!(load<T>(a, i) == load<T>(b, i))) return false;
    } else {
      if (!elements_close<T, kUlp>(load<T>(a, i), load<T>(b, i))) return false;
    }
  }
  return true;
}

// tensor_equal.<dtype> / tensor_allclose[.<n>ulp].<dtype>
//   %a, %b, %chain -> (i1, !tfrt.chain)
template <typename T, int kUlp>
void compare_tensors(KernelFrame& frame) {
  if (!check_arity(frame, 3, 2)) return;
  DenseHostTensor* a = read_tensor(frame, 0, DTypeOf<T>::kType);
  if (a == nullptr) return;
  DenseHostTensor* b = read_tensor(frame, 1, DTypeOf<T>::kType);
  if (b == nullptr || !check_kind(frame, 2, async::ValueKind::Chain)) return;
  frame.set_result(0, frame.host().make_i1(tensors_match<T, kUlp>(*a, *b)));
  forward_chain(frame, 2, 1);
}

// print_tensor %tensor, %chain -> !tfrt.chain
void print_tensor(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  DenseHostTensor* tensor = read_object<DenseHostTensor>(frame, 0);
  if (tensor == nullptr || !check_kind(frame, 1, async::ValueKind::Chain)) return;
  PrintOut out(frame.host());
  tensor->print(out);
  out.write("\n");
  out.flush();
  frame.set_result(0, frame.host().make_chain());
}

// print_tensor_shape %tensor[, %chain] -> !tfrt.chain: "[3, 2]". TFRT's
// kernel reads only the tensor, so the chain is optional.
void print_tensor_shape(KernelFrame& frame) {
  const uint32_t arguments = frame.num_arguments() == 2 ? 2 : 1;
  if (!check_arity(frame, arguments, 1)) return;
  DenseHostTensor* tensor = read_object<DenseHostTensor>(frame, 0);
  if (tensor == nullptr) return;
  if (arguments == 2 && !check_kind(frame, 1, async::ValueKind::Chain)) return;
  PrintOut out(frame.host());
  write_dims(out, tensor->tensor().sizes().data(), tensor->tensor().sizes().size());
  out.write("\n");
  out.flush();
  frame.set_result(0, frame.host().make_chain());
}

// get_tensor_shape %tensor -> !ts.shape
void get_tensor_shape(KernelFrame& frame) {
  if (!check_arity(frame, 1, 1)) return;
  DenseHostTensor* tensor = read_object<DenseHostTensor>(frame, 0);
  if (tensor == nullptr) return;
  const Span<const SizesType> sizes = tensor->tensor().sizes();
  int64_t dims[kTensorDimLimit];
  for (size_t i = 0; i < sizes.size(); ++i) dims[i] = sizes[i];
  set_object_result(frame, 0,
                    TensorShape::make(frame.host(), dims, static_cast<uint32_t>(sizes.size())));
}

// no_op_ht %tensor -> !tfrt.chain
void no_op_ht(KernelFrame& frame) {
  if (!check_arity(frame, 1, 1)) return;
  if (read_object<DenseHostTensor>(frame, 0) == nullptr) return;
  frame.set_result(0, frame.host().make_chain());
}

// allocate_buffer %size, %alignment -> !ht.host_buffer (zero-filled; TFRT's
// is uninitialized).
void allocate_buffer(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  int64_t size, alignment;
  if (!read_argument(frame, 0, &size) || !read_argument(frame, 1, &alignment)) return;
  if (size < 0 || alignment <= 0) {
    frame.report_error("Cannot allocate host buffer: size %" PRId64 " and alignment %" PRId64
                       " must be positive",
                       size, alignment);
    return;
  }
  if (static_cast<uint64_t>(size) > HostBuffer::kMaxBytes ||
      static_cast<uint64_t>(alignment) > HostBuffer::kMaxAlignment) {
    frame.report_error("Cannot allocate host buffer: %" PRId64 " bytes aligned to %" PRId64
                       " is more than the limits of %zu bytes aligned to %zu",
                       size, alignment, HostBuffer::kMaxBytes, HostBuffer::kMaxAlignment);
    return;
  }
  HostBuffer* buffer = HostBuffer::allocate(frame.host(), static_cast<size_t>(size),
                                            static_cast<size_t>(alignment));
  if (buffer != nullptr && buffer->size() != 0) std::memset(buffer->data(), 0, buffer->size());
  set_object_result(frame, 0, buffer);
}

// get_buffer %tensor, %chain -> (!ht.host_buffer, !tfrt.chain)
void get_buffer(KernelFrame& frame) {
  if (!check_arity(frame, 2, 2)) return;
  DenseHostTensor* tensor = read_object<DenseHostTensor>(frame, 0);
  if (tensor == nullptr || !check_kind(frame, 1, async::ValueKind::Chain)) return;
  tensor->buffer()->add_ref();
  set_object_result(frame, 0, tensor->buffer());
  forward_chain(frame, 1, 1);
}

// get_buffer_slice %buffer, %offset, %size -> !ht.host_buffer
void get_buffer_slice(KernelFrame& frame) {
  if (!check_arity(frame, 3, 1)) return;
  HostBuffer* parent = read_object<HostBuffer>(frame, 0);
  if (parent == nullptr) return;
  int64_t offset, size;
  if (!read_argument(frame, 1, &offset) || !read_argument(frame, 2, &size)) return;
  if (offset < 0 || size < 0) {
    frame.report_error("Invalid offset (%" PRId64 ") and size (%" PRId64
                       ") for a host buffer of %zu bytes",
                       offset, size, parent->size());
    return;
  }
  // Past SIZE_MAX (wasm32) is out of range anyway; clamping keeps it so.
  const auto to_size = [](int64_t v) {
    return static_cast<uint64_t>(v) > SIZE_MAX ? SIZE_MAX : static_cast<size_t>(v);
  };
  set_object_result(frame, 0, HostBuffer::slice(frame.host(), parent, to_size(offset), to_size(size)));
}

// print_buffer %buffer, %chain -> !tfrt.chain: "HostBuffer<pointer=0x..., size=N>"
void print_buffer(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  HostBuffer* buffer = read_object<HostBuffer>(frame, 0);
  if (buffer == nullptr || !check_kind(frame, 1, async::ValueKind::Chain)) return;
  frame.host().print("HostBuffer<pointer=0x%" PRIxPTR ", size=%zu>\n",
                     reinterpret_cast<uintptr_t>(buffer->data()), buffer->size());
  forward_chain(frame, 1, 0);
}

#define TRI_DHT_CREATE(SUFFIX, T)                                                   \
  {"tfrt_dht.create_uninitialized_tensor." SUFFIX ".0", &create_uninitialized_tensor<T>}, \
  {"tfrt_dht.create_uninitialized_tensor." SUFFIX ".1", &create_uninitialized_tensor<T>}, \
  {"tfrt_dht.create_uninitialized_tensor." SUFFIX ".2", &create_uninitialized_tensor<T>}, \
  {"tfrt_dht.create_uninitialized_tensor." SUFFIX ".3", &create_uninitialized_tensor<T>}, \
  {"tfrt_dht.create_uninitialized_tensor." SUFFIX ".4", &create_uninitialized_tensor<T>}, \
  {"tfrt_dht.create_uninitialized_tensor." SUFFIX ".5", &create_uninitialized_tensor<T>}, \
  {"tfrt_dht.make_tensor." SUFFIX, &make_tensor<T>},                                     \
  {"tfrt_dht.set_tensor_with_constant_values." SUFFIX, &set_tensor_with_constant_values<T>}, \
  {"tfrt_dht.tensor_equal." SUFFIX, &compare_tensors<T, 0>}

// TFRT's fill kernel reads a scalar attribute, which complex types lack.
#define TRI_DHT_REAL(SUFFIX, T) \
  TRI_DHT_CREATE(SUFFIX, T),    \
  {"tfrt_dht.fill_tensor_with_constant." SUFFIX, &fill_tensor_with_constant<T>}

// set_tensor_with_values reads operands, which exist for these types only.
#define TRI_DHT_VALUES(SUFFIX, T) \
  {"tfrt_dht.set_tensor_with_values." SUFFIX, &set_tensor_with_values<T>}

#define TRI_DHT_ALLCLOSE(SUFFIX, T)                                              \
  {"tfrt_dht.tensor_allclose." SUFFIX, &compare_tensors<T, 2>},                  \
  {"tfrt_dht.tensor_allclose.3ulp." SUFFIX, &compare_tensors<T, 3>},             \
  {"tfrt_dht.tensor_allclose.1000ulp." SUFFIX, &compare_tensors<T, 1000>},       \
  {"tfrt_dht.tensor_allclose.2000ulp." SUFFIX, &compare_tensors<T, 2000>},       \
  {"tfrt_dht.tensor_allclose.100000ulp." SUFFIX, &compare_tensors<T, 100000>}

const async::KernelEntry kKernels[] = {
    TRI_DHT_REAL("ui8", uint8_t),
    TRI_DHT_REAL("ui32", uint32_t),
    TRI_DHT_REAL("ui64", uint64_t),
    TRI_DHT_REAL("f32", float),
    TRI_DHT_REAL("f64", double),
    TRI_DHT_REAL("i8", int8_t),
    TRI_DHT_REAL("i32", int32_t),
    TRI_DHT_REAL("i64", int64_t),
    TRI_DHT_REAL("bool", bool),
    TRI_DHT_CREATE("complex64", std::complex<float>),
    TRI_DHT_CREATE("complex128", std::complex<double>),
    TRI_DHT_VALUES("f32", float),
    TRI_DHT_VALUES("f64", double),
    TRI_DHT_VALUES("i32", int32_t),
    TRI_DHT_VALUES("i64", int64_t),
    TRI_DHT_VALUES("bool", bool),
    TRI_DHT_ALLCLOSE("f32", float),
    TRI_DHT_ALLCLOSE("f64", double),
    TRI_DHT_ALLCLOSE("i32", int32_t),
    TRI_DHT_ALLCLOSE("i64", int64_t),
    TRI_DHT_ALLCLOSE("complex64", std::complex<float>),
    TRI_DHT_ALLCLOSE("complex128", std::complex<double>),
    {"tfrt_dht.print_tensor", &print_tensor},
    {"tfrt_dht.print_tensor_shape", &print_tensor_shape},
    {"tfrt_dht.get_tensor_shape", &get_tensor_shape},
    {"tfrt_dht.no_op_ht", &no_op_ht},
    {"tfrt_dht.allocate_buffer", &allocate_buffer},
    {"tfrt_dht.get_buffer", &get_buffer},
    {"tfrt_dht.get_buffer_slice", &get_buffer_slice},
    {"tfrt_dht.print_buffer", &print_buffer},
};

#undef TRI_DHT_CREATE
#undef TRI_DHT_REAL
#undef TRI_DHT_VALUES
#undef TRI_DHT_ALLCLOSE

}  // namespace

void register_dht_kernels() { async::register_kernels(kKernels); }

}  // namespace tri::tfrt_kernels
