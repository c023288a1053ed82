// libFuzzer target for bundled programs (.bpte): the bundle is read on its
// own first, every suite, test case, input and expected output through the
// accessors a test runner uses, with each tensor's bytes touched so a value
// pointing outside the file trips ASan. Then the whole file goes through the
// host as a page would load it: the inner program loaded, its bundled tests
// listed, each method run once (load_and_run.h).
#include "cpp/formats/pte/bundled/bundled_program.h"
#include "tests/fuzz/load_and_run.h"
#include "tests/fuzz/touch.h"

namespace {

void touch(const tri::pte::BundledValue& value) {
  touch_bytes(value.data.data(), value.data.size());
  touch_bytes(reinterpret_cast<const uint8_t*>(value.sizes.data()), value.sizes.size() * 4);
  touch_bytes(value.dim_order.data(), value.dim_order.size());
}

void read_every_case(const tri::pte::BundledProgram& bundle) {
  (void)bundle.total_test_cases();
  for (size_t s = 0; s < bundle.num_method_suites(); ++s) {
    tri::Result<tri::Span<const char>> name = bundle.method_name(s);
    if (name.ok()) (void)bundle.find_method_suite(*name);
    tri::Result<size_t> cases = bundle.num_test_cases(s);
    if (!cases.ok()) continue;
    for (size_t c = 0; c < *cases; ++c) {
      tri::Result<tri::pte::BundledTestCase> test = bundle.test_case(s, c);
      if (!test.ok()) continue;
      for (size_t i = 0; i < test->num_inputs(); ++i) {
        tri::Result<tri::pte::BundledValue> value = test->input(i);
        if (value.ok()) touch(*value);
      }
      for (size_t i = 0; i < test->num_expected_outputs(); ++i) {
        tri::Result<tri::pte::BundledValue> value = test->expected_output(i);
        if (value.ok()) touch(*value);
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (!register_everything()) __builtin_trap();
  const tri::host::OwnedBytes copy = tri::host::OwnedBytes::copy_of(data, size);
  tri::Result<tri::pte::BundledProgram> bundle =
      tri::pte::BundledProgram::load(tri::ByteSpan(copy.data(), copy.size()));
  if (!bundle.ok()) return 0;
  read_every_case(*bundle);
  load_and_run(data, size);
  return 0;
}
