#include "tests/cpp/kernels/kernel_test.h"

#include <cmath>
#include <random>
#include <sstream>

#include "cpp/runtime/kernel/kernel_args.h"

namespace tri::testing {

std::vector<double> random_values(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<double> v(n);
  for (double& x : v) x = static_cast<float>(dist(rng));
  return v;
}

Error KernelTest::call(const char* name, std::vector<EValue*> args) {
  const KernelEntry* entry = find_kernel(name);
  if (entry == nullptr) {
    ADD_FAILURE() << "kernel not registered: " << name;
    return Error::OperatorMissing;
  }
  EXPECT_EQ(entry->num_args, static_cast<int32_t>(args.size())) << name;
  clear_error();
  temp_.reset();
  KernelArgs kernel_args(args.data(), args.size());
  // With the default temp, a kernel gets exactly the scratch it declares
  // (KernelEntry::scratch; none without one), as a method whose largest need
  // is this call's would give it at load. So every kernel test also checks
  // the declaration: a kernel that runs out of it, or uses temp without
  // declaring any, fails here. Tests that shrink temp_ keep their own.
  const bool exact = use_temp_ && temp_.capacity() == temp_buffer_.size();
  std::vector<uint8_t> declared(exact && entry->scratch != nullptr ? entry->scratch(kernel_args) : 0);
  MemoryAllocator declared_temp(declared.data(), declared.size());
  KernelContext context;
  context.temp = exact ? &declared_temp : (use_temp_ ? &temp_ : nullptr);
  context.user_data = entry->user_data;
  const Error error = entry->fn(context, kernel_args);
  EXPECT_FALSE(exact && declared_temp.exhausted())
      << name << " ran out of the " << declared.size() << " bytes of scratch it declares";
  return error;
}

Error KernelTest::call_out(const char* name, std::vector<EValue*> inputs, Tensor* out) {
  EValue* o = t(out);
  inputs.push_back(o);
  inputs.push_back(o);
  return call(name, std::move(inputs));
}

EValue* KernelTest::str(const char* s) {
  strings_.emplace_back(s);
  EValue v;
  v.tag = Tag::String;
  v.payload.as_string.data = strings_.back().data();
  v.payload.as_string.size = strings_.back().size();
  return tf.value(v);
}

std::vector<SizesType> sizes_of(const Tensor& t) {
  return std::vector<SizesType>(t.sizes().begin(), t.sizes().end());
}

::testing::AssertionResult values_near(const Tensor& t, const std::vector<double>& expected,
                                       double tol) {
  const std::vector<double> got = TensorFactory::values(t);
  if (got.size() != expected.size()) {
    return ::testing::AssertionFailure()
           << "got " << got.size() << " values, expected " << expected.size();
  }
  for (size_t i = 0; i < got.size(); ++i) {
    const double g = got[i];
    const double e = expected[i];
    if (std::isnan(e) && std::isnan(g)) continue;
    if (g == e) continue;
    if (std::fabs(g - e) <= tol * (1 + std::fabs(e))) continue;
    std::ostringstream all;
    for (double v : got) all << v << " ";
    return ::testing::AssertionFailure()
           << "value " << i << ": got " << g << ", expected " << e << " (all: " << all.str()
           << ")";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace tri::testing
