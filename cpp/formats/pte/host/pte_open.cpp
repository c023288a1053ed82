#include "cpp/formats/pte/host/pte_open.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "cpp/formats/pte/bundled/bundled_program.h"
#include "cpp/formats/pte/flat_tensor/flat_tensor_data_map.h"
#include "cpp/formats/pte/host/pte_graph.h"
#include "cpp/formats/pte/pte_kept_bytes.h"
#include "cpp/formats/pte/pte_lifetime_plan.h"
#include "cpp/formats/pte/pte_program.h"
#include "cpp/formats/pte/schema/program_generated.h"
#include "cpp/host/value_json.h"

namespace tri::pte {
namespace {

using host::LoadedDataFile;
using host::LoadedFile;
using host::OpenOptions;

bool is_digit(uint8_t b) { return b >= '0' && b <= '9'; }

// Two letters and two digits at bytes 4..8 (a flatbuffer identifier; the
// digits are the schema version, which the front end checks with a better
// message).
bool has_identifier(ByteSpan bytes, char a, char b) {
  return bytes.size() >= 8 && bytes[4] == a && bytes[5] == b && is_digit(bytes[6]) &&
         is_digit(bytes[7]);
}

PteLoadOptions pte_options(const OpenOptions& options) {
  PteLoadOptions o;
  o.max_planned_bytes = options.max_planned_bytes;
  // Over the limit, a method may still run planned per shape; make() checks.
  o.defer_plan_limit = options.plan_by_lifetimes || options.plan_per_shape;
  return o;
}

// The plans of a program's methods made at load: per shape where asked
// (OpenOptions::plan_per_shape) or where the file's plan is over the limit,
// by lifetimes where that is safe, else the file's. Owns what the program
// points at.
class LifetimePlans {
 public:
  Error make(PteProgram& program, const OpenOptions& options) {
    const size_t n = program.num_methods();
    offsets_.resize(n);
    views_.resize(n);
    plans_.resize(n);
    for (size_t m = 0; m < n; ++m) {
      const auto* values = program.plan(m)->values();
      const size_t nv = values ? values->size() : 0;
      std::vector<uint64_t> scratch((kLifetimePlanScratchFixed + nv * kLifetimePlanScratchPerValue) /
                                    sizeof(uint64_t));
      const MemoryAllocator scratch_allocator(scratch.data(), scratch.size() * sizeof(uint64_t));
      const bool over_limit = program.check_plan_limit(m) != Error::Ok;
      const std::string limit_message = over_limit ? last_error_message() : "";
      if (options.plan_per_shape || over_limit) {
        std::vector<uint8_t> views(nv);
        const Error why =
            program.check_per_shape(m, scratch_allocator, Span<uint8_t>(views.data(), views.size()));
        if (why == Error::Ok) {
          views_[m] = std::move(views);
          plans_[m].per_shape = true;
          plans_[m].views = views_[m].data();
          continue;
        }
        if (over_limit) {
          // fail() writes the buffer last_error_message() points at.
          const std::string reason = last_error_message();
          return fail(Error::LimitExceeded, "%s; planning it at each run's shapes instead is not possible: %s",
                      limit_message.c_str(), reason.c_str());
        }
      }
      if (!options.plan_by_lifetimes) continue;
      std::vector<uint64_t> offsets(nv);
      Result<uint64_t> bytes = program.plan_by_lifetimes(
          m, Span<uint64_t>(offsets.data(), offsets.size()), scratch_allocator);
      if (!bytes.ok()) continue;  // the file's plan stays; its reason is not an error
      offsets_[m] = std::move(offsets);
      plans_[m] = LifetimePlan{offsets_[m].data(), *bytes, false, nullptr};
    }
    program.set_lifetime_plans(Span<const LifetimePlan>(plans_.data(), plans_.size()));
    return Error::Ok;
  }

 private:
  std::vector<std::vector<uint64_t>> offsets_;
  std::vector<std::vector<uint8_t>> views_;
  std::vector<LifetimePlan> plans_;
};

class OpenedProgram final : public LoadedFile {
 public:
  explicit OpenedProgram(PteProgram program) : program_(std::move(program)) {}
  Error make_plans(const OpenOptions& options) { return plans_.make(program_, options); }
  const char* format() const override { return "pte"; }
  Program* program() override { return &program_; }
  Result<host::MethodGraph> graph(size_t method, const Method* loaded) const override {
    return pte_method_graph(program_, method, loaded);
  }
  Result<std::vector<host::WeightInfo>> weights(const NamedDataMap* external) const override {
    return pte_weights(program_, external);
  }
  // What only delegates read at init is the file's tail (pte_kept_bytes.h).
  // A bundled program's .pte sits inside its bundle, which stays whole.
  size_t bytes_needed_after_init() const override {
    return static_cast<size_t>(pte::bytes_needed_after_init(program_));
  }

 private:
  PteProgram program_;
  LifetimePlans plans_;
};

class OpenedBundle final : public LoadedFile {
 public:
  OpenedBundle(BundledProgram bundle, PteProgram program)
      : bundle_(std::move(bundle)), program_(std::move(program)) {}
  Error make_plans(const OpenOptions& options) { return plans_.make(program_, options); }
  const char* format() const override { return "bpte"; }
  Program* program() override { return &program_; }
  size_t bundled_test_count() const override { return bundle_.total_test_cases(); }
  Result<std::string> bundled_test_json(size_t index) const override;
  Result<host::MethodGraph> graph(size_t method, const Method* loaded) const override {
    return pte_method_graph(program_, method, loaded);
  }
  Result<std::vector<host::WeightInfo>> weights(const NamedDataMap* external) const override {
    return pte_weights(program_, external);
  }

 private:
  BundledProgram bundle_;
  PteProgram program_;
  LifetimePlans plans_;
};

Result<std::string> OpenedBundle::bundled_test_json(size_t index) const {
  TRI_CHECK(index < bundled_test_count(), Error::NotFound,
            "the loaded file has no bundled test %zu (it has %zu)", index, bundled_test_count());
  // Test cases are numbered across suites, suite by suite.
  size_t suite = 0;
  size_t local = index;
  for (; suite < bundle_.num_method_suites(); ++suite) {
    TRI_ASSIGN_OR_RETURN(const size_t n, bundle_.num_test_cases(suite));
    if (local < n) break;
    local -= n;
  }
  TRI_ASSIGN_OR_RETURN(const Span<const char> name, bundle_.method_name(suite));
  TRI_ASSIGN_OR_RETURN(const BundledTestCase test, bundle_.test_case(suite, local));
  nlohmann::json inputs = nlohmann::json::array();
  for (size_t i = 0; i < test.num_inputs(); ++i) {
    TRI_ASSIGN_OR_RETURN(const BundledValue v, test.input(i));
    inputs.push_back(host::bundled_value_json(v));
  }
  nlohmann::json outputs = nlohmann::json::array();
  for (size_t i = 0; i < test.num_expected_outputs(); ++i) {
    TRI_ASSIGN_OR_RETURN(const BundledValue v, test.expected_output(i));
    outputs.push_back(host::bundled_value_json(v));
  }
  return host::dump_json(nlohmann::json{{"method", std::string(name.data(), name.size())},
                                        {"inputs", std::move(inputs)},
                                        {"outputs", std::move(outputs)}});
}

class OpenedData final : public LoadedDataFile {
 public:
  explicit OpenedData(FlatTensorDataMap map) : map_(std::move(map)) {}
  const NamedDataMap& data() const override { return map_; }

 private:
  FlatTensorDataMap map_;
};

}  // namespace

bool sniff_pte(ByteSpan bytes) { return has_identifier(bytes, 'E', 'T'); }
bool sniff_bpte(ByteSpan bytes) { return has_identifier(bytes, 'B', 'P'); }
bool sniff_ptd(ByteSpan bytes) { return has_identifier(bytes, 'F', 'T'); }

Result<std::unique_ptr<LoadedFile>> open_pte(ByteSpan bytes, const OpenOptions& options) {
  TRI_ASSIGN_OR_RETURN(PteProgram program, PteProgram::load(bytes, pte_options(options)));
  auto opened = std::make_unique<OpenedProgram>(std::move(program));
  TRI_TRY(opened->make_plans(options));
  return std::unique_ptr<LoadedFile>(std::move(opened));
}

Result<std::unique_ptr<LoadedFile>> open_bpte(ByteSpan bytes, const OpenOptions& options) {
  TRI_ASSIGN_OR_RETURN(BundledProgram bundle, BundledProgram::load(bytes));
  TRI_ASSIGN_OR_RETURN(PteProgram program,
                       PteProgram::load(bundle.program(), pte_options(options)));
  auto opened = std::make_unique<OpenedBundle>(std::move(bundle), std::move(program));
  TRI_TRY(opened->make_plans(options));
  return std::unique_ptr<LoadedFile>(std::move(opened));
}

Result<std::unique_ptr<LoadedDataFile>> open_ptd(ByteSpan bytes) {
  TRI_ASSIGN_OR_RETURN(FlatTensorDataMap map, FlatTensorDataMap::load(bytes));
  return std::unique_ptr<LoadedDataFile>(new OpenedData(std::move(map)));
}

}  // namespace tri::pte
