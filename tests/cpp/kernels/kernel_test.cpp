#include "tests/cpp/kernels/kernel_test.h"

#include <cmath>
#include <sstream>

#include "cpp/runtime/kernel/kernel_args.h"

namespace tri::testing {

Error KernelTest::call(const char* name, std::vector<EValue*> args) {
  const KernelEntry* entry = find_kernel(name);
  if (entry == nullptr) {
    ADD_FAILURE() << "kernel not registered: " << name;
    return Error::OperatorMissing;
  }
  EXPECT_EQ(entry->num_args, static_cast<int32_t>(args.size())) << name;
  clear_error();
  temp_.reset();
  KernelContext context;
  context.temp = use_temp_ ? &temp_ : nullptr;
  context.user_data = entry->user_data;
  KernelArgs kernel_args(args.data(), args.size());
  return entry->fn(context, kernel_args);
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
