// Bundled programs (`.bpte`, flatbuffer identifier "BP08"): an ExecuTorch
// program plus test cases for its methods, as written by ExecuTorch's
// bundled-program serializer (schema: ../schema/bundled_program.fbs).
//
// The file is one flatbuffer (no extended header). The inner program is a
// complete `.pte` file stored in the `program` byte vector, which the writer
// aligns to 32 bytes from the start of the file, so with the file's bytes at
// an aligned address it can be loaded in place (see program_offset()).
//
// load() verifies the flatbuffer and checks every test value once: a known
// kind, a known dtype, sizes and dim order that make sense, and tensor data of
// exactly dtype × sizes bytes. Afterwards the accessors only fail for an index
// out of range. All views point into the caller's bytes (zero copy), which
// must outlive this object and must start at an 8-byte aligned address.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/scalar_type.h"
#include "cpp/runtime/core/span.h"

namespace bundled_program_flatbuffer {
struct BundledProgram;
struct BundledMethodTestCase;
struct Value;
}  // namespace bundled_program_flatbuffer

namespace tri::pte {

// What a bundled input or expected output holds. The numbers are Trident's
// own; None is a value slot the file left empty.
enum class BundledValueKind : uint8_t {
  None = 0,
  Tensor = 1,
  Int = 2,
  Bool = 3,
  Double = 4,
};

const char* bundled_value_kind_name(BundledValueKind kind);

// One input or expected output of a test case.
struct BundledValue {
  BundledValueKind kind = BundledValueKind::None;
  // Tensor only. `data` is dtype × sizes bytes, row-major in `dim_order`
  // (empty dim_order = contiguous). Its address is whatever the file gives
  // (the writer aligns it to 16 bytes from the start of the file).
  ScalarType dtype = ScalarType::Float;
  Span<const int32_t> sizes;
  Span<const uint8_t> dim_order;
  ByteSpan data;
  // Scalars, by kind.
  int64_t int_value = 0;
  bool bool_value = false;
  double double_value = 0;
};

// A view of one test case: feed the inputs to the method, compare the
// outputs with the expected ones.
class BundledTestCase {
 public:
  BundledTestCase() = default;

  size_t num_inputs() const;
  size_t num_expected_outputs() const;
  Result<BundledValue> input(size_t index) const;
  Result<BundledValue> expected_output(size_t index) const;

 private:
  friend class BundledProgram;
  const bundled_program_flatbuffer::BundledMethodTestCase* case_ = nullptr;
  uint32_t suite_ = 0;
  uint32_t index_ = 0;
};

class BundledProgram {
 public:
  // The bytes of a whole `.bpte` file. Fails with InvalidArgument (too small,
  // misaligned), NotSupported (another BPxx version) or InvalidProgram (not a
  // bundled program, or anything inconsistent), naming the suite, test case,
  // value and field at fault.
  static Result<BundledProgram> load(ByteSpan file);

  BundledProgram() = default;

  // The inner `.pte` file, in place inside the bundle.
  ByteSpan program() const { return program_; }
  // Its offset from the start of the bundle: a multiple of 32 in files the
  // ExecuTorch writer produced; load() requires a multiple of 8, so the
  // program is 8-byte aligned in memory and can be loaded in place.
  size_t program_offset() const {
    return static_cast<size_t>(program_.data() - file_.data());
  }
  uint32_t version() const;

  size_t num_method_suites() const;
  Result<Span<const char>> method_name(size_t suite) const;
  // The suite testing `method_name`, or NotFound naming the method.
  Result<size_t> find_method_suite(Span<const char> method_name) const;
  Result<size_t> num_test_cases(size_t suite) const;
  Result<BundledTestCase> test_case(size_t suite, size_t index) const;
  // Sum of test cases over all suites.
  size_t total_test_cases() const;

  ByteSpan file() const { return file_; }

 private:
  Error validate() const;

  ByteSpan file_;
  ByteSpan program_;
  const bundled_program_flatbuffer::BundledProgram* root_ = nullptr;
};

}  // namespace tri::pte
