// executorch_prim scalar ops, et_view and the sym helpers.
#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class Prim : public KernelTest {
 protected:
  // Runs a prim op on `inputs` and returns the result slot.
  EValue run(const char* op, std::vector<EValue*> inputs) {
    EValue* result = none();
    inputs.push_back(result);
    const Error e = call(op, inputs);
    EXPECT_EQ(e, Error::Ok) << op << ": " << last_error_message();
    return *result;
  }
};

TEST_F(Prim, IntAndDoubleArithmetic) {
  struct Case {
    const char* op;
    int64_t a, b, expected;
  };
  const Case int_cases[] = {
      {"executorch_prim::add.Scalar", 3, 4, 7},       {"executorch_prim::sub.Scalar", 3, 4, -1},
      {"executorch_prim::mul.Scalar", 3, 4, 12},      {"executorch_prim::floordiv.Scalar", -7, 2, -4},
      {"executorch_prim::floordiv.int", 7, 2, 3},     {"executorch_prim::mod.Scalar", -7, 3, 2},
      {"executorch_prim::mod.int", 7, -3, -2},        {"executorch_prim::sym_max.Scalar", 3, 9, 9},
      {"executorch_prim::sym_min.Scalar", 3, 9, 3},
  };
  for (const Case& c : int_cases) {
    const EValue r = run(c.op, {i(c.a), i(c.b)});
    ASSERT_TRUE(r.is_int()) << c.op;
    EXPECT_EQ(r.to_int(), c.expected) << c.op;
  }
  EValue r = run("executorch_prim::truediv.Scalar", {i(3), i(4)});
  ASSERT_TRUE(r.is_double());
  EXPECT_DOUBLE_EQ(r.to_double(), 0.75);
  r = run("executorch_prim::add.Scalar", {i(1), d(0.5)});
  ASSERT_TRUE(r.is_double());
  EXPECT_DOUBLE_EQ(r.to_double(), 1.5);
  r = run("executorch_prim::floordiv.Scalar", {d(-7.5), d(2)});
  EXPECT_DOUBLE_EQ(r.to_double(), -4);
  r = run("executorch_prim::neg.Scalar", {i(5)});
  EXPECT_EQ(r.to_int(), -5);
  r = run("executorch_prim::sym_float.Scalar", {i(3)});
  ASSERT_TRUE(r.is_double());
  EXPECT_DOUBLE_EQ(r.to_double(), 3.0);
  EXPECT_EQ(run("executorch_prim::ceil.Scalar", {d(1.2)}).to_int(), 2);
  EXPECT_EQ(run("executorch_prim::trunc.Scalar", {d(-1.7)}).to_int(), -1);
  EXPECT_EQ(run("executorch_prim::round.Scalar", {d(2.5)}).to_int(), 2);
  EXPECT_EQ(run("executorch_prim::round.Scalar", {d(3.5)}).to_int(), 4);
}

TEST_F(Prim, Comparisons) {
  EXPECT_TRUE(run("executorch_prim::eq.Scalar", {i(3), d(3.0)}).to_bool());
  EXPECT_TRUE(run("executorch_prim::gt.Scalar", {i(4), i(3)}).to_bool());
  EXPECT_FALSE(run("executorch_prim::lt.Scalar", {i(4), i(3)}).to_bool());
  EXPECT_TRUE(run("executorch_prim::ge.Scalar", {d(3), i(3)}).to_bool());
  EXPECT_TRUE(run("executorch_prim::le.Scalar", {b(false), b(true)}).to_bool());
}

TEST_F(Prim, Errors) {
  EXPECT_KERNEL_ERROR(call("executorch_prim::floordiv.Scalar", {i(1), i(0), none()}), Error::InvalidArgument,
                      "division or modulo by zero");
  EXPECT_KERNEL_ERROR(call("executorch_prim::add.Scalar", {i(1), t(f32({1}, {1})), none()}), Error::InvalidType,
                      "argument 1: expected Scalar");
  EXPECT_KERNEL_ERROR(call("executorch_prim::mul.Scalar", {b(true), i(1), none()}), Error::InvalidType,
                      "expected Int or Double, got Bool");
}

TEST_F(Prim, EtViewAliasesMemory) {
  Tensor* self = f32({2, 3}, {0, 1, 2, 3, 4, 5});
  Tensor* out = tf.zeros(ST::Float, {6, 6}, {}, ShapeDynamism::DynamicBound);
  ASSERT_EQ(call("executorch_prim::et_view.default", {t(self), il({3, -1}), t(out)}), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{3, 2}));
  EXPECT_EQ(out->data(), self->data());
  EXPECT_VALUES(out, {0, 1, 2, 3, 4, 5});
  EXPECT_KERNEL_ERROR(call("executorch_prim::et_view.default", {t(self), il({4, -1}), t(out)}), Error::InvalidArgument,
                      "shape [4, -1] is invalid for input of size 6");
  EXPECT_KERNEL_ERROR(call("executorch_prim::et_view.default", {t(self), il({6}), t(out)}), Error::InvalidArgument,
                      "size has 1 entries but out has rank 2");
}

TEST_F(Prim, SymSizeNumelLocalScalar) {
  Tensor* self = f32({2, 3}, {7, 1, 2, 3, 4, 5});
  EValue* r = none();
  ASSERT_EQ(call("aten::sym_size.int", {t(self), i(-1), r}), Error::Ok);
  EXPECT_EQ(r->to_int(), 3);
  ASSERT_EQ(call("aten::sym_numel", {t(self), r}), Error::Ok);
  EXPECT_EQ(r->to_int(), 6);
  ASSERT_EQ(call("aten::_local_scalar_dense", {t(self), r}), Error::Ok);
  ASSERT_TRUE(r->is_double());
  EXPECT_EQ(r->to_double(), 7);
  ASSERT_EQ(call("aten::_local_scalar_dense", {t(tf.make(ST::Long, {}, {9})), r}), Error::Ok);
  EXPECT_EQ(r->to_int(), 9);
}

}  // namespace
}  // namespace tri::testing
