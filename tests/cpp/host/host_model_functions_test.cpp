// HostModel over a format of dataflow functions (TFRT MLIR/BEF): the same
// calls as for planned methods: describe, scalar inputs, execute, outputs;
// error results fail with TFRT's message and the kernel's location.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cpp/host/host_model.h"

namespace tri::host {
namespace {

constexpr const char* kSource = R"(func.func @scale(%x: i64, %k: f64, %ch: !tfrt.chain) -> (i64, f64, !tfrt.chain) {
  %two = tfrt.constant.i64 2
  %y = tfrt.add.i64 %x, %two
  %z = "tfrt.multiply.f64"(%k, %k) : (f64, f64) -> f64
  tfrt.return %y, %z, %ch : i64, f64, !tfrt.chain
}
func.func @fail(%a: i32) -> i32 {
  %zero = tfrt.constant.i32 0
  %q, %r = tfrt.div.i32 %a, %zero
  tfrt.return %q : i32
}
)";

TEST(HostModelFunctions, DescribesRunsAndReturnsScalars) {
  HostModel model;
  const std::string text(kSource);
  ASSERT_EQ(model.load(OwnedBytes::copy_of(reinterpret_cast<const uint8_t*>(text.data()), text.size())),
            Error::Ok)
      << last_error_message();
  EXPECT_STREQ(model.format(), "mlir");
  ASSERT_NE(model.functions(), nullptr);
  const nlohmann::json described = nlohmann::json::parse(model.describe_json());
  ASSERT_EQ(described["methods"].size(), 2u);
  EXPECT_EQ(described["methods"][0]["name"], "scale");
  EXPECT_EQ(described["methods"][0]["inputs"][1], (nlohmann::json{{"kind", "Double"}, {"type", "f64"}}));
  EXPECT_EQ(described["methods"][0]["outputs"][2], (nlohmann::json{{"kind", "None"}, {"type", "!tfrt.chain"}}));

  ASSERT_EQ(model.set_input_scalar("scale", 0, EValue::from_int(40)), Error::Ok);
  ASSERT_EQ(model.set_input_scalar("scale", 1, EValue::from_double(1.5)), Error::Ok);
  ASSERT_EQ(model.execute("scale"), Error::Ok) << last_error_message();  // the chain needs no value
  ASSERT_EQ(*model.output_count("scale"), 3u);
  EXPECT_EQ(*model.output_json("scale", 0), R"({"kind":"Int","value":"42"})");
  EXPECT_EQ(*model.output_json("scale", 1), R"({"kind":"Double","value":"2.25"})");
  EXPECT_EQ(*model.output_json("scale", 2), R"({"kind":"None"})");
  // The binary run path hands the same texts over as JSON records.
  const size_t scale = *model.method_index("scale");
  const ValueDescriptor* d = *model.output_descriptors(scale);
  EXPECT_EQ(d[0].kind, kJsonValueKind);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(static_cast<uintptr_t>(d[0].address)), d[0].count),
            R"({"kind":"Int","value":"42"})");
  EXPECT_EQ(d[2].kind, kJsonValueKind);
  EXPECT_FALSE(model.method_index("nope").ok());
}

// What tfrt.print.* prints is kept per run for the host to take (the JS
// API's onPrint, the CLI), and taking it empties it.
TEST(HostModelFunctions, PrintedTextIsTakenOncePerRun) {
  HostModel model;
  const std::string text = R"(func.func @shout(%x: i32, %ch: !tfrt.chain) -> !tfrt.chain {
  %ch1 = tfrt.print.i32 %x, %ch
  tfrt.return %ch1 : !tfrt.chain
}
)";
  ASSERT_EQ(model.load(OwnedBytes::copy_of(reinterpret_cast<const uint8_t*>(text.data()), text.size())),
            Error::Ok)
      << last_error_message();
  EXPECT_EQ(model.take_printed(), "");
  ASSERT_EQ(model.set_input_scalar("shout", 0, EValue::from_int(7)), Error::Ok);
  ASSERT_EQ(model.execute("shout"), Error::Ok) << last_error_message();
  EXPECT_EQ(model.printed_size(), 10u);
  EXPECT_EQ(model.take_printed(), "int32 = 7\n");
  EXPECT_EQ(model.printed_size(), 0u);
  EXPECT_EQ(model.take_printed(), "");
}

TEST(HostModelFunctions, ErrorResultsNameTheMessageAndTheLocation) {
  HostModel model;
  const std::string text(kSource);
  ASSERT_EQ(model.load(OwnedBytes::copy_of(reinterpret_cast<const uint8_t*>(text.data()), text.size())),
            Error::Ok);
  ASSERT_EQ(model.set_input_scalar("fail", 0, EValue::from_int(1)), Error::Ok);
  EXPECT_EQ(model.execute("fail"), Error::Internal);
  EXPECT_STREQ(last_error_message(), "Divide by zero (at <input>.mlir:9:12)");
  // Bad calls say what is wrong; the model stays usable.
  EXPECT_EQ(model.set_input_scalar("fail", 0, EValue::from_int(int64_t{1} << 40)), Error::InvalidArgument);
  EXPECT_EQ(model.set_input_scalar("fail", 0, EValue::from_bool(true)), Error::InvalidType);
  EXPECT_EQ(model.set_input_scalar("fail", 3, EValue::from_int(1)), Error::InvalidArgument);
  EXPECT_EQ(model.execute("nope"), Error::MethodMissing);
  EXPECT_NE(std::string(last_error_message()).find("it has 'scale', 'fail'"), std::string::npos);
  Result<uint8_t*> tensor = model.prepare_input("fail", 0, {2});
  EXPECT_EQ(tensor.error(), Error::NotSupported);
  ASSERT_EQ(model.set_input_scalar("scale", 0, EValue::from_int(1)), Error::Ok);
  ASSERT_EQ(model.set_input_scalar("scale", 1, EValue::from_int(3)), Error::Ok);  // an Int for an f64
  ASSERT_EQ(model.execute("scale"), Error::Ok);
  EXPECT_EQ(*model.output_json("scale", 1), R"({"kind":"Double","value":"9"})");
}

}  // namespace
}  // namespace tri::host
