// Attribute layouts as TFRT's BefAttrEmitter writes them, one kind at a time,
// each checked byte for byte from a fresh Attributes section.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cpp/formats/bef/host/mlir_to_bef/bef_attribute_encoder.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_parser_impl.h"

namespace tri::bef {
namespace {

using Bytes = std::vector<uint8_t>;
constexpr uint8_t P = 0xCC;  // padding

mlir::Attribute parse_attr(const std::string& text) {
  mlir::Parser parser(text);
  parser.advance();
  mlir::Attribute attr;
  EXPECT_TRUE(parser.parse_attribute(&attr)) << text << ": " << parser.diag().message;
  return attr;
}

struct Encoded {
  Bytes bytes;
  size_t offset = 0;
  unsigned alignment = 1;
  uint8_t type = 0;
};

// Encodes `text` after `lead` bytes already in the section.
Encoded encode(const std::string& text, size_t lead = 0) {
  const mlir::Attribute attr = parse_attr(text);
  BefAttributeEncoder e;
  for (size_t i = 0; i < lead; ++i) e.emit_byte(0xEE);
  Encoded out;
  out.type = bef_attribute_type(attr);
  out.offset = e.encode(attr);
  out.alignment = e.required_alignment();
  out.bytes.assign(e.bytes().begin() + static_cast<long>(lead), e.bytes().end());
  return out;
}

TEST(BefTranslateAttributes, ScalarsAtNaturalAlignment) {
  EXPECT_EQ(encode("true").bytes, (Bytes{1}));
  EXPECT_EQ(encode("true").type, 5);
  EXPECT_EQ(encode("false").bytes, (Bytes{0}));
  EXPECT_EQ(encode("-1 : i8").bytes, (Bytes{0xFF}));
  EXPECT_EQ(encode("-1 : i8").type, 6);
  EXPECT_EQ(encode("200 : ui8").type, 1);
  // One-byte values never pad, even after an odd prefix.
  Encoded byte = encode("7 : i8", 3);
  EXPECT_EQ(byte.offset, 3u);
  EXPECT_EQ(byte.alignment, 1u);

  Encoded i16 = encode("-2 : i16", 1);
  EXPECT_EQ(i16.bytes, (Bytes{P, 0xFE, 0xFF}));
  EXPECT_EQ(i16.offset, 2u);
  EXPECT_EQ(i16.type, 7);
  Encoded i32 = encode("42 : i32", 1);
  EXPECT_EQ(i32.bytes, (Bytes{P, P, P, 42, 0, 0, 0}));
  EXPECT_EQ(i32.offset, 4u);
  EXPECT_EQ(i32.alignment, 4u);
  EXPECT_EQ(encode("4294967295 : ui32").bytes, (Bytes{0xFF, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(encode("4294967295 : ui32").type, 3);
  Encoded i64 = encode("-2", 4);  // an untyped integer is i64
  EXPECT_EQ(i64.bytes, (Bytes{P, P, P, P, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(i64.type, 9);
  EXPECT_EQ(encode("5 : ui64").type, 4);
}

TEST(BefTranslateAttributes, Floats) {
  EXPECT_EQ(encode("1.0 : f32").bytes, (Bytes{0, 0, 0x80, 0x3F}));
  EXPECT_EQ(encode("1.0 : f32").type, 10);
  EXPECT_EQ(encode("-0.1 : f32").bytes, (Bytes{0xCD, 0xCC, 0xCC, 0xBD}));
  EXPECT_EQ(encode("1.0").bytes, (Bytes{0, 0, 0, 0, 0, 0, 0xF0, 0x3F}));  // f64
  EXPECT_EQ(encode("1.0").type, 11);
  EXPECT_EQ(encode("1.0 : f16").bytes, (Bytes{0x00, 0x3C}));
  EXPECT_EQ(encode("1.0 : f16").type, 14);
  EXPECT_EQ(encode("1.0 : bf16").bytes, (Bytes{0x80, 0x3F}));
  EXPECT_EQ(encode("1.0 : bf16").type, 15);
  EXPECT_EQ(encode("65520.0 : f16").bytes, (Bytes{0x00, 0x7C}));  // rounds to +inf
  EXPECT_EQ(encode("1. : f32").bytes, encode("1.0 : f32").bytes);
  EXPECT_EQ(encode("0x3F800000 : f32").bytes, encode("1.0 : f32").bytes);
}

TEST(BefTranslateAttributes, StringsHaveAUint32Length) {
  Encoded s = encode("\"bark\"", 1);
  EXPECT_EQ(s.bytes, (Bytes{P, P, P, 4, 0, 0, 0, 'b', 'a', 'r', 'k'}));
  EXPECT_EQ(s.offset, 4u);
  EXPECT_EQ(s.type, 16);
  EXPECT_EQ(encode("\"\"").bytes, (Bytes{0, 0, 0, 0}));
  EXPECT_EQ(encode("\"a\\0Ab\\\"\"").bytes, (Bytes{4, 0, 0, 0, 'a', '\n', 'b', '"'}));
}

TEST(BefTranslateAttributes, TypeAttributesAreDTypeBytes) {
  EXPECT_EQ(encode("i32").bytes, (Bytes{8}));
  EXPECT_EQ(encode("i32").type, 25);
  EXPECT_EQ(encode("f64").bytes, (Bytes{11}));
  EXPECT_EQ(encode("ui16").bytes, (Bytes{2}));
  EXPECT_EQ(encode("bf16").bytes, (Bytes{15}));
  EXPECT_EQ(encode("complex<f64>").bytes, (Bytes{13}));
  EXPECT_EQ(encode("!corert.string").bytes, (Bytes{16}));
  EXPECT_EQ(encode("!corert.qint32").bytes, (Bytes{23}));
  EXPECT_EQ(bef_attribute_type(parse_attr("tensor<1xf32>")), kBefAttrUnsupported);
  EXPECT_EQ(bef_attribute_type(parse_attr("!tfrt.chain")), kBefAttrUnsupported);
}

TEST(BefTranslateAttributes, ArraysPutTheCountBeforeAlignedElements) {
  Encoded i32 = encode("[1 : i32, -1 : i32]", 2);
  EXPECT_EQ(i32.bytes, (Bytes{P, P, 2, 0, 0, 0, 1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(i32.offset, 4u);
  EXPECT_EQ(i32.type, 136);

  // 8-byte elements: the count sits at 4 mod 8 so the data is 8-aligned.
  Encoded i64 = encode("[3 : i64, 2 : i64]");
  EXPECT_EQ(i64.offset, 4u);
  EXPECT_EQ(i64.alignment, 8u);
  EXPECT_EQ(i64.type, 137);
  EXPECT_EQ(i64.bytes, (Bytes{P, P, P, P, 2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0,
                              0}));
  Encoded at4 = encode("[3 : i64]", 4);
  EXPECT_EQ(at4.offset, 4u);  // already 4 mod 8: no padding
  EXPECT_EQ(at4.bytes.size(), 12u);
  Encoded at6 = encode("[3 : i64]", 6);
  EXPECT_EQ(at6.offset, 12u);

  EXPECT_EQ(encode("[true, false]").bytes, (Bytes{2, 0, 0, 0, 1, 0}));
  EXPECT_EQ(encode("[true, false]").type, 133);
  EXPECT_EQ(encode("[f64, f32]").bytes, (Bytes{2, 0, 0, 0, 11, 10}));
  EXPECT_EQ(encode("[f64, f32]").type, 153);
  EXPECT_EQ(encode("[1.0 : bf16]").type, 143);
  EXPECT_EQ(encode("[1.0 : f16]").bytes, (Bytes{1, 0, 0, 0, 0x00, 0x3C}));
}

TEST(BefTranslateAttributes, EmptyArrayIsAUint32Zero) {
  Encoded empty = encode("[]", 1);
  EXPECT_EQ(empty.bytes, (Bytes{P, P, P, 0, 0, 0, 0}));
  EXPECT_EQ(empty.type, 136);  // EmptyArray is defined as the I32 array code
}

TEST(BefTranslateAttributes, DenseRankZeroAndSplat) {
  // base at 4 mod 8; element_offset = 20 + 8 * rank.
  Encoded scalar = encode("dense<7> : tensor<i32>");
  EXPECT_EQ(scalar.type, 28);
  EXPECT_EQ(scalar.offset, 4u);
  EXPECT_EQ(scalar.alignment, 8u);
  EXPECT_EQ(scalar.bytes, (Bytes{P, P, P, P,  //
                                 8, 8, 20, 0, 24, 0, 0, 0,  // base: align, I32, prefix, size
                                 20, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,  // offset, count, rank
                                 7, 0, 0, 0}));
  Encoded splat = encode("dense<1> : tensor<2x2xi16>");
  EXPECT_EQ(splat.offset, 4u);
  EXPECT_EQ(splat.bytes, (Bytes{P, P, P, P,  //
                                8, 7, 36, 0, 44, 0, 0, 0,  //
                                36, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0,  //
                                2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,  //
                                1, 0, 1, 0, 1, 0, 1, 0}));
  // A splat is the same attribute as its expanded list.
  EXPECT_EQ(encode("dense<[[1, 1], [1, 1]]> : tensor<2x2xi16>").bytes, splat.bytes);
  Encoded bools = encode("dense<[true, false, true]> : tensor<3xi1>");
  EXPECT_EQ(Bytes(bools.bytes.end() - 3, bools.bytes.end()), (Bytes{1, 0, 1}));
  Encoded complex = encode("dense<(1.0, 2.0)> : tensor<1xcomplex<f32>>");
  EXPECT_EQ(complex.bytes[5], 12);  // Complex64
  EXPECT_EQ(Bytes(complex.bytes.end() - 8, complex.bytes.end()),
            (Bytes{0, 0, 0x80, 0x3F, 0, 0, 0, 0x40}));
  EXPECT_EQ(bef_attribute_type(parse_attr("dense<1> : tensor<2xindex>")), kBefAttrUnsupported);
}

TEST(BefTranslateAttributes, Shapes) {
  Encoded ranked = encode("#corert.shape<2x?x3>");
  EXPECT_EQ(ranked.type, 27);
  EXPECT_EQ(ranked.offset, 4u);
  EXPECT_EQ(ranked.bytes, (Bytes{P, P, P, P,  //
                                 8, 0, 12, 0, 36, 0, 0, 0, 3, 0, 0, 0,  //
                                 2, 0, 0, 0, 0, 0, 0, 0,  //
                                 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  //
                                 3, 0, 0, 0, 0, 0, 0, 0}));
  // Rank 0 aligns only its 4-byte base.
  Encoded rank0 = encode("#corert.shape<>", 1);
  EXPECT_EQ(rank0.bytes, (Bytes{P, P, P, 4, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(encode("#corert.shape<*>").bytes, (Bytes{0, 0, 0, 0}));
}

TEST(BefTranslateAttributes, AggregatesTagEachElement) {
  // Two elements, alignment 4: base, count, two offsets, then each element
  // with its type tag in the byte before it.
  Encoded agg = encode("[1 : i32, \"ab\"]");
  EXPECT_EQ(agg.type, 30);
  EXPECT_EQ(agg.offset, 0u);
  EXPECT_EQ(agg.alignment, 4u);
  EXPECT_EQ(agg.bytes, (Bytes{4, 0, 20, 0, 38, 0, 0, 0,  // base, byte_size 38
                              2, 0, 0, 0, 24, 0, 0, 0, 32, 0, 0, 0,  // count, offsets
                              P, P, P, 8, 1, 0, 0, 0,  // reserved/padding, I32 tag, 1
                              P, P, P, 16, 2, 0, 0, 0, 'a', 'b'}));
  // A tag lands on the reserved byte when no padding follows it.
  Encoded bytes = encode("[1 : i8, \"\"]");
  EXPECT_EQ(bytes.bytes[20], 6);  // I8 tag
  EXPECT_EQ(bytes.bytes[21], 1);
  // A nested array makes the aggregate 8-aligned, as TFRT's GetAlignment does.
  Encoded nested = encode("[[\"string\", [1 : i32, 0 : i32]], [1.0 : f32]]");
  EXPECT_EQ(nested.alignment, 8u);
  EXPECT_EQ(nested.bytes[nested.offset], 8);
  EXPECT_EQ((nested.offset + 12 + 8) % 8, 0u);
  EXPECT_EQ(bef_attribute_type(parse_attr("[1 : i32, unit]")), kBefAttrUnsupported);
}

TEST(BefTranslateAttributes, FunctionReferencesAndUnencodableValues) {
  EXPECT_TRUE(is_encodable_attribute(parse_attr("@f")));
  EXPECT_TRUE(is_encodable_attribute(parse_attr("[@a, @b]")));
  EXPECT_TRUE(is_function_array(parse_attr("[@a, @b]")));
  EXPECT_FALSE(is_encodable_attribute(parse_attr("[@a, 1]")));
  EXPECT_FALSE(is_encodable_attribute(parse_attr("[1, @a]")));
  EXPECT_FALSE(is_encodable_attribute(parse_attr("@a::@b")));
  EXPECT_FALSE(is_encodable_attribute(parse_attr("unit")));
  EXPECT_FALSE(is_encodable_attribute(parse_attr("{a = 1}")));
  EXPECT_FALSE(is_encodable_attribute(parse_attr("tensor<1xf32>")));
  EXPECT_FALSE(is_encodable_attribute(parse_attr("1 : i4")));
}

}  // namespace
}  // namespace tri::bef
