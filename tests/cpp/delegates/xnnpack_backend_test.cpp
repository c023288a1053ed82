// XnnpackBackend on payloads built here: the memory it reports is the memory
// it takes, runs compute the right values, and every malformed payload fails
// at load with a message that names what is wrong, leaving nothing behind.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cpp/delegates/xnnpack/xnnpack_backend.h"
#include "tests/cpp/delegates/xnnpack_payload_builder.h"

namespace tri::xnnpack {
namespace {

using testing::PayloadBuilder;
using testing::TestNode;
using testing::TestValue;

constexpr uint8_t kAdd = 1;
constexpr uint8_t kFullyConnected = 2;
constexpr uint8_t kMultiply = 15;
constexpr uint8_t kConv2d = 7;

class XnnpackBackendTest : public ::testing::Test {
 protected:
  // memory_needs, then init in a block of exactly the reported size.
  Result<void*> init(const std::vector<uint8_t>& payload) {
    payload_ = payload;
    BackendInitContext ctx;
    MemoryAllocator scratch(scratch_.data(), scratch_.size());
    ctx.scratch = &scratch;
    Result<BackendMemoryNeeds> needs = backend().memory_needs(ctx, span(), {});
    if (!needs.ok()) return needs.error();
    needs_ = *needs;
    method_.assign(needs_.init_bytes + 64, 0);
    method_alloc_ = MemoryAllocator(method_.data(), needs_.init_bytes + 64);
    scratch = MemoryAllocator(scratch_.data(), scratch_.size());
    ctx.method_allocator = &method_alloc_;
    return backend().init(ctx, span(), {});
  }

  Error execute(void* handle, std::vector<Tensor>& tensors) {
    std::vector<EValue> values;
    for (Tensor& t : tensors) values.push_back(EValue::from_tensor(&t));
    std::vector<EValue*> args;
    for (EValue& v : values) args.push_back(&v);
    MemoryAllocator temp(scratch_.data(), scratch_.size());
    KernelContext ctx;
    ctx.temp = &temp;
    return backend().execute(handle, ctx, Span<EValue*>(args.data(), args.size()));
  }

  static Tensor tensor(std::vector<int32_t> sizes, std::vector<float>& data,
                       ShapeDynamism dynamism = ShapeDynamism::Static) {
    Tensor t;
    EXPECT_EQ(t.init(ScalarType::Float, Span<const SizesType>(sizes.data(), sizes.size()), {},
                     data.data(), data.size() * sizeof(float), dynamism),
              Error::Ok);
    return t;
  }

  void expect_load_error(const std::vector<uint8_t>& payload, const std::string& mention) {
    Result<void*> h = init(payload);
    ASSERT_FALSE(h.ok()) << "loaded; expected an error mentioning " << mention;
    EXPECT_NE(std::string(last_error_message()).find(mention), std::string::npos)
        << "message: " << last_error_message();
  }

  static const Backend& backend() { return xnnpack_backend(); }
  ByteSpan span() const { return ByteSpan(payload_.data(), payload_.size()); }

  std::vector<uint8_t> payload_;
  std::vector<uint8_t> scratch_ = std::vector<uint8_t>(4 << 20);
  std::vector<uint8_t> method_;
  MemoryAllocator method_alloc_;
  BackendMemoryNeeds needs_;
};

PayloadBuilder add_graph() {
  PayloadBuilder p;
  const uint32_t a = p.input({3}, 0);
  const uint32_t b = p.input({3}, 1);
  const uint32_t t = p.internal({3});
  const uint32_t y = p.output({3}, 2);
  p.binary(kAdd, a, b, t);
  p.binary(kMultiply, t, b, y);
  p.num_externs = 3;
  return p;
}

TEST_F(XnnpackBackendTest, RunsAndTakesExactlyTheMemoryItReports) {
  Result<void*> h = init(add_graph().build());
  ASSERT_TRUE(h.ok()) << last_error_message();
  EXPECT_LE(method_alloc_.used(), needs_.init_bytes);
  EXPECT_GT(needs_.execute_bytes, 0u);
  std::vector<float> a = {1, 2, 3}, b = {10, 20, 30}, y(3);
  std::vector<Tensor> args = {tensor({3}, a), tensor({3}, b), tensor({3}, y)};
  ASSERT_EQ(execute(*h, args), Error::Ok) << last_error_message();
  EXPECT_EQ(y, (std::vector<float>{110, 440, 990}));
  backend().destroy(*h);
}

TEST_F(XnnpackBackendTest, ExecuteChecksItsArguments) {
  Result<void*> h = init(add_graph().build());
  ASSERT_TRUE(h.ok()) << last_error_message();
  std::vector<float> a = {1, 2, 3}, y(3);
  std::vector<Tensor> two = {tensor({3}, a), tensor({3}, y)};
  EXPECT_EQ(execute(*h, two), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("passes 2 arguments"), std::string::npos);
  std::vector<int32_t> ints = {1, 2, 3};
  Tensor wrong;
  const SizesType three = 3;
  ASSERT_EQ(wrong.init(ScalarType::Int, Span<const SizesType>(&three, 1), {}, ints.data(), 12,
                       ShapeDynamism::Static),
            Error::Ok);
  std::vector<Tensor> typed = {tensor({3}, a), wrong, tensor({3}, y)};
  EXPECT_EQ(execute(*h, typed), Error::InvalidType);
  // Still usable.
  std::vector<float> b = {1, 1, 1};
  std::vector<Tensor> good = {tensor({3}, a), tensor({3}, b), tensor({3}, y)};
  ASSERT_EQ(execute(*h, good), Error::Ok) << last_error_message();
  EXPECT_EQ(y, (std::vector<float>{2, 3, 4}));
}

TEST_F(XnnpackBackendTest, InputsBeyondTheDeclaredBoundFailCleanly) {
  Result<void*> h = init(add_graph().build());
  ASSERT_TRUE(h.ok()) << last_error_message();
  std::vector<float> a(5, 1), b(5, 1), y(5);
  std::vector<Tensor> big = {tensor({5}, a), tensor({5}, b), tensor({5}, y)};
  EXPECT_NE(execute(*h, big), Error::Ok);
  EXPECT_NE(std::string(last_error_message()).find("reserved"), std::string::npos)
      << last_error_message();
  std::vector<float> a2 = {1, 2}, b2 = {3, 4}, y2(3);
  std::vector<Tensor> small = {tensor({2}, a2), tensor({2}, b2),
                               tensor({3}, y2, ShapeDynamism::DynamicBound)};
  ASSERT_EQ(execute(*h, small), Error::Ok) << last_error_message();
  EXPECT_EQ(small[2].size(0), 2);
  EXPECT_EQ(y2[0], 12.0f);
  EXPECT_EQ(y2[1], 24.0f);
}

// XN00 payloads of early exports: no header, weights in the graph's buffers.
TEST_F(XnnpackBackendTest, ReadsHeaderlessXn00WithBufferConstants) {
  PayloadBuilder p;
  p.legacy = true;
  p.identifier = "XN00";
  const uint32_t x = p.input({2, 3}, 0);
  const uint32_t w = p.constant({2, 3}, {1, 0, 0, 0, 1, 1});
  const uint32_t bias = p.constant({2}, {10, 20});
  const uint32_t y = p.output({2, 2}, 1);
  TestNode fc;
  fc.type = kFullyConnected;
  fc.ids = {x, w, bias, y};
  p.node(fc);
  p.num_externs = 2;
  Result<void*> h = init(p.build());
  ASSERT_TRUE(h.ok()) << last_error_message();
  std::vector<float> xv = {1, 2, 3, 4, 5, 6}, yv(4);
  std::vector<Tensor> args = {tensor({2, 3}, xv), tensor({2, 2}, yv)};
  ASSERT_EQ(execute(*h, args), Error::Ok) << last_error_message();
  EXPECT_EQ(yv, (std::vector<float>{11, 25, 14, 31}));
}

TEST_F(XnnpackBackendTest, HeaderAndIdentifierErrors) {
  const std::vector<uint8_t> good = add_graph().build();
  expect_load_error(std::vector<uint8_t>(good.begin(), good.begin() + 20), "shorter than");
  std::vector<uint8_t> bad = good;
  bad[14] = 0xFF;  // flatbuffer size past the end
  bad[15] = 0xFF;
  expect_load_error(bad, "puts the flatbuffer at");
  bad = good;
  bad[22] = 0xFF;  // constant data past the end
  expect_load_error(bad, "bytes of constant data");
  PayloadBuilder p = add_graph();
  p.identifier = "XN02";
  expect_load_error(p.build(), "identifier is 'XN02'");
  // A blob that is neither: no header, no identifier.
  expect_load_error(std::vector<uint8_t>(64, 0x41), "expected XN01 or XN00");
}

TEST_F(XnnpackBackendTest, TruncatedFlatbufferFailsVerification) {
  std::vector<uint8_t> bad = add_graph().build();
  bad[14] = 40;  // flatbuffer size: 40 bytes
  bad[15] = 0;
  expect_load_error(bad, "fails verification");
}

TEST_F(XnnpackBackendTest, UnknownNodeTypeIsNamedWithItsIndex) {
  PayloadBuilder p = add_graph();
  TestNode n;
  n.type = 77;
  n.ids = {0, 1, 2};
  p.node(n);
  expect_load_error(p.build(), "node 2 has XNNPACK node type 77");
}

TEST_F(XnnpackBackendTest, NodeTypeWithoutItsTable) {
  PayloadBuilder p = add_graph();
  TestNode n;
  n.type = kAdd;
  n.bare = true;
  p.node(n);
  expect_load_error(p.build(), "node 2 (Add): its table is missing");
}

TEST_F(XnnpackBackendTest, BadValueReferences) {
  {
    PayloadBuilder p = add_graph();
    p.binary(kAdd, 0, 40, 2);
    expect_load_error(p.build(), "input 2 is value 40");
  }
  {
    PayloadBuilder p;
    const uint32_t a = p.input({3}, 0);
    TestValue dup;
    dup.dims = {3};
    dup.id = 0;
    p.value(dup);
    p.binary(kAdd, a, a, 1);
    p.num_externs = 1;
    expect_load_error(p.build(), "reuses id 0");
  }
  {
    // Used before any node computes it.
    PayloadBuilder p;
    const uint32_t a = p.input({3}, 0);
    const uint32_t t = p.internal({3});
    const uint32_t y = p.output({3}, 1);
    p.binary(kAdd, a, t, y);
    p.binary(kAdd, a, a, t);
    p.num_externs = 2;
    expect_load_error(p.build(), "is not computed before it");
  }
  {
    // An output no node writes.
    PayloadBuilder p;
    p.input({3}, 0);
    p.output({3}, 1);
    p.num_externs = 2;
    expect_load_error(p.build(), "never computed");
  }
  {
    // Writing into an input.
    PayloadBuilder p;
    const uint32_t a = p.input({3}, 0);
    const uint32_t b = p.input({3}, 1);
    p.binary(kAdd, a, a, b);
    p.num_externs = 2;
    expect_load_error(p.build(), "is an external input");
  }
}

TEST_F(XnnpackBackendTest, BadExternals) {
  {
    PayloadBuilder p = add_graph();
    p.num_externs = 2;
    expect_load_error(p.build(), "external id 2 (the graph has 2 externals)");
  }
  {
    PayloadBuilder p;
    const uint32_t a = p.input({3}, 0);
    const uint32_t y = p.output({3}, 0);
    p.binary(kAdd, a, a, y);
    p.num_externs = 2;
    expect_load_error(p.build(), "reuses external id 0");
  }
  {
    PayloadBuilder p = add_graph();
    p.num_externs = 5000;
    expect_load_error(p.build(), "at most 4096");
  }
}

TEST_F(XnnpackBackendTest, ConstantsAndShapesAreChecked) {
  {
    // A [4, 3] filter whose constant holds 2 floats.
    PayloadBuilder p;
    const uint32_t x = p.input({2, 3}, 0);
    const uint32_t w = p.constant({4, 3}, {1, 2});
    const uint32_t y = p.output({2, 4}, 1);
    TestNode fc;
    fc.type = kFullyConnected;
    fc.ids = {x, w, 0xFFFFFFFF, y};
    p.node(fc);
    p.num_externs = 2;
    expect_load_error(p.build(), "need 48 bytes");
  }
  {
    // Input features disagree with the filter.
    PayloadBuilder p;
    const uint32_t x = p.input({2, 5}, 0);
    const uint32_t w = p.constant({4, 3}, std::vector<float>(12, 1));
    const uint32_t y = p.output({2, 4}, 1);
    TestNode fc;
    fc.type = kFullyConnected;
    fc.ids = {x, w, 0xFFFFFFFF, y};
    p.node(fc);
    p.num_externs = 2;
    expect_load_error(p.build(), "node 0 (FullyConnected): input's last dim is 5");
  }
  {
    // A declared output smaller than what the node computes.
    PayloadBuilder p;
    const uint32_t a = p.input({4}, 0);
    const uint32_t y = p.output({2}, 1);
    p.binary(kAdd, a, a, y);
    p.num_externs = 2;
    expect_load_error(p.build(), "more than the 8 reserved");
  }
  {
    // A convolution filter in the wrong layout.
    PayloadBuilder p;
    const uint32_t x = p.input({1, 5, 5, 3}, 0);
    const uint32_t w = p.constant({3, 3, 3, 4}, std::vector<float>(108, 0.5f));
    const uint32_t y = p.output({1, 3, 3, 4}, 1);
    TestNode conv;
    conv.type = kConv2d;
    // pads, kernel, stride, dilation, group in/out, groups, adjust, ids.
    conv.ids = {0, 0, 0, 0, 3, 3, 1, 1, 1, 1, 3, 4, 1, 0, 0, x, w, 0xFFFFFFFF, y};
    p.node(conv);
    p.num_externs = 2;
    expect_load_error(p.build(), "expected [4, 3, 3, 3] (OHWI)");
  }
}

TEST_F(XnnpackBackendTest, QuantizationParametersAreChecked) {
  PayloadBuilder p;
  const uint32_t x = p.input({3}, 0);
  TestValue q;
  q.dtype = tri_xnn::XNNDatatype::xnn_datatype_qint8;
  q.dims = {3};
  q.per_tensor = true;
  q.scale = -1.0f;
  const uint32_t xq = p.value(q);
  const uint32_t y = p.output({3}, 1);
  TestNode c1;
  c1.type = 18;  // Convert
  c1.ids = {x, xq};
  p.node(c1);
  TestNode c2;
  c2.type = 18;
  c2.ids = {xq, y};
  p.node(c2);
  p.num_externs = 2;
  expect_load_error(p.build(), "quantization scale 0 is -1");
}

}  // namespace
}  // namespace tri::xnnpack
