#include "cpp/formats/pte/bundled/bundled_program.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "cpp/formats/pte/file_checks.h"
#include "cpp/formats/pte/schema/bundled_program_generated.h"
#include "cpp/runtime/core/tensor.h"

namespace tri::pte {
namespace {

namespace fb = bundled_program_flatbuffer;

constexpr size_t kMinFileSize = 8;  // root offset + identifier
// The flatbuffer holds u64/double fields; the verifier checks alignment
// relative to the start of the buffer, so the buffer must be this aligned.
constexpr size_t kFileAlignment = 8;
constexpr int kMaxNamePrint = 128;

int name_print_len(size_t size) {
  return size > static_cast<size_t>(kMaxNamePrint) ? kMaxNamePrint
                                                   : static_cast<int>(size);
}

using ValueVector = flatbuffers::Vector<flatbuffers::Offset<fb::Value>>;

size_t count(const ValueVector* values) { return values ? values->size() : 0; }

// Decodes and checks one value. `what` names it for messages.
Error read_value(const fb::Value* value, const char* what, BundledValue* out) {
  *out = BundledValue();
  TRI_CHECK(value != nullptr, Error::InvalidProgram, "%s: value is missing",
            what);
  const fb::ValueUnion type = value->val_type();
  switch (type) {
    case fb::ValueUnion::NONE:
      out->kind = BundledValueKind::None;
      return Error::Ok;
    case fb::ValueUnion::Int: {
      const fb::Int* v = value->val_as_Int();
      TRI_CHECK(v != nullptr, Error::InvalidProgram,
                "%s: type is Int but the Int table is missing", what);
      out->kind = BundledValueKind::Int;
      out->int_value = v->int_val();
      return Error::Ok;
    }
    case fb::ValueUnion::Bool: {
      const fb::Bool* v = value->val_as_Bool();
      TRI_CHECK(v != nullptr, Error::InvalidProgram,
                "%s: type is Bool but the Bool table is missing", what);
      out->kind = BundledValueKind::Bool;
      out->bool_value = v->bool_val();
      return Error::Ok;
    }
    case fb::ValueUnion::Double: {
      const fb::Double* v = value->val_as_Double();
      TRI_CHECK(v != nullptr, Error::InvalidProgram,
                "%s: type is Double but the Double table is missing", what);
      out->kind = BundledValueKind::Double;
      out->double_value = v->double_val();
      return Error::Ok;
    }
    case fb::ValueUnion::Tensor:
      break;
    default:
      return fail(Error::InvalidProgram,
                  "%s: unknown value type %d (known: 1 Tensor, 2 Int, 3 Bool, "
                  "4 Double)",
                  what, static_cast<int>(type));
  }

  const fb::Tensor* t = value->val_as_Tensor();
  TRI_CHECK(t != nullptr, Error::InvalidProgram,
            "%s: type is Tensor but the Tensor table is missing", what);
  const int8_t dtype_value = static_cast<int8_t>(t->scalar_type());
  TRI_CHECK(is_valid_scalar_type(dtype_value), Error::InvalidProgram,
            "%s: tensor scalar_type %d is not a known dtype", what,
            static_cast<int>(dtype_value));
  const ScalarType dtype = static_cast<ScalarType>(dtype_value);
  const flatbuffers::Vector<int32_t>* sizes = t->sizes();
  const size_t rank = sizes ? sizes->size() : 0;
  TRI_CHECK(rank <= kTensorDimLimit, Error::InvalidProgram,
            "%s: tensor has %zu dimensions, more than the limit of %zu", what,
            rank, kTensorDimLimit);
  const Span<const int32_t> size_span(sizes ? sizes->data() : nullptr, rank);
  char text[160];
  size_t numel = 0;
  TRI_CHECK(checked_numel(size_span, &numel), Error::InvalidProgram,
            "%s: tensor sizes %s are negative or overflow", what,
            format_sizes(size_span, text, sizeof(text)));
  const size_t elem = element_size(dtype);
  TRI_CHECK(elem != 0 && numel <= SIZE_MAX / elem, Error::InvalidProgram,
            "%s: tensor sizes %s of %s overflow", what,
            format_sizes(size_span, text, sizeof(text)), scalar_type_name(dtype));
  const size_t nbytes = numel * elem;

  const flatbuffers::Vector<uint8_t>* dim_order = t->dim_order();
  const size_t order_len = dim_order ? dim_order->size() : 0;
  TRI_CHECK(order_len == 0 || order_len == rank, Error::InvalidProgram,
            "%s: tensor dim_order has %zu entries for %zu dimensions", what,
            order_len, rank);
  bool seen[kTensorDimLimit] = {};
  for (size_t i = 0; i < order_len; ++i) {
    const uint8_t d = dim_order->Get(static_cast<flatbuffers::uoffset_t>(i));
    TRI_CHECK(d < rank && !seen[d], Error::InvalidProgram,
              "%s: tensor dim_order is not a permutation of 0..%zu (entry %zu "
              "is %u)",
              what, rank == 0 ? 0 : rank - 1, i, static_cast<unsigned>(d));
    seen[d] = true;
  }

  const flatbuffers::Vector<uint8_t>* data = t->data();
  const size_t data_size = data ? data->size() : 0;
  TRI_CHECK(data_size == nbytes, Error::InvalidProgram,
            "%s: tensor data is %zu bytes, but %s %s needs %zu", what,
            data_size, scalar_type_name(dtype),
            format_sizes(size_span, text, sizeof(text)), nbytes);

  out->kind = BundledValueKind::Tensor;
  out->dtype = dtype;
  out->sizes = size_span;
  out->dim_order =
      Span<const uint8_t>(dim_order ? dim_order->data() : nullptr, order_len);
  out->data = ByteSpan(data ? data->data() : nullptr, data_size);
  return Error::Ok;
}

// "bundled program: method_test_suites[0] ('forward') test_cases[3] inputs[1]"
void describe(char* buffer, size_t capacity, const fb::BundledProgram* root,
              size_t suite, size_t test_case, const char* list, size_t index) {
  const fb::BundledMethodTestSuite* s =
      root->method_test_suites()->Get(static_cast<flatbuffers::uoffset_t>(suite));
  const flatbuffers::String* name = s->method_name();
  snprintf(buffer, capacity,
           "bundled program: method_test_suites[%zu] ('%.*s') "
           "test_cases[%zu] %s[%zu]",
           suite, name ? name_print_len(name->size()) : 0,
           name ? name->c_str() : "", test_case, list, index);
}

}  // namespace

const char* bundled_value_kind_name(BundledValueKind kind) {
  switch (kind) {
    case BundledValueKind::None: return "None";
    case BundledValueKind::Tensor: return "Tensor";
    case BundledValueKind::Int: return "Int";
    case BundledValueKind::Bool: return "Bool";
    case BundledValueKind::Double: return "Double";
  }
  return "Unknown";
}

// ---- BundledTestCase ----

size_t BundledTestCase::num_inputs() const {
  return case_ ? count(case_->inputs()) : 0;
}

size_t BundledTestCase::num_expected_outputs() const {
  return case_ ? count(case_->expected_outputs()) : 0;
}

Result<BundledValue> BundledTestCase::input(size_t index) const {
  TRI_CHECK(index < num_inputs(), Error::InvalidArgument,
            "bundled program: suite %" PRIu32 " test case %" PRIu32
            ": input %zu is out of range (%zu inputs)",
            suite_, index_, index, num_inputs());
  char what[96];
  snprintf(what, sizeof(what),
           "bundled program: suite %" PRIu32 " test case %" PRIu32
           " input %zu",
           suite_, index_, index);
  BundledValue value;
  TRI_TRY(read_value(
      case_->inputs()->Get(static_cast<flatbuffers::uoffset_t>(index)), what,
      &value));
  return value;
}

Result<BundledValue> BundledTestCase::expected_output(size_t index) const {
  TRI_CHECK(index < num_expected_outputs(), Error::InvalidArgument,
            "bundled program: suite %" PRIu32 " test case %" PRIu32
            ": expected output %zu is out of range (%zu expected outputs)",
            suite_, index_, index, num_expected_outputs());
  char what[96];
  snprintf(what, sizeof(what),
           "bundled program: suite %" PRIu32 " test case %" PRIu32
           " expected output %zu",
           suite_, index_, index);
  BundledValue value;
  TRI_TRY(read_value(case_->expected_outputs()->Get(
                         static_cast<flatbuffers::uoffset_t>(index)),
                     what, &value));
  return value;
}

// ---- BundledProgram ----

Result<BundledProgram> BundledProgram::load(ByteSpan file) {
  TRI_TRY(
      check_file_start(file, kMinFileSize, kFileAlignment, "bundled program"));
  TRI_TRY(check_identifier(file, kFileIdentifierOffset,
                           fb::BundledProgramIdentifier(),
                           Error::InvalidProgram, "bundled program"));
  const uint8_t* bytes = file.data();
  TRI_CHECK(file.size() < FLATBUFFERS_MAX_BUFFER_SIZE, Error::InvalidProgram,
            "bundled program: %zu bytes is larger than flatbuffers allows",
            file.size());

  flatbuffers::Verifier::Options opts;
  opts.max_depth = 64;
  opts.max_tables = 10000000;
  opts.check_alignment = true;
  flatbuffers::Verifier verifier(bytes, file.size(), opts);
  TRI_CHECK(fb::VerifyBundledProgramBuffer(verifier), Error::InvalidProgram,
            "bundled program: the BP08 flatbuffer (%zu bytes) fails "
            "verification: an offset or length points outside the data, or "
            "the file is truncated",
            file.size());

  BundledProgram bundle;
  bundle.file_ = file;
  bundle.root_ = fb::GetBundledProgram(bytes);
  const flatbuffers::Vector<uint8_t>* program = bundle.root_->program();
  TRI_CHECK(program != nullptr && program->size() > 0, Error::InvalidProgram,
            "bundled program: the inner program (field 'program') is %s",
            program == nullptr ? "missing" : "empty");
  bundle.program_ = ByteSpan(program->data(), program->size());
  // The writer aligns the program to 32 bytes so that it can be loaded in
  // place; at least 8 is needed for its flatbuffer reads to be aligned.
  TRI_CHECK(bundle.program_offset() % kFileAlignment == 0,
            Error::InvalidProgram,
            "bundled program: the inner program at offset %zu is not %zu-byte "
            "aligned, so it cannot be loaded in place",
            bundle.program_offset(), kFileAlignment);
  TRI_TRY(bundle.validate());
  return bundle;
}

Error BundledProgram::validate() const {
  const auto* suites = root_->method_test_suites();
  const size_t num_suites = suites ? suites->size() : 0;
  char what[kMaxNamePrint + 128];
  for (size_t s = 0; s < num_suites; ++s) {
    const fb::BundledMethodTestSuite* suite =
        suites->Get(static_cast<flatbuffers::uoffset_t>(s));
    TRI_CHECK(suite->method_name() != nullptr, Error::InvalidProgram,
              "bundled program: method_test_suites[%zu] has no method_name", s);
    const auto* cases = suite->test_cases();
    const size_t num_cases = cases ? cases->size() : 0;
    for (size_t c = 0; c < num_cases; ++c) {
      const fb::BundledMethodTestCase* tc =
          cases->Get(static_cast<flatbuffers::uoffset_t>(c));
      BundledValue value;
      for (size_t i = 0; i < count(tc->inputs()); ++i) {
        describe(what, sizeof(what), root_, s, c, "inputs", i);
        TRI_TRY(read_value(tc->inputs()->Get(static_cast<flatbuffers::uoffset_t>(i)),
                           what, &value));
      }
      for (size_t i = 0; i < count(tc->expected_outputs()); ++i) {
        describe(what, sizeof(what), root_, s, c, "expected_outputs", i);
        TRI_TRY(read_value(
            tc->expected_outputs()->Get(static_cast<flatbuffers::uoffset_t>(i)),
            what, &value));
      }
    }
  }
  return Error::Ok;
}

uint32_t BundledProgram::version() const {
  return root_ ? root_->version() : 0;
}

size_t BundledProgram::num_method_suites() const {
  return root_ && root_->method_test_suites()
             ? root_->method_test_suites()->size()
             : 0;
}

Result<Span<const char>> BundledProgram::method_name(size_t suite) const {
  TRI_CHECK(suite < num_method_suites(), Error::InvalidArgument,
            "bundled program: method suite %zu is out of range (%zu suites)",
            suite, num_method_suites());
  const flatbuffers::String* name =
      root_->method_test_suites()
          ->Get(static_cast<flatbuffers::uoffset_t>(suite))
          ->method_name();
  return Span<const char>(name->c_str(), name->size());
}

Result<size_t> BundledProgram::find_method_suite(
    Span<const char> method_name) const {
  for (size_t s = 0; s < num_method_suites(); ++s) {
    const flatbuffers::String* name =
        root_->method_test_suites()
            ->Get(static_cast<flatbuffers::uoffset_t>(s))
            ->method_name();
    if (name->size() == method_name.size() &&
        (method_name.size() == 0 ||
         memcmp(name->data(), method_name.data(), method_name.size()) == 0)) {
      return s;
    }
  }
  return fail(Error::NotFound,
              "bundled program: no test suite for method '%.*s' (%zu suites)",
              name_print_len(method_name.size()),
              method_name.data() ? method_name.data() : "",
              num_method_suites());
}

Result<size_t> BundledProgram::num_test_cases(size_t suite) const {
  TRI_CHECK(suite < num_method_suites(), Error::InvalidArgument,
            "bundled program: method suite %zu is out of range (%zu suites)",
            suite, num_method_suites());
  const auto* cases = root_->method_test_suites()
                          ->Get(static_cast<flatbuffers::uoffset_t>(suite))
                          ->test_cases();
  return static_cast<size_t>(cases ? cases->size() : 0);
}

Result<BundledTestCase> BundledProgram::test_case(size_t suite,
                                                  size_t index) const {
  TRI_ASSIGN_OR_RETURN(const size_t n, num_test_cases(suite));
  TRI_CHECK(index < n, Error::InvalidArgument,
            "bundled program: test case %zu of method suite %zu is out of "
            "range (%zu test cases)",
            index, suite, n);
  BundledTestCase tc;
  tc.case_ = root_->method_test_suites()
                 ->Get(static_cast<flatbuffers::uoffset_t>(suite))
                 ->test_cases()
                 ->Get(static_cast<flatbuffers::uoffset_t>(index));
  tc.suite_ = static_cast<uint32_t>(suite);
  tc.index_ = static_cast<uint32_t>(index);
  return tc;
}

size_t BundledProgram::total_test_cases() const {
  size_t total = 0;
  for (size_t s = 0; s < num_method_suites(); ++s) {
    Result<size_t> n = num_test_cases(s);
    total += n.ok() ? n.get() : 0;
  }
  return total;
}

}  // namespace tri::pte
