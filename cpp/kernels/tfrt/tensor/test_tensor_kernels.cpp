// TFRT's tensor test kernels (`tfrt_test.*` over dense host tensors): the
// MNIST kernels of backends/cpu/lib/ops/test (add, relu, equal, argmax,
// reduce_mean, slice_inplace and the since-deleted matmul.<t>.2), the ResNet
// ones (flatten, max_pooling_2d) and const_dense_attr from
// lib/test_kernels. Operand orders and messages are TFRT's. Elementwise ops
// and the matrix product run on the project's ATen kernels; the rest are
// short loops where no single ATen out-variant has TFRT's semantics.
#include <cinttypes>
#include <cstring>
#include <limits>
#include <type_traits>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/tfrt/tensor/dtype.h"
#include "cpp/kernels/tfrt/tensor/tensor_kernel_util.h"
#include "cpp/kernels/tfrt/tensor/tensor_shape.h"
#include "cpp/runtime/async/attribute_reader.h"
#include "cpp/runtime/core/evalue.h"

namespace tri::tfrt_kernels {
namespace {

using AtenKernel = Error (*)(KernelContext&, KernelArgs&);

// Runs an ATen out-variant kernel on `values` (its schema's arguments in
// order); reports its message as the kernel error when it fails. Kernels are
// named by function, not looked up in the operator registry: hosts that run
// only BEF files register the TFRT kernels and not the portable operator
// table, and a direct reference cannot miss at run time.
bool call_aten(KernelFrame& frame, AtenKernel kernel, EValue* values, size_t count) {
  EValue* slots[8];
  for (size_t i = 0; i < count && i < 8; ++i) slots[i] = &values[i];
  KernelArgs args(slots, count);
  KernelContext context;  // no temp memory: the kernels fall back to row-at-a-time paths
  if (kernel(context, args) != Error::Ok) {
    report_last_error(frame);
    return false;
  }
  return true;
}

bool same_sizes(const Tensor& a, const Tensor& b) {
  if (a.dim() != b.dim()) return false;
  for (int32_t i = 0; i < a.dim(); ++i) {
    if (a.size(i) != b.size(i)) return false;
  }
  return true;
}

bool check_rank(KernelFrame& frame, uint32_t i, const DenseHostTensor& t, int32_t rank) {
  if (t.tensor().dim() == rank) return true;
  char text[256];
  frame.report_error("argument %u has shape %s, expected a tensor of rank %" PRId32, i,
                     sizes_text(t.tensor().sizes(), text, sizeof(text)), rank);
  return false;
}

// TFRT's Eigen helpers' message: "tensor shape mismatch: [a] vs. [b] vs. [c]".
bool check_same_shapes(KernelFrame& frame, const DenseHostTensor* const* tensors, size_t count) {
  bool same = true;
  for (size_t i = 1; i < count; ++i) same = same && same_sizes(tensors[0]->tensor(), tensors[i]->tensor());
  if (same) return true;
  char text[768];
  BufferOut out(text, sizeof(text));
  out.write("tensor shape mismatch: ");
  for (size_t i = 0; i < count; ++i) {
    if (i != 0) out.write(" vs. ");
    write_dims(out, tensors[i]->tensor().sizes().data(), tensors[i]->tensor().sizes().size());
  }
  frame.report_error("%s", out.c_str());
  return false;
}

// Reads `count` tensors of T from arguments 0.., then checks that argument
// `count` is a chain.
template <typename T>
bool read_tensors(KernelFrame& frame, DenseHostTensor** tensors, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    tensors[i] = read_tensor(frame, i, DTypeOf<T>::kType);
    if (tensors[i] == nullptr) return false;
  }
  return check_kind(frame, count, async::ValueKind::Chain);
}

// add.<t> %a, %b, %c, %chain -> !tfrt.chain: c = a + b.
template <typename T>
void add(KernelFrame& frame) {
  if (!check_arity(frame, 4, 1)) return;
  DenseHostTensor* t[3];
  if (!read_tensors<T>(frame, t, 3) || !check_same_shapes(frame, t, 3)) return;
  EValue values[] = {EValue::from_tensor(&t[0]->tensor()), EValue::from_tensor(&t[1]->tensor()),
                     EValue::from_int(1), EValue::from_tensor(&t[2]->tensor()),
                     EValue::from_tensor(&t[2]->tensor())};
  if (!call_aten(frame, &kernels::add_out, values, 5)) return;
  frame.set_result(0, frame.host().make_chain());
}

// equal.<t> %a, %b, %c, %chain -> !tfrt.chain: c = (a == b) as 1 or 0 of t.
template <typename T>
void equal(KernelFrame& frame) {
  if (!check_arity(frame, 4, 1)) return;
  DenseHostTensor* t[3];
  if (!read_tensors<T>(frame, t, 3) || !check_same_shapes(frame, t, 3)) return;
  EValue values[] = {EValue::from_tensor(&t[0]->tensor()), EValue::from_tensor(&t[1]->tensor()),
                     EValue::from_tensor(&t[2]->tensor()), EValue::from_tensor(&t[2]->tensor())};
  if (!call_aten(frame, &kernels::eq_tensor_out, values, 4)) return;
  frame.set_result(0, frame.host().make_chain());
}

// relu.<t> %a, %b, %chain -> !tfrt.chain: b = max(a, 0).
template <typename T>
void relu(KernelFrame& frame) {
  if (!check_arity(frame, 3, 1)) return;
  DenseHostTensor* t[2];
  if (!read_tensors<T>(frame, t, 2) || !check_same_shapes(frame, t, 2)) return;
  EValue values[] = {EValue::from_tensor(&t[0]->tensor()), EValue::from_tensor(&t[1]->tensor()),
                     EValue::from_tensor(&t[1]->tensor())};
  if (!call_aten(frame, &kernels::relu_out, values, 3)) return;
  frame.set_result(0, frame.host().make_chain());
}

// Integer products and sums wrap, as the hardware TFRT ran on does; unsigned
// arithmetic keeps that defined in C++.
template <typename T>
T mul(T a, T b) {
  if constexpr (std::is_integral<T>::value) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}
template <typename T>
T plus(T a, T b) {
  if constexpr (std::is_integral<T>::value) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

// matmul.<t>.2 %alpha, %a, %b, %beta, %c, %chain -> !tfrt.chain:
// c = alpha * (a @ b) + beta * c; with beta == 0, c is not read. The
// product comes from aten::mm into a scratch tensor (c may alias a or b),
// then the scaling, which mm has no form for, is a loop.
template <typename T>
void matmul(KernelFrame& frame) {
  if (!check_arity(frame, 6, 1)) return;
  T alpha, beta;
  if (!read_argument(frame, 0, &alpha)) return;
  DenseHostTensor* a = read_tensor(frame, 1, DTypeOf<T>::kType);
  if (a == nullptr) return;
  DenseHostTensor* b = read_tensor(frame, 2, DTypeOf<T>::kType);
  if (b == nullptr || !read_argument(frame, 3, &beta)) return;
  DenseHostTensor* c = read_tensor(frame, 4, DTypeOf<T>::kType);
  if (c == nullptr || !check_kind(frame, 5, async::ValueKind::Chain)) return;
  const Tensor& ta = a->tensor();
  const Tensor& tb = b->tensor();
  const Tensor& tc = c->tensor();
  if (ta.dim() != 2 || tb.dim() != 2 || tc.dim() != 2 || ta.size(1) != tb.size(0) ||
      tc.size(0) != ta.size(0) || tc.size(1) != tb.size(1)) {
    char sa[128], sb[128], sc[128];
    frame.report_error("matmul arguments have incompatible shapes: %s x %s -> %s",
                       sizes_text(ta.sizes(), sa, sizeof(sa)), sizes_text(tb.sizes(), sb, sizeof(sb)),
                       sizes_text(tc.sizes(), sc, sizeof(sc)));
    return;
  }
  const int64_t dims[] = {tc.size(0), tc.size(1)};
  DenseHostTensor* product = DenseHostTensor::create(frame.host(), DTypeOf<T>::kType, dims);
  if (product == nullptr) {
    report_last_error(frame);
    return;
  }
  EValue values[] = {EValue::from_tensor(&a->tensor()), EValue::from_tensor(&b->tensor()),
                     EValue::from_tensor(&product->tensor()),
                     EValue::from_tensor(&product->tensor())};
  if (call_aten(frame, &kernels::mm_out, values, 4)) {
    const T* p = product->data<T>();
    T* out = c->data<T>();
    const bool read_c = !(beta == T(0));
    for (size_t i = 0, n = tc.numel(); i < n; ++i) {
      const T scaled = mul(alpha, p[i]);
      out[i] = read_c ? plus(scaled, mul(beta, out[i])) : scaled;
    }
    frame.set_result(0, frame.host().make_chain());
  }
  product->drop_ref(frame.host());
}

// argmax.<t>.2 %a, %chain -> !t.tensor: the index of each row's first
// maximum, as i32 (TFRT's result dtype; aten::argmax writes int64).
template <typename T>
void argmax(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  DenseHostTensor* a = read_tensor(frame, 0, DTypeOf<T>::kType);
  if (a == nullptr || !check_kind(frame, 1, async::ValueKind::Chain) || !check_rank(frame, 0, *a, 2)) {
    return;
  }
  const int64_t rows = a->tensor().size(0);
  const int64_t cols = a->tensor().size(1);
  if (cols == 0 && rows != 0) {
    frame.report_error("argmax over an empty dimension");
    return;
  }
  const int64_t dims[] = {rows};
  DenseHostTensor* result = DenseHostTensor::create(frame.host(), ScalarType::Int, dims);
  if (result == nullptr) {
    report_last_error(frame);
    return;
  }
  const T* in = a->data<T>();
  int32_t* out = result->data<int32_t>();
  for (int64_t i = 0; i < rows; ++i) {
    const T* row = in + i * cols;
    int64_t best = 0;
    for (int64_t j = 1; j < cols; ++j) {
      if (row[j] > row[best]) best = j;
    }
    out[i] = static_cast<int32_t>(best);
  }
  set_object_result(frame, 0, result);
}

// reduce_mean.<t>.1 %a, %chain -> !t.tensor: the mean of a 1-D tensor as a
// rank-0 tensor, accumulated in t like Eigen's mean (integers divide
// truncating). A loop: aten::mean refuses integer tensors.
template <typename T>
void reduce_mean(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  DenseHostTensor* a = read_tensor(frame, 0, DTypeOf<T>::kType);
  if (a == nullptr || !check_kind(frame, 1, async::ValueKind::Chain) || !check_rank(frame, 0, *a, 1)) {
    return;
  }
  const size_t n = a->tensor().numel();
  if (std::is_integral<T>::value && n == 0) {
    frame.report_error("reduce_mean of an empty integer tensor");
    return;
  }
  DenseHostTensor* result = DenseHostTensor::create(frame.host(), DTypeOf<T>::kType, {});
  if (result == nullptr) {
    report_last_error(frame);
    return;
  }
  const T* in = a->data<T>();
  T sum = T(0);
  for (size_t i = 0; i < n; ++i) sum = plus(sum, in[i]);
  *result->data<T>() = sum / static_cast<T>(n);
  set_object_result(frame, 0, result);
}

// slice_inplace.<t>.3 %input, %begin, %chain, %output -> !tfrt.chain:
// output = input[begin : begin + output.shape]. A loop: this is one
// strided 3-D window copy, where ATen would need a slice_copy per dim.
template <typename T>
void slice_inplace(KernelFrame& frame) {
  if (!check_arity(frame, 4, 1)) return;
  DenseHostTensor* input = read_tensor(frame, 0, DTypeOf<T>::kType);
  if (input == nullptr || !check_rank(frame, 0, *input, 3)) return;
  DenseHostTensor* begin = read_tensor(frame, 1, ScalarType::Long);
  if (begin == nullptr || !check_rank(frame, 1, *begin, 1)) return;
  if (!check_kind(frame, 2, async::ValueKind::Chain)) return;
  DenseHostTensor* output = read_tensor(frame, 3, DTypeOf<T>::kType);
  if (output == nullptr || !check_rank(frame, 3, *output, 3)) return;
  if (begin->tensor().numel() != 3) {
    frame.report_error("the size of 'begin_index' should match the input tensor rank");
    return;
  }
  const int64_t* start = begin->data<int64_t>();
  const Tensor& in = input->tensor();
  const Tensor& out = output->tensor();
  for (int32_t d = 0; d < 3; ++d) {
    if (start[d] < 0 || start[d] > in.size(d) || out.size(d) > in.size(d) - start[d]) {
      char si[128], so[128], sb[128];
      frame.report_error("slice at %s of shape %s is out of bounds of the input shape %s",
                         dims_text(start, 3, sb, sizeof(sb)), sizes_text(out.sizes(), so, sizeof(so)),
                         sizes_text(in.sizes(), si, sizeof(si)));
      return;
    }
  }
  const T* src = input->data<T>();
  T* dst = output->data<T>();
  // Output and input may share a buffer; copy through memmove row by row.
  for (int64_t i = 0; i < out.size(0); ++i) {
    for (int64_t j = 0; j < out.size(1); ++j) {
      const T* from = src + ((start[0] + i) * in.size(1) + (start[1] + j)) * in.size(2) + start[2];
      T* to = dst + (i * out.size(1) + j) * out.size(2);
      std::memmove(to, from, sizeof(T) * static_cast<size_t>(out.size(2)));
    }
  }
  frame.set_result(0, frame.host().make_chain());
}

// flatten.f32 %input, %output, %chain -> !tfrt.chain: the same elements
// under the output's shape, which must keep the batch dimension.
void flatten(KernelFrame& frame) {
  if (!check_arity(frame, 3, 1)) return;
  DenseHostTensor* t[2];
  if (!read_tensors<float>(frame, t, 2)) return;
  const Tensor& in = t[0]->tensor();
  const Tensor& out = t[1]->tensor();
  if (in.numel() != out.numel() || in.dim() == 0 || out.dim() == 0 || in.size(0) != out.size(0)) {
    char si[256], so[256];
    frame.report_error("Flatten output shape %s does not match the input shape %s",
                       sizes_text(out.sizes(), so, sizeof(so)), sizes_text(in.sizes(), si, sizeof(si)));
    return;
  }
  if (in.nbytes() != 0) std::memmove(out.mutable_data(), in.data(), in.nbytes());
  forward_chain(frame, 2, 0);
}

// A 2-element array attribute of 4-byte integers, read as uint32 the way
// TFRT's kernel does, widened to int64.
bool read_u32_pair(KernelFrame& frame, uint32_t attribute, const char* name, int64_t* out) {
  Result<async::ArrayAttr> array = frame.attributes().array(frame.attribute_offset(attribute), 4);
  if (!array.ok()) {
    report_last_error(frame);
    return false;
  }
  if (array->count != 2) {
    frame.report_error("MaxPool2D expects %s to have 2 elements", name);
    return false;
  }
  for (uint32_t i = 0; i < 2; ++i) {
    uint32_t v;
    std::memcpy(&v, array->data + 4 * i, 4);
    out[i] = v;
  }
  return true;
}

// TFRT's ArrayAttribute<uint32_t> makes negative pool sizes huge; both an
// empty window and a zero stride would divide by zero or loop forever.
bool check_positive(KernelFrame& frame, const char* name, const int64_t* v) {
  if (v[0] > 0 && v[1] > 0 && v[0] <= INT32_MAX && v[1] <= INT32_MAX) return true;
  frame.report_error("MaxPool2D expects %s to be positive, got [%" PRId64 ", %" PRId64 "]", name,
                     v[0], v[1]);
  return false;
}

// max_pooling_2d.f32 %input, %output, %chain {padding, pool_size, strides}
//   -> !tfrt.chain, NHWC, padding "valid" or "same".
void max_pooling_2d(KernelFrame& frame) {
  if (!check_arity(frame, 3, 1, 3)) return;
  DenseHostTensor* t[2];
  if (!read_tensors<float>(frame, t, 2)) return;
  if (!check_rank(frame, 0, *t[0], 4) || !check_rank(frame, 1, *t[1], 4)) return;
  Result<async::StringAttr> padding = frame.attributes().string(frame.attribute_offset(0));
  if (!padding.ok()) {
    report_last_error(frame);
    return;
  }
  int64_t pool[2], strides[2];
  if (!read_u32_pair(frame, 1, "pool_size", pool) || !read_u32_pair(frame, 2, "strides", strides)) {
    return;
  }
  const Tensor& in = t[0]->tensor();
  const Tensor& out = t[1]->tensor();
  int64_t pad[4] = {0, 0, 0, 0};  // top, bottom, left, right
  const auto is = [&](const char* word) {
    return padding->size == std::strlen(word) && std::memcmp(padding->data, word, padding->size) == 0;
  };
  if (is("same")) {
    if (!check_positive(frame, "strides", strides)) return;
    int64_t height = pool[0] - strides[0];
    if (in.size(1) % strides[0] != 0) height = pool[0] - in.size(1) % strides[0];
    int64_t width = pool[1] - strides[1];
    if (in.size(2) % strides[1] != 0) width = pool[1] - in.size(2) % strides[1];
    pad[0] = static_cast<int64_t>(height / 2.0);
    pad[1] = static_cast<int64_t>(height / 2.0 + 0.5);
    pad[2] = static_cast<int64_t>(width / 2.0);
    pad[3] = static_cast<int64_t>(width / 2.0 + 0.5);
  } else if (!is("valid")) {
    frame.report_error("MaxPool2D padding '%.*s' is not recognized", static_cast<int>(padding->size),
                       padding->data);
    return;
  }
  if (!check_positive(frame, "pool_size", pool) || !check_positive(frame, "strides", strides)) return;
  const int64_t expected[4] = {in.size(0), (in.size(1) + pad[0] + pad[1] - pool[0]) / strides[0] + 1,
                               (in.size(2) + pad[2] + pad[3] - pool[1]) / strides[1] + 1, in.size(3)};
  bool matches = true;
  for (int32_t d = 0; d < 4; ++d) matches = matches && out.size(d) == expected[d];
  if (!matches) {
    char so[128], se[128];
    frame.report_error("MaxPool2D output shape %s does not match the expected output shape %s",
                       sizes_text(out.sizes(), so, sizeof(so)), dims_text(expected, 4, se, sizeof(se)));
    return;
  }
  // Windows are clipped to the input, so the work is at most one input
  // plane per output element; refuse what would keep the host busy for ages.
  const int64_t rows = pool[0] < in.size(1) ? pool[0] : in.size(1);
  const int64_t cols = pool[1] < in.size(2) ? pool[1] : in.size(2);
  constexpr double kMaxVisits = 4.0e9;
  if (static_cast<double>(out.numel()) * static_cast<double>(rows) * static_cast<double>(cols) >
      kMaxVisits) {
    frame.report_error("MaxPool2D window %" PRId64 "x%" PRId64 " over %zu outputs is too much work",
                       pool[0], pool[1], out.numel());
    return;
  }
  const float* src = t[0]->data<float>();
  float* dst = t[1]->data<float>();
  const int64_t h = in.size(1), w = in.size(2), c = in.size(3);
  for (int64_t n = 0; n < out.size(0); ++n) {
    for (int64_t oy = 0; oy < out.size(1); ++oy) {
      for (int64_t ox = 0; ox < out.size(2); ++ox) {
        const int64_t y0 = oy * strides[0] - pad[0];
        const int64_t x0 = ox * strides[1] - pad[2];
        const int64_t y_begin = y0 < 0 ? 0 : y0, y_end = y0 + pool[0] < h ? y0 + pool[0] : h;
        const int64_t x_begin = x0 < 0 ? 0 : x0, x_end = x0 + pool[1] < w ? x0 + pool[1] : w;
        float* o = dst + ((n * out.size(1) + oy) * out.size(2) + ox) * c;
        for (int64_t ch = 0; ch < c; ++ch) {
          // TFRT starts from numeric_limits<float>::min(), the smallest
          // positive float, not the lowest: kept so outputs match TFRT's.
          float value = std::numeric_limits<float>::min();
          for (int64_t y = y_begin; y < y_end; ++y) {
            for (int64_t x = x_begin; x < x_end; ++x) {
              const float v = src[((n * h + y) * w + x) * c + ch];
              if (v > value) value = v;
            }
          }
          o[ch] = value;
        }
      }
    }
  }
  forward_chain(frame, 2, 0);
}

// const_dense_attr {value = dense<...>} -> !t.tensor
void const_dense_attr(KernelFrame& frame) {
  if (!check_arity(frame, 0, 1, 1)) return;
  Result<async::DenseAttr> dense = frame.attributes().dense(frame.attribute_offset(0));
  if (!dense.ok()) {
    report_last_error(frame);
    return;
  }
  ScalarType type;
  if (!scalar_type_of(static_cast<DType>(dense->dtype), &type)) {
    frame.report_error("a dense host tensor cannot hold %s elements",
                       async::dtype_name(dense->dtype));
    return;
  }
  if (dense->rank > kTensorDimLimit) {
    frame.report_error("Cannot allocate tensor: rank %u exceeds the limit of %zu", dense->rank,
                       kTensorDimLimit);
    return;
  }
  int64_t dims[kTensorDimLimit];
  for (uint32_t i = 0; i < dense->rank; ++i) dims[i] = dense->dim(i);
  DenseHostTensor* tensor =
      DenseHostTensor::create(frame.host(), type, Span<const int64_t>(dims, dense->rank));
  if (tensor == nullptr) {
    report_last_error(frame);
    return;
  }
  uint8_t* data = tensor->data<uint8_t>();
  const size_t bytes = tensor->tensor().nbytes();
  if (type == ScalarType::Bool) {
    for (size_t i = 0; i < bytes; ++i) data[i] = dense->data[i] != 0 ? 1 : 0;
  } else if (bytes != 0) {
    std::memcpy(data, dense->data, bytes);
  }
  set_object_result(frame, 0, tensor);
}

#define TRI_TEST_TENSOR(SUFFIX, T)                                   \
  {"tfrt_test.add." SUFFIX, &add<T>},                                \
  {"tfrt_test.equal." SUFFIX, &equal<T>},                            \
  {"tfrt_test.relu." SUFFIX, &relu<T>},                              \
  {"tfrt_test.matmul." SUFFIX ".2", &matmul<T>},                     \
  {"tfrt_test.argmax." SUFFIX ".2", &argmax<T>},                     \
  {"tfrt_test.reduce_mean." SUFFIX ".1", &reduce_mean<T>},           \
  {"tfrt_test.slice_inplace." SUFFIX ".3", &slice_inplace<T>}

const async::KernelEntry kKernels[] = {
    TRI_TEST_TENSOR("f32", float),
    TRI_TEST_TENSOR("i32", int32_t),
    TRI_TEST_TENSOR("i64", int64_t),
    {"tfrt_test.flatten.f32", &flatten},
    {"tfrt_test.max_pooling_2d.f32", &max_pooling_2d},
    {"tfrt_test.const_dense_attr", &const_dense_attr},
};

#undef TRI_TEST_TENSOR

}  // namespace

void register_test_tensor_kernels() { async::register_kernels(kKernels); }

}  // namespace tri::tfrt_kernels
