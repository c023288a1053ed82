#include "cpp/formats/pt2/host/pt2_open.h"

#include "cpp/formats/pt2/host/pt2_inspect.h"
#include "cpp/formats/pt2/host/pt2_program.h"
#include "cpp/host/value_json.h"

namespace tri::pt2 {
namespace {

class OpenedArchive final : public host::LoadedFile {
 public:
  explicit OpenedArchive(std::unique_ptr<Pt2Program> program) : program_(std::move(program)) {}
  const char* format() const override { return "pt2"; }
  Program* program() override { return program_.get(); }
  Result<std::string> sample_inputs_json(size_t method) const override;
  Result<host::MethodGraph> graph(size_t method, const Method*) const override {
    return pt2_method_graph(*program_, method);
  }
  Result<std::vector<host::WeightInfo>> weights(const NamedDataMap*) const override {
    return pt2_weights(*program_);
  }

 private:
  std::unique_ptr<Pt2Program> program_;
};

Result<std::string> OpenedArchive::sample_inputs_json(size_t method) const {
  TRI_CHECK(method < program_->num_methods() && program_->has_sample_inputs(method),
            Error::NotFound, "the archive stores no sample inputs for method '%s'",
            program_->method_name(method));
  nlohmann::json inputs = nlohmann::json::array();
  for (const SampleValue& v : program_->sample_inputs(method)) {
    size_t numel = 1;
    for (int32_t s : v.tensor.sizes) numel *= static_cast<size_t>(s);
    inputs.push_back({{"dtype", scalar_type_numpy_name(v.tensor.dtype)},
                      {"shape", v.tensor.sizes},
                      {"values", host::tensor_values_json(v.tensor.dtype, v.tensor.data, numel)}});
  }
  return host::dump_json(inputs);
}

}  // namespace

// Every zip starts with a local file header; which zips are PT2 archives
// (and which layout) the open step tells from the entry names.
bool sniff_pt2(ByteSpan head) {
  return head.size() >= 4 && head[0] == 0x50 && head[1] == 0x4b && head[2] == 0x03 &&
         head[3] == 0x04;
}

Result<std::unique_ptr<host::LoadedFile>> open_pt2(ByteSpan bytes,
                                                   const host::OpenOptions& options) {
  Pt2LoadOptions o;
  o.max_planned_bytes = options.max_planned_bytes;
  TRI_ASSIGN_OR_RETURN(std::unique_ptr<Pt2Program> program, Pt2Program::load(bytes, o));
  return std::unique_ptr<host::LoadedFile>(new OpenedArchive(std::move(program)));
}

}  // namespace tri::pt2
