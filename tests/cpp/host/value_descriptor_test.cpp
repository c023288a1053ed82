// The binary records the bindings hand to JavaScript: every kind of value in
// its slots, tensor-list items after the top-level records, row-major copies
// in place of the data address, and storage that stops growing.
#include "cpp/host/value_descriptor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>

namespace tri::host {
namespace {

// Offsets js/src/native/value-descriptor.ts reads.
static_assert(offsetof(ValueDescriptor, kind) == 0);
static_assert(offsetof(ValueDescriptor, dtype) == 4);
static_assert(offsetof(ValueDescriptor, count) == 8);
static_assert(offsetof(ValueDescriptor, address) == 16);
static_assert(offsetof(ValueDescriptor, nbytes) == 24);
static_assert(offsetof(ValueDescriptor, int_value) == 32);
static_assert(offsetof(ValueDescriptor, double_value) == 40);
static_assert(offsetof(ValueDescriptor, sizes) == 48);

uint64_t addr(const void* p) { return reinterpret_cast<uintptr_t>(p); }

struct Fixture {
  float data[6] = {1, 2, 3, 4, 5, 6};
  Tensor tensor;
  Fixture() {
    const SizesType sizes[] = {2, 3};
    EXPECT_EQ(tensor.init(ScalarType::Float, {sizes, 2}, {}, data, sizeof(data), ShapeDynamism::Static),
              Error::Ok);
  }
};

TEST(ValueDescriptorTable, ScalarsKeepTheirFullValue) {
  const EValue big = EValue::from_int(std::numeric_limits<int64_t>::min() + 3);
  const EValue nan = EValue::from_double(std::nan(""));
  const EValue yes = EValue::from_bool(true);
  const EValue none = EValue::none();
  EValue text;
  text.tag = Tag::String;
  text.payload.as_string = {"héllo", std::strlen("héllo")};
  const EValue* values[] = {&big, &nan, &yes, &none, &text};
  ValueDescriptorTable table;
  const ValueDescriptor* d = table.fill({values, 5});
  EXPECT_EQ(d[0].kind, static_cast<uint32_t>(Tag::Int));
  EXPECT_EQ(d[0].int_value, std::numeric_limits<int64_t>::min() + 3);
  EXPECT_EQ(d[1].kind, static_cast<uint32_t>(Tag::Double));
  EXPECT_TRUE(std::isnan(d[1].double_value));
  EXPECT_EQ(d[2].kind, static_cast<uint32_t>(Tag::Bool));
  EXPECT_EQ(d[2].int_value, 1);
  EXPECT_EQ(d[3].kind, static_cast<uint32_t>(Tag::None));
  EXPECT_EQ(d[4].kind, static_cast<uint32_t>(Tag::String));
  EXPECT_EQ(d[4].address, addr(text.payload.as_string.data));
  EXPECT_EQ(d[4].count, 6u);  // bytes, not characters
}

TEST(ValueDescriptorTable, TensorsGiveDtypeShapeAddressAndBytes) {
  Fixture f;
  const EValue t = EValue::from_tensor(&f.tensor);
  const EValue* values[] = {&t, &t};
  uint8_t copy[24];
  const uint8_t* overrides[] = {nullptr, copy};
  ValueDescriptorTable table;
  const ValueDescriptor* d = table.fill({values, 2}, overrides);
  EXPECT_EQ(d[0].kind, static_cast<uint32_t>(Tag::Tensor));
  EXPECT_EQ(d[0].dtype, static_cast<uint32_t>(ScalarType::Float));
  EXPECT_EQ(d[0].count, 2u);
  EXPECT_EQ(d[0].sizes[0], 2);
  EXPECT_EQ(d[0].sizes[1], 3);
  EXPECT_EQ(d[0].address, addr(f.data));
  EXPECT_EQ(d[0].nbytes, 24u);
  EXPECT_EQ(d[1].address, addr(copy));
}

TEST(ValueDescriptorTable, ListsPointAtTheirItems) {
  Fixture f;
  EValue ints[] = {EValue::from_int(7), EValue::from_int(-(int64_t{1} << 40))};
  EValue* int_items[] = {&ints[0], &ints[1]};
  int64_t scratch[2] = {};
  EValue int_list;
  int_list.tag = Tag::IntList;
  int_list.payload.as_int_list = {int_items, scratch, 2};

  EValue tensor_items[] = {EValue::from_tensor(&f.tensor), EValue::none()};
  EValue* tensor_ptrs[] = {&tensor_items[0], &tensor_items[1]};
  Tensor* tensor_scratch[2] = {};
  EValue tensors;
  tensors.tag = Tag::OptionalTensorList;
  tensors.payload.as_tensor_list = {tensor_ptrs, tensor_scratch, 2};

  const double doubles[] = {0.5, -2};
  EValue double_list;
  double_list.tag = Tag::DoubleList;
  double_list.payload.as_double_list = {doubles, 2};

  const EValue* values[] = {&int_list, &tensors, &double_list};
  ValueDescriptorTable table;
  const ValueDescriptor* d = table.fill({values, 3});
  ASSERT_EQ(d[0].count, 2u);
  const int64_t* read = reinterpret_cast<const int64_t*>(static_cast<uintptr_t>(d[0].address));
  EXPECT_EQ(read[0], 7);
  EXPECT_EQ(read[1], -(int64_t{1} << 40));
  // The tensor list's items are the records right after the three values.
  ASSERT_EQ(d[1].count, 2u);
  EXPECT_EQ(d[1].address, addr(&d[3]));
  EXPECT_EQ(d[3].kind, static_cast<uint32_t>(Tag::Tensor));
  EXPECT_EQ(d[3].address, addr(f.data));
  EXPECT_EQ(d[4].kind, static_cast<uint32_t>(Tag::None));
  EXPECT_EQ(d[2].address, addr(doubles));
  EXPECT_EQ(d[2].count, 2u);
}

TEST(ValueDescriptorTable, RefillingAtTheSameSizeKeepsTheStorage) {
  Fixture f;
  const EValue t = EValue::from_tensor(&f.tensor);
  const EValue* values[] = {&t, &t, &t};
  ValueDescriptorTable table;
  const ValueDescriptor* first = table.fill({values, 3});
  EXPECT_EQ(table.fill({values, 2}), first);
  EXPECT_EQ(table.fill({values, 3}), first);
  // Stale records of an earlier, longer fill never leak into a shorter one.
  const EValue one = EValue::from_int(1);
  const EValue* single[] = {&one};
  const ValueDescriptor* d = table.fill({single, 1});
  EXPECT_EQ(d[0].kind, static_cast<uint32_t>(Tag::Int));
  EXPECT_EQ(d[0].address, 0u);
}

TEST(ValueDescriptorTable, JsonTextsAreAddressedByBytes) {
  const std::vector<std::string> texts = {R"({"kind":"Int","value":"42"})", "{}"};
  ValueDescriptorTable table;
  const ValueDescriptor* d = table.fill_json(texts);
  EXPECT_EQ(d[0].kind, kJsonValueKind);
  EXPECT_EQ(d[0].address, addr(texts[0].data()));
  EXPECT_EQ(d[0].count, texts[0].size());
  EXPECT_EQ(d[1].count, 2u);
}

}  // namespace
}  // namespace tri::host
