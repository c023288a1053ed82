// BEF's primitive encodings: VBR (most significant group first), 0xCC
// padding, fixed32 at natural alignment, and the two section header forms.
#include <gtest/gtest.h>

#include <vector>

#include "cpp/formats/bef/host/mlir_to_bef/bef_emitter.h"

namespace tri::bef {
namespace {

std::vector<uint8_t> vbr(uint64_t value) {
  ByteEmitter e;
  e.emit_vbr(value);
  return e.bytes();
}

TEST(BefTranslateVbr, EncodesTheFormatNotesExamples) {
  EXPECT_EQ(vbr(0), (std::vector<uint8_t>{0x00}));
  EXPECT_EQ(vbr(127), (std::vector<uint8_t>{0x7F}));
  EXPECT_EQ(vbr(128), (std::vector<uint8_t>{0x81, 0x00}));
  EXPECT_EQ(vbr(300), (std::vector<uint8_t>{0x82, 0x2C}));
  EXPECT_EQ(vbr(16384), (std::vector<uint8_t>{0x81, 0x80, 0x00}));
}

TEST(BefTranslateVbr, SizesMatchTheEncoding) {
  for (uint64_t value : {uint64_t{0}, uint64_t{127}, uint64_t{128}, uint64_t{16383},
                         uint64_t{16384}, uint64_t{1} << 35, ~uint64_t{0}}) {
    EXPECT_EQ(vbr_size(value), vbr(value).size()) << value;
  }
  EXPECT_EQ(vbr(~uint64_t{0}).size(), 10u);
}

TEST(BefTranslateEmitter, PadsWithCCAndTracksAlignment) {
  ByteEmitter e;
  e.emit_byte(1);
  e.emit_u32(0x04030201);
  EXPECT_EQ(e.bytes(), (std::vector<uint8_t>{1, 0xCC, 0xCC, 0xCC, 1, 2, 3, 4}));
  EXPECT_EQ(e.required_alignment(), 4u);
  e.emit_fixed(0x0807060504030201ull, 8);
  EXPECT_EQ(e.size(), 16u);
  EXPECT_EQ(e.required_alignment(), 8u);
  e.emit_padding(2, 3);
  EXPECT_EQ(e.size(), 19u);
  EXPECT_EQ(e.bytes()[18], 0xCC);
}

TEST(BefTranslateEmitter, NestedEmitterKeepsItsAlignment) {
  ByteEmitter inner;
  inner.emit_u32(7);
  ByteEmitter outer;
  outer.emit_byte(9);
  outer.emit_emitter(inner);
  EXPECT_EQ(outer.bytes(), (std::vector<uint8_t>{9, 0xCC, 0xCC, 0xCC, 7, 0, 0, 0}));
  EXPECT_EQ(outer.required_alignment(), 4u);
}

TEST(BefTranslateEmitter, SectionUsesTheAlignedFormOnlyWhenMisaligned) {
  ByteEmitter payload;
  payload.emit_u32(0xAABBCCDD);

  // Payload would start at offset 2: aligned form, alignment byte, padding.
  ByteEmitter file;
  file.emit_section(SectionId::Attributes, payload);
  EXPECT_EQ(file.bytes(), (std::vector<uint8_t>{1, 9, 4, 0xCC, 0xDD, 0xCC, 0xBB, 0xAA}));

  // Payload would start at offset 4: plain form.
  ByteEmitter file2;
  file2.emit_byte(0xEE);
  file2.emit_byte(0xEE);
  file2.emit_section(SectionId::Attributes, payload);
  EXPECT_EQ(file2.bytes(), (std::vector<uint8_t>{0xEE, 0xEE, 1, 8, 0xDD, 0xCC, 0xBB, 0xAA}));

  // Unaligned payloads never use the aligned form.
  ByteEmitter bytes;
  bytes.emit_byte(5);
  ByteEmitter file3;
  file3.emit_section(SectionId::Strings, bytes);
  EXPECT_EQ(file3.bytes(), (std::vector<uint8_t>{0, 2, 5}));
}

}  // namespace
}  // namespace tri::bef
