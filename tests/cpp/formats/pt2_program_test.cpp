// The PT2 front end on archives built here (layout C, the format torch 2.9+
// writes): a tiny model runs; several models become several methods; and
// every hostile archive of issue 9's list fails with a clear error, after
// which the runtime still loads and runs a good archive.
#include "cpp/formats/pt2/host/pt2_program.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "cpp/host/host_model.h"
#include "tests/cpp/support/zip_builder.h"

namespace tri::pt2 {
namespace {

using ::tri::testing::make_zip;
using ::tri::testing::ZipRecord;

std::string meta(const std::string& sizes, int dtype = 7) {
  std::string dims;
  std::string strides;
  // sizes like "4" or "2, 3": build SymInt lists with row-major strides.
  std::vector<long long> s;
  for (size_t at = 0; at < sizes.size();) {
    size_t end = sizes.find(',', at);
    if (end == std::string::npos) end = sizes.size();
    s.push_back(std::stoll(sizes.substr(at, end - at)));
    at = end + 1;
  }
  long long stride = 1;
  std::vector<long long> st(s.size());
  for (size_t d = s.size(); d-- > 0;) {
    st[d] = stride;
    stride *= s[d];
  }
  for (size_t d = 0; d < s.size(); ++d) {
    dims += std::string(d ? ", " : "") + "{\"as_int\": " + std::to_string(s[d]) + "}";
    strides += std::string(d ? ", " : "") + "{\"as_int\": " + std::to_string(st[d]) + "}";
  }
  return "{\"dtype\": " + std::to_string(dtype) + ", \"sizes\": [" + dims +
         "], \"requires_grad\": false, \"device\": {\"type\": \"cpu\", \"index\": null}, "
         "\"strides\": [" + strides + "], \"storage_offset\": {\"as_int\": 0}, \"layout\": 7}";
}

struct TinyModel {
  std::string target = "torch.ops.aten.mul.Tensor";
  std::string y_sizes = "4";
  std::string output_spec = "user_output";
  std::string schema = "{\"major\": 8, \"minor\": 14}";
};

// y = x * w, with w a parameter.
std::string model_json(const TinyModel& m = TinyModel()) {
  return "{\"graph_module\": {\"graph\": {\"inputs\": [{\"as_tensor\": {\"name\": \"p_w\"}}, "
         "{\"as_tensor\": {\"name\": \"x\"}}], \"outputs\": [{\"as_tensor\": {\"name\": \"y\"}}], "
         "\"nodes\": [{\"target\": \"" + m.target + "\", \"inputs\": [{\"name\": \"self\", "
         "\"arg\": {\"as_tensor\": {\"name\": \"x\"}}, \"kind\": 1}, {\"name\": \"other\", "
         "\"arg\": {\"as_tensor\": {\"name\": \"p_w\"}}, \"kind\": 1}], \"outputs\": "
         "[{\"as_tensor\": {\"name\": \"y\"}}], \"metadata\": {}, \"is_hop_single_tensor_return\": "
         "null}], \"tensor_values\": {\"p_w\": " + meta("4") + ", \"x\": " + meta("4") +
         ", \"y\": " + meta(m.y_sizes) + "}, \"sym_int_values\": {}, \"sym_bool_values\": {}, "
         "\"is_single_tensor_return\": false, \"custom_obj_values\": {}, \"sym_float_values\": "
         "{}}, \"signature\": {\"input_specs\": [{\"parameter\": {\"arg\": {\"name\": \"p_w\"}, "
         "\"parameter_name\": \"w\"}}, {\"user_input\": {\"arg\": {\"as_tensor\": {\"name\": "
         "\"x\"}}}}], \"output_specs\": [{\"" + m.output_spec + "\": {\"arg\": {\"as_tensor\": "
         "{\"name\": \"y\"}}}}]}, \"module_call_graph\": [], \"metadata\": {}, "
         "\"treespec_namedtuple_fields\": {}}, \"opset_version\": {\"aten\": 10}, "
         "\"range_constraints\": {}, \"schema_version\": " + m.schema + ", \"verifiers\": "
         "[\"TRAINING\"], \"torch_version\": \"2.9.0\", \"guards_code\": []}";
}

std::string floats(const std::vector<float>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4);
}

std::vector<ZipRecord> tiny_records(const std::string& json = model_json()) {
  return {
      {"tiny/data/weights/weight_0", floats({1, 2, 3, 4})},
      {"tiny/data/weights/model_weights_config.json",
       "{\"config\": {\"w\": {\"path_name\": \"weight_0\", \"is_param\": true, \"use_pickle\": "
       "false, \"tensor_meta\": " + meta("4") + "}}}"},
      {"tiny/data/constants/model_constants_config.json", "{\"config\": {}}"},
      {"tiny/models/model.json", json},
      {"tiny/archive_format", "pt2"},
      {"tiny/archive_version", "0"},
      {"tiny/byteorder", "little"},
  };
}

std::vector<uint8_t> tiny_archive() { return make_zip(tiny_records()); }

std::vector<ZipRecord> with(std::vector<ZipRecord> records, const std::string& name,
                            const std::string& data) {
  for (ZipRecord& r : records) {
    if (r.name == name) r.data = data;
  }
  return records;
}

std::vector<ZipRecord> without(std::vector<ZipRecord> records, const std::string& name) {
  std::vector<ZipRecord> out;
  for (ZipRecord& r : records) {
    if (r.name != name) out.push_back(r);
  }
  return out;
}

Error load(host::HostModel& model, const std::vector<uint8_t>& bytes) {
  return model.load(host::OwnedBytes::copy_of(bytes.data(), bytes.size()));
}

// Loads the tiny archive and checks y = x * w.
void expect_tiny_runs(host::HostModel& model, const char* method = "model") {
  Result<uint8_t*> x = model.prepare_input(method, 0, {4});
  ASSERT_TRUE(x.ok()) << last_error_message();
  const float in[] = {1, -1, 0.5f, 2};
  std::memcpy(*x, in, sizeof(in));
  ASSERT_EQ(model.execute(method), Error::Ok) << last_error_message();
  const Tensor& y = (*model.output(method, 0))->to_tensor();
  ASSERT_EQ(y.numel(), 4u);
  const float want[] = {1, -2, 1.5f, 8};
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(y.data_ptr<const float>()[i], want[i]);
}

TEST(Pt2Program, RunsATinyRawWeightsArchive) {
  host::HostModel model;
  ASSERT_EQ(load(model, tiny_archive()), Error::Ok) << last_error_message();
  EXPECT_STREQ(model.format(), "pt2");
  const auto& program = static_cast<const Pt2Program&>(model.program());
  EXPECT_EQ(program.layout(), Pt2Layout::RawWeights);
  expect_tiny_runs(model);
  // No sample inputs in this archive.
  EXPECT_EQ(model.sample_inputs_json("model").error(), Error::NotFound);
}

// torch writes fake (meta) tensors as empty blobs: the weight is zeros.
TEST(Pt2Program, AnEmptyWeightBlobMeansZeros) {
  host::HostModel model;
  ASSERT_EQ(load(model, make_zip(with(tiny_records(), "tiny/data/weights/weight_0", ""))), Error::Ok)
      << last_error_message();
  Result<uint8_t*> x = model.prepare_input("model", 0, {4});
  ASSERT_TRUE(x.ok()) << last_error_message();
  const float in[] = {1, -1, 0.5f, 2};
  std::memcpy(*x, in, sizeof(in));
  ASSERT_EQ(model.execute("model"), Error::Ok) << last_error_message();
  const Tensor& y = (*model.output("model", 0))->to_tensor();
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(y.data_ptr<const float>()[i], 0.0f) << i;
}

TEST(Pt2Program, EveryModelOfTheArchiveIsAMethod) {
  std::vector<ZipRecord> records = tiny_records();
  TinyModel add;
  add.target = "torch.ops.aten.add.Tensor";
  records.push_back({"tiny/models/second.json", model_json(add)});
  records.push_back({"tiny/data/weights/weight_1", floats({10, 20, 30, 40})});
  records.push_back({"tiny/data/weights/second_weights_config.json",
                     "{\"config\": {\"w\": {\"path_name\": \"weight_1\", \"is_param\": true, "
                     "\"use_pickle\": false, \"tensor_meta\": " + meta("4") + "}}}"});
  records.push_back({"tiny/data/constants/second_constants_config.json", "{\"config\": {}}"});
  host::HostModel model;
  ASSERT_EQ(load(model, make_zip(records)), Error::Ok) << last_error_message();
  ASSERT_EQ(model.program().num_methods(), 2u);
  expect_tiny_runs(model, "model");
  Result<uint8_t*> x = model.prepare_input("second", 0, {4});
  ASSERT_TRUE(x.ok()) << last_error_message();
  const float in[] = {1, 2, 3, 4};
  std::memcpy(*x, in, sizeof(in));
  ASSERT_EQ(model.execute("second"), Error::Ok) << last_error_message();
  const float* y = (*model.output("second", 0))->to_tensor().data_ptr<const float>();
  EXPECT_EQ(y[0], 11);
  EXPECT_EQ(y[3], 44);
}

// A graph of user inputs q, k, v (and a float mask when `mask`) and one
// scaled_dot_product_attention node; no weights.
std::vector<ZipRecord> attention_records(bool causal, bool mask) {
  const std::string qkv = meta("2, 3, 4");
  std::string inputs = "{\"as_tensor\": {\"name\": \"q\"}}, {\"as_tensor\": {\"name\": \"k\"}}, "
                       "{\"as_tensor\": {\"name\": \"v\"}}";
  std::string specs = "{\"user_input\": {\"arg\": {\"as_tensor\": {\"name\": \"q\"}}}}, "
                      "{\"user_input\": {\"arg\": {\"as_tensor\": {\"name\": \"k\"}}}}, "
                      "{\"user_input\": {\"arg\": {\"as_tensor\": {\"name\": \"v\"}}}}";
  std::string args = "{\"name\": \"query\", \"arg\": {\"as_tensor\": {\"name\": \"q\"}}}, "
                     "{\"name\": \"key\", \"arg\": {\"as_tensor\": {\"name\": \"k\"}}}, "
                     "{\"name\": \"value\", \"arg\": {\"as_tensor\": {\"name\": \"v\"}}}";
  std::string values = "\"q\": " + qkv + ", \"k\": " + qkv + ", \"v\": " + qkv + ", \"o\": " + qkv;
  if (mask) {
    inputs += ", {\"as_tensor\": {\"name\": \"m\"}}";
    specs += ", {\"user_input\": {\"arg\": {\"as_tensor\": {\"name\": \"m\"}}}}";
    args += ", {\"name\": \"attn_mask\", \"arg\": {\"as_tensor\": {\"name\": \"m\"}}}";
    values += ", \"m\": " + meta("3, 3");
  }
  if (causal) args += ", {\"name\": \"is_causal\", \"arg\": {\"as_bool\": true}}";
  const std::string json =
      "{\"graph_module\": {\"graph\": {\"inputs\": [" + inputs + "], \"outputs\": "
      "[{\"as_tensor\": {\"name\": \"o\"}}], \"nodes\": [{\"target\": "
      "\"torch.ops.aten.scaled_dot_product_attention.default\", \"inputs\": [" + args +
      "], \"outputs\": [{\"as_tensor\": {\"name\": \"o\"}}], \"metadata\": {}}], "
      "\"tensor_values\": {" + values + "}}, \"signature\": {\"input_specs\": [" + specs +
      "], \"output_specs\": [{\"user_output\": {\"arg\": {\"as_tensor\": {\"name\": "
      "\"o\"}}}}]}}, \"schema_version\": {\"major\": 8, \"minor\": 14}}";
  return {{"a/data/weights/model_weights_config.json", "{\"config\": {}}"},
          {"a/data/constants/model_constants_config.json", "{\"config\": {}}"},
          {"a/models/model.json", json}};
}

// softmax(q kᵀ / sqrt(E) + mask) v per batch, in double.
std::vector<double> attention_reference(const std::vector<float>& q, const std::vector<float>& k,
                                        const std::vector<float>& v, bool causal,
                                        const std::vector<float>* mask) {
  const int B = 2, L = 3, E = 4;
  std::vector<double> out(B * L * E, 0.0);
  for (int b = 0; b < B; ++b) {
    for (int i = 0; i < L; ++i) {
      double s[3];
      double top = -1e300;
      for (int j = 0; j < L; ++j) {
        double dot = 0;
        for (int e = 0; e < E; ++e) dot += q[(b * L + i) * E + e] * k[(b * L + j) * E + e];
        s[j] = dot / 2.0 + (mask ? (*mask)[i * L + j] : 0.0);
        if (causal && j > i) s[j] = -INFINITY;
        top = std::max(top, s[j]);
      }
      double sum = 0;
      for (double& x : s) sum += (x = std::exp(x - top));
      for (int j = 0; j < L; ++j) {
        for (int e = 0; e < E; ++e) out[(b * L + i) * E + e] += s[j] / sum * v[(b * L + j) * E + e];
      }
    }
  }
  return out;
}

TEST(Pt2Program, ScaledDotProductAttentionLowersWithItsMasks) {
  std::vector<float> q(24), k(24), v(24), m(9);
  for (int i = 0; i < 24; ++i) {
    q[i] = 0.1f * static_cast<float>((i * 7) % 11) - 0.5f;
    k[i] = 0.2f * static_cast<float>((i * 5) % 9) - 0.8f;
    v[i] = 0.05f * static_cast<float>(i) - 0.6f;
  }
  for (int i = 0; i < 9; ++i) m[i] = 0.3f * static_cast<float>(i % 4) - 0.4f;
  for (const bool causal : {false, true}) {
    for (const bool with_mask : {false, true}) {
      SCOPED_TRACE(std::string(causal ? "causal" : "full") + (with_mask ? " + float mask" : ""));
      host::HostModel model;
      ASSERT_EQ(load(model, make_zip(attention_records(causal, with_mask))), Error::Ok)
          << last_error_message();
      const std::vector<const std::vector<float>*> inputs = {&q, &k, &v, &m};
      for (size_t i = 0; i < (with_mask ? 4u : 3u); ++i) {
        Result<uint8_t*> dst = model.prepare_input("model", i, i == 3 ? std::vector<int32_t>{3, 3}
                                                                       : std::vector<int32_t>{2, 3, 4});
        ASSERT_TRUE(dst.ok()) << last_error_message();
        std::memcpy(*dst, inputs[i]->data(), inputs[i]->size() * 4);
      }
      ASSERT_EQ(model.execute("model"), Error::Ok) << last_error_message();
      const Tensor& o = (*model.output("model", 0))->to_tensor();
      const std::vector<double> want = attention_reference(q, k, v, causal, with_mask ? &m : nullptr);
      ASSERT_EQ(o.numel(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_NEAR(o.data_ptr<const float>()[i], want[i], 1e-5) << i;
      }
    }
  }
}

// Dynamic batch: x [s0, 4] (s0 in [1, 8], or unbounded with example 5)
// times w, viewed as [s0, 2, 2] through a sym_size node, summed over the
// last dim, and flattened to [2*s0] through a Python-operator node.
std::vector<ZipRecord> dynamic_records(bool bounded) {
  auto sym = [](const char* expr, int hint) {
    return std::string("{\"as_expr\": {\"expr_str\": \"") + expr +
           "\", \"hint\": {\"as_int\": " + std::to_string(hint) + "}}}";
  };
  auto dyn_meta = [](const std::string& sizes, const std::string& strides) {
    return "{\"dtype\": 7, \"sizes\": [" + sizes + "], \"requires_grad\": false, \"device\": "
           "{\"type\": \"cpu\", \"index\": null}, \"strides\": [" + strides +
           "], \"storage_offset\": {\"as_int\": 0}, \"layout\": 7}";
  };
  const std::string i4 = "{\"as_int\": 4}", i2 = "{\"as_int\": 2}", i1 = "{\"as_int\": 1}";
  const std::string values =
      "\"p_w\": " + meta("4") + ", \"x\": " + dyn_meta(sym("s0", 5) + ", " + i4, i4 + ", " + i1) +
      ", \"m\": " + dyn_meta(sym("s0", 5) + ", " + i4, i4 + ", " + i1) +
      ", \"v\": " + dyn_meta(sym("s0", 5) + ", " + i2 + ", " + i2, i4 + ", " + i2 + ", " + i1) +
      ", \"y\": " + dyn_meta(sym("s0", 5) + ", " + i2, i2 + ", " + i1) +
      ", \"z\": " + dyn_meta(sym("2*s0", 10), i1);
  auto t = [](const char* n) { return std::string("{\"as_tensor\": {\"name\": \"") + n + "\"}}"; };
  auto named = [](const char* n, const std::string& arg) {
    return std::string("{\"name\": \"") + n + "\", \"arg\": " + arg + "}";
  };
  const std::string sym_out = "{\"as_sym_int\": {\"as_name\": \"sym_size_int\"}}";
  const std::string nodes =
      "{\"target\": \"torch.ops.aten.mul.Tensor\", \"inputs\": [" + named("self", t("x")) + ", " +
      named("other", t("p_w")) + "], \"outputs\": [" + t("m") + "]}, "
      "{\"target\": \"torch.ops.aten.sym_size.int\", \"inputs\": [" + named("self", t("x")) +
      ", " + named("dim", "{\"as_int\": 0}") + "], \"outputs\": [" + sym_out + "]}, "
      "{\"target\": \"torch.ops.aten.view.default\", \"inputs\": [" + named("self", t("m")) +
      ", " + named("size", "{\"as_sym_ints\": [{\"as_name\": \"sym_size_int\"}, {\"as_int\": 2}, "
      "{\"as_int\": 2}]}") + "], \"outputs\": [" + t("v") + "]}, "
      "{\"target\": \"torch.ops.aten.sum.dim_IntList\", \"inputs\": [" + named("self", t("v")) +
      ", " + named("dim", "{\"as_ints\": [2]}") + "], \"outputs\": [" + t("y") + "]}, "
      "{\"target\": \"_operator.mul\", \"inputs\": [" +
      named("a", "{\"as_sym_int\": {\"as_name\": \"sym_size_int\"}}") + ", " +
      named("b", "{\"as_int\": 2}") + "], \"outputs\": [{\"as_sym_int\": {\"as_name\": \"mul_1\"}}]}, "
      "{\"target\": \"torch.ops.aten.view.default\", \"inputs\": [" + named("self", t("y")) +
      ", " + named("size", "{\"as_sym_ints\": [{\"as_name\": \"mul_1\"}]}") +
      "], \"outputs\": [" + t("z") + "]}";
  const std::string range = bounded ? "{\"min_val\": 1, \"max_val\": 8}"
                                    : "{\"min_val\": 2, \"max_val\": null}";
  const std::string json =
      "{\"graph_module\": {\"graph\": {\"inputs\": [" + t("p_w") + ", " + t("x") +
      "], \"outputs\": [" + t("z") + "], \"nodes\": [" + nodes + "], \"tensor_values\": {" +
      values + "}}, \"signature\": {\"input_specs\": [{\"parameter\": {\"arg\": {\"name\": "
      "\"p_w\"}, \"parameter_name\": \"w\"}}, {\"user_input\": {\"arg\": " + t("x") +
      "}}], \"output_specs\": [{\"user_output\": {\"arg\": " + t("z") + "}}]}}, "
      "\"range_constraints\": {\"s0\": " + range + "}, \"schema_version\": {\"major\": 8, "
      "\"minor\": 14}}";
  return with(tiny_records(), "tiny/models/model.json", json);
}

// z[2*i + j] = w[2j]*x[i][2j] + w[2j+1]*x[i][2j+1].
void expect_dynamic_run(host::HostModel& model, int32_t batch) {
  SCOPED_TRACE("batch " + std::to_string(batch));
  Result<uint8_t*> dst = model.prepare_input("model", 0, {batch, 4});
  ASSERT_TRUE(dst.ok()) << last_error_message();
  std::vector<float> x(static_cast<size_t>(batch) * 4);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.5f * static_cast<float>(i) - 1.0f;
  std::memcpy(*dst, x.data(), x.size() * 4);
  ASSERT_EQ(model.execute("model"), Error::Ok) << last_error_message();
  const Tensor& z = (*model.output("model", 0))->to_tensor();
  ASSERT_EQ(z.dim(), 1);
  ASSERT_EQ(z.size(0), 2 * batch);
  const float w[] = {1, 2, 3, 4};
  for (int32_t i = 0; i < batch; ++i) {
    for (int j = 0; j < 2; ++j) {
      const float want = w[2 * j] * x[i * 4 + 2 * j] + w[2 * j + 1] * x[i * 4 + 2 * j + 1];
      EXPECT_FLOAT_EQ(z.data_ptr<const float>()[2 * i + j], want) << i << "," << j;
    }
  }
}

TEST(Pt2Program, DynamicShapesPlanForTheUpperBoundAndCheckTheRange) {
  host::HostModel model;
  ASSERT_EQ(load(model, make_zip(dynamic_records(true))), Error::Ok) << last_error_message();
  // Planned for s0 = 8: the input's declared bound.
  Result<ValueInfo> info = model.program().input_info(0, 0);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->dynamism, ShapeDynamism::DynamicBound);
  EXPECT_EQ(info->sizes[0], 8);
  for (int32_t batch : {3, 8, 1, 5}) expect_dynamic_run(model, batch);
  EXPECT_EQ(model.prepare_input("model", 0, {9, 4}).error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("dim 0 is 9, but s0 must be at most 8 (range_constraints)"),
            std::string::npos)
      << last_error_message();
  EXPECT_FALSE(model.prepare_input("model", 0, {0, 4}).ok());
  EXPECT_NE(std::string(last_error_message()).find("s0 must be at least 1"), std::string::npos)
      << last_error_message();
  EXPECT_FALSE(model.prepare_input("model", 0, {2, 5}).ok());
  EXPECT_NE(std::string(last_error_message()).find("dim 1 is 5, the graph declares 4"), std::string::npos)
      << last_error_message();
  expect_dynamic_run(model, 2);  // still usable
}

TEST(Pt2Program, AnUnboundedDimensionIsPlannedForItsExampleSizeThenPlannedAgain) {
  host::HostModel model;
  ASSERT_EQ(load(model, make_zip(dynamic_records(false))), Error::Ok) << last_error_message();
  auto bound = [&]() { return model.program().input_info(0, 0)->sizes[0]; };
  EXPECT_EQ(bound(), 5);  // the example size
  expect_dynamic_run(model, 5);
  expect_dynamic_run(model, 2);
  // Larger inputs re-plan (at least doubling the bound), never overflow.
  expect_dynamic_run(model, 6);
  EXPECT_EQ(bound(), 10);
  expect_dynamic_run(model, 31);
  EXPECT_EQ(bound(), 31);
  expect_dynamic_run(model, 3);
  EXPECT_EQ(bound(), 31);
  // The range's lower end still holds.
  EXPECT_FALSE(model.prepare_input("model", 0, {1, 4}).ok());
  EXPECT_NE(std::string(last_error_message()).find("s0 must be at least 2"), std::string::npos)
      << last_error_message();
}

// Inputs w [4] and x [s0, 4], s0 unbounded: when x outgrows the plan, w,
// already written for this run, is carried over to the new plan.
TEST(Pt2Program, ReplanningKeepsTheInputsAlreadyWritten) {
  std::vector<ZipRecord> records = dynamic_records(false);
  std::string json;
  for (const ZipRecord& r : records) {
    if (r.name == "tiny/models/model.json") json = r.data;
  }
  const std::string parameter =
      "{\"parameter\": {\"arg\": {\"name\": \"p_w\"}, \"parameter_name\": \"w\"}}";
  const size_t at = json.find(parameter);
  ASSERT_NE(at, std::string::npos);
  json.replace(at, parameter.size(), "{\"user_input\": {\"arg\": {\"as_tensor\": {\"name\": \"p_w\"}}}}");
  host::HostModel model;
  ASSERT_EQ(load(model, make_zip(with(records, "tiny/models/model.json", json))), Error::Ok)
      << last_error_message();
  ASSERT_EQ(model.program().num_inputs(0), 2u);
  const float w[] = {2, -1, 0.5f, 3};
  for (int32_t batch : {3, 9, 40}) {
    SCOPED_TRACE(batch);
    std::vector<float> x(static_cast<size_t>(batch) * 4);
    for (size_t i = 0; i < x.size(); ++i) x[i] = 0.25f * static_cast<float>(i);
    Result<uint8_t*> dw = model.prepare_input("model", 0, {4});
    ASSERT_TRUE(dw.ok()) << last_error_message();
    std::memcpy(*dw, w, sizeof(w));
    Result<uint8_t*> dx = model.prepare_input("model", 1, {batch, 4});  // may re-plan
    ASSERT_TRUE(dx.ok()) << last_error_message();
    std::memcpy(*dx, x.data(), x.size() * 4);
    ASSERT_EQ(model.execute("model"), Error::Ok) << last_error_message();
    const Tensor& z = (*model.output("model", 0))->to_tensor();
    ASSERT_EQ(z.size(0), 2 * batch);
    for (int32_t i = 0; i < batch; ++i) {
      for (int j = 0; j < 2; ++j) {
        const size_t a = static_cast<size_t>(i) * 4 + 2 * j;
        EXPECT_FLOAT_EQ(z.data_ptr<const float>()[2 * i + j],
                        w[2 * j] * x[a] + w[2 * j + 1] * x[a + 1]);
      }
    }
  }
  EXPECT_EQ(model.program().input_info(0, 1)->sizes[0], 40);
}

// x -> y = x * w (user output), and x += 1 (user_input_mutation), with an
// effect token through the signature.
std::string mutating_model_json() {
  std::string json = model_json();
  auto replace = [&](const std::string& from, const std::string& to) {
    const size_t at = json.find(from);
    if (at != std::string::npos) json.replace(at, from.size(), to);
  };
  replace("\"nodes\": [", "\"nodes\": [{\"target\": \"torch.ops.aten.add.Tensor\", \"inputs\": "
          "[{\"name\": \"self\", \"arg\": {\"as_tensor\": {\"name\": \"x\"}}}, {\"name\": "
          "\"other\", \"arg\": {\"as_int\": 1}}], \"outputs\": [{\"as_tensor\": {\"name\": "
          "\"add\"}}]}, ");
  replace("\"tensor_values\": {", "\"tensor_values\": {\"add\": " + meta("4") + ", ");
  replace("\"outputs\": [{\"as_tensor\": {\"name\": \"y\"}}], \"nodes\"",
          "\"outputs\": [{\"as_tensor\": {\"name\": \"add\"}}, {\"as_tensor\": {\"name\": \"y\"}}], \"nodes\"");
  replace("\"output_specs\": [", "\"output_specs\": [{\"user_input_mutation\": {\"arg\": {\"name\": "
          "\"add\"}, \"user_input_name\": \"x\"}}, ");
  // Effect tokens are (empty) tensor placeholders in the graph.
  replace("\"inputs\": [{\"as_tensor\": {\"name\": \"p_w\"}}", "\"inputs\": [{\"as_tensor\": "
          "{\"name\": \"token\"}}, {\"as_tensor\": {\"name\": \"p_w\"}}");
  replace("\"input_specs\": [", "\"input_specs\": [{\"token\": {\"arg\": {\"name\": \"token\"}}}, ");
  return json;
}

TEST(Pt2Program, AMutatedUserInputIsWrittenBackAndTokensCarryNothing) {
  host::HostModel model;
  ASSERT_EQ(load(model, make_zip(with(tiny_records(), "tiny/models/model.json", mutating_model_json()))),
            Error::Ok)
      << last_error_message();
  ASSERT_EQ(model.program().num_inputs(0), 1u);
  EXPECT_TRUE(model.program().mutates_input(0, 0));
  EXPECT_NE(model.describe_json().find("\"mutatedInputs\":[0]"), std::string::npos);
  for (int run = 0; run < 2; ++run) {
    Result<uint8_t*> x = model.prepare_input("model", 0, {4});
    ASSERT_TRUE(x.ok()) << last_error_message();
    const float in[] = {1, -1, 0.5f, 2};
    std::memcpy(*x, in, sizeof(in));
    ASSERT_EQ(model.execute("model"), Error::Ok) << last_error_message();
    // y reads x before the mutation; the input slot then holds x + 1.
    const float* y = (*model.output("model", 0))->to_tensor().data_ptr<const float>();
    EXPECT_EQ(y[1], -2);
    EXPECT_EQ(y[3], 8);
    const float* after = reinterpret_cast<const float*>(*x);
    EXPECT_EQ(after[0], 2);
    EXPECT_EQ(after[1], 0);
    EXPECT_EQ(after[3], 3);
    const host::ValueDescriptor* back = *model.input_descriptor(*model.method_index("model"), 0);
    EXPECT_EQ(back->count, 1u);
    EXPECT_EQ(back->sizes[0], 4);
    EXPECT_EQ(back->address, reinterpret_cast<uintptr_t>(*x));
  }
}

struct Hostile {
  const char* what;
  std::vector<uint8_t> bytes;
  const char* message;  // a part of the error every user should see
};

std::vector<Hostile> hostile_archives() {
  std::vector<Hostile> cases;
  const std::vector<uint8_t> good = tiny_archive();
  cases.push_back({"truncated zip", std::vector<uint8_t>(good.begin(), good.begin() + good.size() / 2),
                   "no end of central directory"});
  {
    std::vector<uint8_t> bad = good;
    // The central directory's first signature, found from the end record.
    const size_t eocd = bad.size() - 22;
    const uint32_t directory = bad[eocd + 16] | bad[eocd + 17] << 8 | bad[eocd + 18] << 16 |
                               static_cast<uint32_t>(bad[eocd + 19]) << 24;
    bad[directory] = 'X';
    cases.push_back({"bad central directory", bad, "bad signature"});
  }
  cases.push_back({"JSON nesting bomb",
                   make_zip(with(tiny_records(), "tiny/models/model.json",
                                 std::string(100000, '[') + std::string(100000, ']'))),
                   "nested deeper than"});
  {
    TinyModel huge;
    huge.y_sizes = "1048576, 1048576, 1024";
    cases.push_back({"huge declared tensor", make_zip(tiny_records(model_json(huge))),
                     "too large"});
  }
  cases.push_back({"missing weight file", make_zip(without(tiny_records(), "tiny/data/weights/weight_0")),
                   "no entry 'tiny/data/weights/weight_0'"});
  {
    TinyModel unknown;
    unknown.target = "torch.ops.aten.frobnicate.default";
    cases.push_back({"unknown op", make_zip(tiny_records(model_json(unknown))),
                     "aten::frobnicate"});
  }
  {
    TinyModel key;
    key.output_spec = "user_outptu";
    cases.push_back({"unknown union key", make_zip(tiny_records(model_json(key))),
                     "unknown union key 'user_outptu'"});
  }
  cases.push_back({"archive_version 1", make_zip(with(tiny_records(), "tiny/archive_version", "1")),
                   "archive_version is '1'"});
  cases.push_back({"AOTInductor-only package",
                   make_zip({{"pkg/archive_format", "pt2"},
                             {"pkg/archive_version", "0"},
                             {"pkg/data/aotinductor/model/model.so", "\x7f" "ELF"},
                             {"pkg/data/aotinductor/model/model.cpp", "// generated"}}),
                   "cannot run in WebAssembly"});
  {
    TinyModel future;
    future.schema = "{\"major\": 9, \"minor\": 0}";
    cases.push_back({"schema 9", make_zip(tiny_records(model_json(future))), "schema version 9.0"});
  }
  cases.push_back({"weight of the wrong size",
                   make_zip(with(tiny_records(), "tiny/data/weights/weight_0", floats({1, 2}))),
                   "reaches element 3 of a storage of 2"});
  cases.push_back({"not JSON", make_zip(with(tiny_records(), "tiny/models/model.json", "{\"graph")),
                   "not valid JSON"});
  return cases;
}

TEST(Pt2Program, HostileArchivesFailClearlyAndTheRuntimeStaysUsable) {
  for (const Hostile& h : hostile_archives()) {
    SCOPED_TRACE(h.what);
    host::HostModel model;
    EXPECT_NE(load(model, h.bytes), Error::Ok);
    const std::string message = last_error_message();
    EXPECT_NE(message.find(h.message), std::string::npos) << message;
  }
  host::HostModel model;
  ASSERT_EQ(load(model, tiny_archive()), Error::Ok) << last_error_message();
  expect_tiny_runs(model);
}

TEST(Pt2Program, EveryTruncationOfAnArchiveFailsCleanly) {
  const std::vector<uint8_t> good = tiny_archive();
  for (size_t n = 0; n < good.size(); n += 7) {
    host::HostModel model;
    EXPECT_NE(load(model, std::vector<uint8_t>(good.begin(), good.begin() + n)), Error::Ok) << n;
  }
}

}  // namespace
}  // namespace tri::pt2
