// Fixture for kernel tests. Tests call kernels through the registry by their
// schema name, like the interpreter does, so they test the table too and do
// not depend on how a kernel is implemented.
#pragma once

#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/kernel/operator_registry.h"
#include "tests/cpp/support/tensor_factory.h"

namespace tri::testing {

class KernelTest : public ::testing::Test {
 protected:
  KernelTest() : temp_(temp_buffer_.data(), temp_buffer_.size()) {}

  // Calls `name` with exactly `args` (checked against the registered arity).
  Error call(const char* name, std::vector<EValue*> args);
  // Calls an out-variant op: appends `out` twice (the out and the return).
  Error call_out(const char* name, std::vector<EValue*> inputs, Tensor* out);

  EValue* t(Tensor* tensor) { return tf.tensor_value(tensor); }
  EValue* i(int64_t v) { return tf.value(EValue::from_int(v)); }
  EValue* d(double v) { return tf.value(EValue::from_double(v)); }
  EValue* b(bool v) { return tf.value(EValue::from_bool(v)); }
  EValue* none() { return tf.value(EValue::none()); }
  EValue* il(const std::vector<int64_t>& v) { return tf.int_list(v); }
  EValue* str(const char* s);

  Tensor* f32(std::vector<SizesType> sizes, const std::vector<double>& v) {
    return tf.make(ScalarType::Float, std::move(sizes), v);
  }
  // An out tensor that may take any shape of its rank up to `bound`.
  Tensor* dyn(ScalarType type, std::vector<SizesType> bound) {
    return tf.zeros(type, std::move(bound), {}, ShapeDynamism::DynamicBound);
  }

  // When false, kernels are called without temp memory (their fallbacks).
  bool use_temp_ = true;
  // Declared before temp_, which points into it.
  std::vector<uint8_t> temp_buffer_ = std::vector<uint8_t>(1 << 20);
  TensorFactory tf;
  MemoryAllocator temp_;

 private:
  std::deque<std::string> strings_;
};

std::vector<SizesType> sizes_of(const Tensor& t);

// n values uniform in [-1, 1), each exact in float32, from `seed`.
std::vector<double> random_values(size_t n, uint32_t seed);

// Element-wise comparison with absolute + relative tolerance; NaN == NaN.
::testing::AssertionResult values_near(const Tensor& t, const std::vector<double>& expected,
                                       double tol = 0);

}  // namespace tri::testing

// EXPECT that `expr` fails with `code` and a message containing `text`.
#define EXPECT_KERNEL_ERROR(expr, code, text)                                  \
  do {                                                                         \
    const ::tri::Error kernel_error_ = (expr);                                 \
    EXPECT_EQ(kernel_error_, code) << ::tri::last_error_message();             \
    EXPECT_NE(std::string(::tri::last_error_message()).find(text), std::string::npos) \
        << "message: " << ::tri::last_error_message();                        \
  } while (0)

#define EXPECT_VALUES(tensor, ...) \
  EXPECT_TRUE(::tri::testing::values_near(*(tensor), __VA_ARGS__))
