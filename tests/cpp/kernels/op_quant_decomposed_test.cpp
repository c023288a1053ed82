// quantized_decomposed:: kernels. Expected values come from PyTorch's
// reference arithmetic (tools/export/cases/quantized.py, torch 1.13).
#include <cmath>

#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;

class QuantOps : public KernelTest {
 protected:
  EValue* st(ST type) { return i(static_cast<int64_t>(type)); }
  // Calls an op with two outs (a tuple return): outs, then the return slot.
  Error call_two(const char* name, std::vector<EValue*> inputs, Tensor* a, Tensor* b) {
    inputs.push_back(t(a));
    inputs.push_back(t(b));
    inputs.push_back(tf.tensor_list({a, b}));
    return call(name, std::move(inputs));
  }
  // The dequantize ops have a variable arity (with or without out_dtype),
  // which call() cannot check against the table: the same call, unchecked.
  Error dq_out(const char* name, std::vector<EValue*> inputs, Tensor* out) {
    const KernelEntry* entry = find_kernel(name);
    EXPECT_NE(entry, nullptr) << name;
    if (entry == nullptr) return Error::OperatorMissing;
    EXPECT_EQ(entry->num_args, -1) << name;
    EValue* o = t(out);
    inputs.push_back(o);
    inputs.push_back(o);
    clear_error();
    KernelContext context;
    context.temp = &temp_;
    KernelArgs args(inputs.data(), inputs.size());
    return entry->fn(context, args);
  }
};

const std::vector<double> kTies = {0.25, 0.75, -0.25, -0.75, 1.25, -1.25, 63.75, -64.25, 100, -100};

TEST_F(QuantOps, QuantizePerTensorRoundsHalfToEvenAndClamps) {
  Tensor* out = tf.zeros(ST::Char, {2, 5});
  ASSERT_EQ(call_out("quantized_decomposed::quantize_per_tensor.out",
                     {t(f32({2, 5}, kTies)), d(0.5), i(0), i(-128), i(127), st(ST::Char)}, out),
            Error::Ok);
  EXPECT_VALUES(out, {0, 2, 0, -2, 2, -2, 127, -128, 127, -128});
  Tensor* u8 = tf.zeros(ST::Byte, {2, 5});
  ASSERT_EQ(call_out("quantized_decomposed::quantize_per_tensor.out",
                     {t(f32({2, 5}, kTies)), d(0.5), i(3), i(0), i(255), st(ST::Byte)}, u8),
            Error::Ok);
  EXPECT_VALUES(u8, {3, 5, 3, 1, 5, 1, 131, 0, 203, 0});
}

TEST_F(QuantOps, QuantizePerTensorDtypes) {
  const std::vector<double> x = {0.1, -0.37, 2.0, 1.234, -5.0, 0.049};
  Tensor* s16 = tf.zeros(ST::Short, {2, 3});
  ASSERT_EQ(call_out("quantized_decomposed::quantize_per_tensor.out",
                     {t(f32({2, 3}, x)), d(0.0123), i(-7), i(-100), i(100), st(ST::Short)}, s16),
            Error::Ok);
  EXPECT_VALUES(s16, {1, -37, 100, 93, -100, -3});
  // Half input: widened to float (values are the rounded halves).
  Tensor* h = tf.zeros(ST::Char, {2, 3});
  ASSERT_EQ(call_out("quantized_decomposed::quantize_per_tensor.out",
                     {t(tf.make(ST::Half, {2, 3}, x)), d(0.01), i(2), i(-128), i(127), st(ST::Char)},
                     h),
            Error::Ok);
  EXPECT_VALUES(h, {12, -35, 127, 125, -128, 7});
  Tensor* dbl = tf.zeros(ST::Char, {2, 3});
  ASSERT_EQ(call_out("quantized_decomposed::quantize_per_tensor.out",
                     {t(tf.make(ST::Double, {2, 3}, x)), d(0.0123), i(-7), i(-128), i(127),
                      st(ST::Char)},
                     dbl),
            Error::Ok);
  EXPECT_VALUES(dbl, {1, -37, 127, 93, -128, -3});
  // UInt16 (not in torch 1.13): the same arithmetic, range [0, 65535].
  Tensor* u16 = tf.zeros(ST::UInt16, {3});
  ASSERT_EQ(call_out("quantized_decomposed::quantize_per_tensor.out",
                     {t(f32({3}, {-1, 0.5, 1000})), d(0.01), i(100), i(0), i(65535), st(ST::UInt16)},
                     u16),
            Error::Ok);
  EXPECT_VALUES(u16, {0, 150, 65535});
}

TEST_F(QuantOps, QuantizeSpecialValuesAndLayouts) {
  // inf saturates, NaN quantizes as 0 would; beyond int32 saturates (where
  // PyTorch's conversion is undefined).
  Tensor* out = tf.zeros(ST::Char, {3});
  ASSERT_EQ(call_out("quantized_decomposed::quantize_per_tensor.out",
                     {t(f32({3}, {INFINITY, -INFINITY, NAN})), d(0.1), i(5), i(-128), i(127),
                      st(ST::Char)},
                     out),
            Error::Ok);
  EXPECT_VALUES(out, {127, -128, 0});
  Tensor* i32 = tf.zeros(ST::Int, {2});
  ASSERT_EQ(call_out("quantized_decomposed::quantize_per_tensor.out",
                     {t(f32({2}, {1e10, -1e10})), d(1.0), i(0), i(INT32_MIN), i(INT32_MAX),
                      st(ST::Int)},
                     i32),
            Error::Ok);
  EXPECT_VALUES(i32, {INT32_MAX, INT32_MIN});
  // Channels-last in, contiguous out; empty.
  Tensor* cl = tf.make(ST::Float, {1, 2, 1, 2}, {0.25, 0.75, -0.25, 1.25}, {0, 2, 3, 1});
  Tensor* o4 = tf.zeros(ST::Char, {1, 2, 1, 2});
  ASSERT_EQ(call_out("quantized_decomposed::quantize_per_tensor.out",
                     {t(cl), d(0.5), i(0), i(-128), i(127), st(ST::Char)}, o4),
            Error::Ok);
  EXPECT_VALUES(o4, {0, 2, 0, 2});
  Tensor* empty = tf.zeros(ST::Byte, {0, 3});
  EXPECT_EQ(call_out("quantized_decomposed::quantize_per_tensor.out",
                     {t(tf.zeros(ST::Float, {0, 3})), d(0.1), i(0), i(0), i(255), st(ST::Byte)},
                     empty),
            Error::Ok);
  // quant_min > quant_max clamps everything to quant_max, like clamp.
  Tensor* inv = tf.zeros(ST::Char, {2});
  ASSERT_EQ(call_out("quantized_decomposed::quantize_per_tensor.out",
                     {t(f32({2}, {-5, 5})), d(1.0), i(0), i(3), i(1), st(ST::Char)}, inv),
            Error::Ok);
  EXPECT_VALUES(inv, {1, 1});
}

TEST_F(QuantOps, QuantizePerTensorTensorArgs) {
  Tensor* out = tf.zeros(ST::Byte, {2, 5});
  ASSERT_EQ(call_out("quantized_decomposed::quantize_per_tensor.Tensor_out",
                     {t(f32({2, 5}, kTies)), t(tf.make(ST::Float, {1}, {0.5})),
                      t(tf.make(ST::Int, {}, {3})), i(0), i(255), st(ST::Byte)},
                     out),
            Error::Ok);
  EXPECT_VALUES(out, {3, 5, 3, 1, 5, 1, 131, 0, 203, 0});
  EXPECT_KERNEL_ERROR(call_out("quantized_decomposed::quantize_per_tensor.Tensor_out",
                               {t(f32({1}, {1})), t(tf.make(ST::Double, {2}, {0.5, 0.5})),
                                t(tf.make(ST::Long, {1}, {0})), i(0), i(255), st(ST::Byte)},
                               tf.zeros(ST::Byte, {1})),
                      Error::InvalidArgument, "scale: expected one element, got 2");
  EXPECT_KERNEL_ERROR(call_out("quantized_decomposed::quantize_per_tensor.Tensor_out",
                               {t(f32({1}, {1})), t(tf.make(ST::Double, {1}, {0.5})),
                                t(tf.make(ST::Float, {1}, {0})), i(0), i(255), st(ST::Byte)},
                               tf.zeros(ST::Byte, {1})),
                      Error::InvalidType, "zero_point");
}

TEST_F(QuantOps, QuantizePerChannel) {
  std::vector<double> x;
  for (int k = 0; k < 12; ++k) x.push_back(static_cast<float>(static_cast<float>(k) * 0.37f - 2.0f));
  Tensor* out = tf.zeros(ST::Char, {2, 3, 2});
  ASSERT_EQ(call_out("quantized_decomposed::quantize_per_channel.out",
                     {t(f32({2, 3, 2}, x)), t(tf.make(ST::Double, {3}, {0.1, 0.05, 0.2})),
                      t(tf.make(ST::Long, {3}, {1, -2, 3})), i(1), i(-128), i(127), st(ST::Char)},
                     out),
            Error::Ok);
  EXPECT_VALUES(out, {-19, -15, -27, -20, 0, 2, 3, 7, 17, 25, 12, 13});
  // Float scales, Int zero points, negative axis.
  ASSERT_EQ(call_out("quantized_decomposed::quantize_per_channel.out",
                     {t(f32({2, 3, 2}, x)), t(tf.make(ST::Float, {2}, {0.1, 0.3})),
                      t(tf.make(ST::Int, {2}, {0, 5})), i(-1), i(-128), i(127), st(ST::Char)},
                     out),
            Error::Ok);
  EXPECT_VALUES(out, {-20, 0, -13, 2, -5, 5, 2, 7, 10, 9, 17, 12});
}

TEST_F(QuantOps, QuantizePerTokenAddsZeroPointBeforeRounding) {
  const std::vector<double> x = {0.25, 0.75, -0.25, 1.25, -1.25, 2.0};
  Tensor* out = tf.zeros(ST::Char, {2, 3});
  ASSERT_EQ(call_out("quantized_decomposed::quantize_per_token.out",
                     {t(f32({2, 3}, x)), t(tf.make(ST::Double, {2, 1}, {0.5, 0.5})),
                      t(tf.make(ST::Long, {2, 1}, {1, -1})), i(-128), i(127), st(ST::Char)},
                     out),
            Error::Ok);
  EXPECT_VALUES(out, {2, 2, 0, 2, -4, 3});
  EXPECT_KERNEL_ERROR(call_out("quantized_decomposed::quantize_per_token.out",
                               {t(f32({2, 3}, x)), t(tf.make(ST::Double, {3}, {0.5, 0.5, 0.5})),
                                t(tf.make(ST::Long, {2, 1}, {1, -1})), i(-128), i(127),
                                st(ST::Char)},
                               tf.zeros(ST::Char, {2, 3})),
                      Error::InvalidArgument, "scales: has 3 elements, expected one per token (2)");
}

TEST_F(QuantOps, DequantizePerTensor) {
  Tensor* q = tf.make(ST::Char, {2, 3}, {-128, -1, 0, 5, 100, 127});
  Tensor* out = tf.zeros(ST::Float, {2, 3});
  ASSERT_EQ(dq_out("quantized_decomposed::dequantize_per_tensor.out",
                     {t(q), d(0.02), i(3), i(-128), i(127), st(ST::Char), none()}, out),
            Error::Ok);
  EXPECT_VALUES(out, {-2.619999885559082, -0.07999999821186066, -0.05999999865889549,
                      0.03999999910593033, 1.9399999380111694, 2.4800000190734863});
  Tensor* dbl = tf.zeros(ST::Double, {2, 3});
  ASSERT_EQ(dq_out("quantized_decomposed::dequantize_per_tensor.out",
                     {t(q), d(0.02), i(3), i(-128), i(127), st(ST::Char), st(ST::Double)}, dbl),
            Error::Ok);
  EXPECT_VALUES(dbl, {-2.62, -0.08, -0.06, 0.04, 1.94, 2.48}, 1e-15);
  Tensor* h = tf.zeros(ST::Half, {2, 3});
  ASSERT_EQ(dq_out("quantized_decomposed::dequantize_per_tensor.out",
                     {t(q), d(0.013), i(-5), i(-128), i(127), st(ST::Char), st(ST::Half)}, h),
            Error::Ok);
  EXPECT_VALUES(h, {-1.5986328125, 0.052001953125, 0.06500244140625, 0.1300048828125,
                    1.365234375, 1.7158203125});
  Tensor* bf = tf.zeros(ST::BFloat16, {2, 3});
  ASSERT_EQ(dq_out("quantized_decomposed::dequantize_per_tensor.Tensor_out",
                     {t(q), t(tf.make(ST::Double, {1}, {0.013})), t(tf.make(ST::Long, {1}, {-5})),
                      i(-128), i(127), st(ST::Char), none()},
                     bf),
            Error::Ok);
  EXPECT_VALUES(bf, {-1.6015625, 0.052001953125, 0.06494140625, 0.1298828125, 1.3671875,
                     1.71875});
}

TEST_F(QuantOps, DequantizeWithoutOutDtypeArgument) {
  // Programs exported before ExecuTorch added out_dtype: one argument fewer.
  Tensor* q = tf.make(ST::Char, {2, 3}, {-128, -1, 0, 5, 100, 127});
  Tensor* out = tf.zeros(ST::Double, {2, 3});
  ASSERT_EQ(dq_out("quantized_decomposed::dequantize_per_tensor.out",
                   {t(q), d(0.02), i(3), i(-128), i(127), st(ST::Char)}, out),
            Error::Ok);
  EXPECT_VALUES(out, {-2.62, -0.08, -0.06, 0.04, 1.94, 2.48}, 1e-15);
  ASSERT_EQ(dq_out("quantized_decomposed::dequantize_per_channel.out",
                   {t(q), t(tf.make(ST::Double, {2}, {0.5, 0.25})), none(), i(0), i(-128), i(127),
                    st(ST::Char)},
                   out),
            Error::Ok);
  EXPECT_VALUES(out, {-64, -0.5, 0, 1.25, 25, 31.75});
  EXPECT_KERNEL_ERROR(dq_out("quantized_decomposed::dequantize_per_tensor.Tensor_out",
                             {t(q), t(tf.make(ST::Double, {1}, {0.1}))}, out),
                      Error::InvalidArgument, "expected 9 arguments (or 8 without out_dtype), got 4");
}

TEST_F(QuantOps, DequantizePerChannelAndToken) {
  Tensor* q = tf.make(ST::Char, {2, 3}, {1, 2, 3, -4, -5, -6});
  Tensor* out = tf.zeros(ST::Float, {2, 3});
  ASSERT_EQ(dq_out("quantized_decomposed::dequantize_per_channel.out",
                     {t(q), t(tf.make(ST::Double, {3}, {0.5, 0.25, 0.125})), none(), i(1), i(-128),
                      i(127), st(ST::Char), none()},
                     out),
            Error::Ok);
  EXPECT_VALUES(out, {0.5, 0.5, 0.375, -2.0, -1.25, -0.75});
  ASSERT_EQ(dq_out("quantized_decomposed::dequantize_per_channel.out",
                     {t(q), t(tf.make(ST::Float, {2}, {0.1, 0.3})), t(tf.make(ST::Long, {2}, {1, -1})),
                      i(0), i(-128), i(127), st(ST::Char), st(ST::Float)},
                     out),
            Error::Ok);
  EXPECT_VALUES(out, {0.0, 0.10000000149011612, 0.20000000298023224, -0.9000000357627869,
                      -1.2000000476837158, -1.5});
  // Per token: Double scales give the double product, rounded once.
  ASSERT_EQ(call_out("quantized_decomposed::dequantize_per_token.out",
                     {t(q), t(tf.make(ST::Double, {2, 1}, {0.1, 0.3})),
                      t(tf.make(ST::Long, {2, 1}, {1, -1})), i(-128), i(127), st(ST::Char),
                      st(ST::Float)},
                     out),
            Error::Ok);
  EXPECT_VALUES(out, {0.0, 0.10000000149011612, 0.20000000298023224, -0.8999999761581421,
                      -1.2000000476837158, -1.5});
}

TEST_F(QuantOps, ChooseQparams) {
  Tensor* scale = tf.zeros(ST::Double, {1});
  Tensor* zp = tf.zeros(ST::Long, {1});
  ASSERT_EQ(call_two("quantized_decomposed::choose_qparams.Tensor_out",
                     {t(f32({3}, {-1.0, 0.5, 2.0})), i(-128), i(127), d(1e-5), st(ST::Char)}, scale,
                     zp),
            Error::Ok);
  EXPECT_VALUES(scale, {0.0117647061124444});
  EXPECT_VALUES(zp, {-43});
  ASSERT_EQ(call_two("quantized_decomposed::choose_qparams.Tensor_out",
                     {t(f32({2}, {0.5, 2.0})), i(0), i(255), d(1e-5), st(ST::Byte)}, scale, zp),
            Error::Ok);
  EXPECT_VALUES(scale, {0.007843137718737125});
  EXPECT_VALUES(zp, {0});
  // All zeros: scale is eps.
  ASSERT_EQ(call_two("quantized_decomposed::choose_qparams.Tensor_out",
                     {t(f32({2}, {0, 0})), i(-128), i(127), d(1e-5), st(ST::Char)}, scale, zp),
            Error::Ok);
  EXPECT_VALUES(scale, {9.999999747378752e-06});
  EXPECT_VALUES(zp, {-128});
}

TEST_F(QuantOps, ChooseQparamsPerTokenAsymmetric) {
  Tensor* scale = tf.zeros(ST::Double, {3, 1});
  Tensor* zp = tf.zeros(ST::Long, {3, 1});
  ASSERT_EQ(call_two("quantized_decomposed::choose_qparams_per_token_asymmetric.out",
                     {t(f32({3, 4}, {-1.0, 0.5, 2.0, 0.25, 0.5, 1.0, 1.5, 3.0, -3, -2, -1, -0.5})),
                      st(ST::Char)},
                     scale, zp),
            Error::Ok);
  EXPECT_VALUES(scale, {0.0117647061124444, 0.0117647061124444, 0.0117647061124444});
  EXPECT_VALUES(zp, {-43, -128, 127});
  EXPECT_KERNEL_ERROR(call_two("quantized_decomposed::choose_qparams_per_token_asymmetric.out",
                               {t(tf.zeros(ST::Float, {3, 0})), st(ST::Char)}, scale, zp),
                      Error::InvalidArgument, "last dim has size 0");
  EXPECT_KERNEL_ERROR(call_two("quantized_decomposed::choose_qparams_per_token_asymmetric.out",
                               {t(tf.zeros(ST::Half, {3, 2})), st(ST::Char)}, scale, zp),
                      Error::InvalidType, "input");
}

TEST_F(QuantOps, Errors) {
  Tensor* x = f32({2}, {1, 2});
  const char* q = "quantized_decomposed::quantize_per_tensor.out";
  EXPECT_KERNEL_ERROR(call_out(q, {t(x), d(0.1), i(0), i(-129), i(127), st(ST::Char)},
                               tf.zeros(ST::Char, {2})),
                      Error::InvalidArgument, "quant_min -129 is below the range of Char [-128, 127]");
  EXPECT_KERNEL_ERROR(call_out(q, {t(x), d(0.1), i(0), i(0), i(256), st(ST::Byte)},
                               tf.zeros(ST::Byte, {2})),
                      Error::InvalidArgument, "quant_max 256 is above the range of Byte");
  EXPECT_KERNEL_ERROR(call_out(q, {t(x), d(0.1), i(0), i(-128), i(127), st(ST::Char)},
                               tf.zeros(ST::Byte, {2})),
                      Error::InvalidType, "out");
  EXPECT_KERNEL_ERROR(call_out(q, {t(x), d(0.1), i(0), i(0), i(10), st(ST::Long)},
                               tf.zeros(ST::Long, {2})),
                      Error::InvalidType, "dtype");
  EXPECT_KERNEL_ERROR(call_out(q, {t(tf.make(ST::Int, {2}, {1, 2})), d(0.1), i(0), i(-128), i(127),
                                   st(ST::Char)},
                               tf.zeros(ST::Char, {2})),
                      Error::InvalidType, "input");
  EXPECT_KERNEL_ERROR(call_out(q, {t(x), d(0.0), i(0), i(-128), i(127), st(ST::Char)},
                               tf.zeros(ST::Char, {2})),
                      Error::InvalidArgument, "scale: must be finite and > 0");
  EXPECT_KERNEL_ERROR(call_out(q, {t(x), d(0.1), i(0), i(-128), i(127), i(99)},
                               tf.zeros(ST::Char, {2})),
                      Error::InvalidArgument, "99 is not a scalar type");
  EXPECT_KERNEL_ERROR(call_out(q, {t(x), d(0.1), i(0), i(-128), i(127), st(ST::Char)},
                               tf.zeros(ST::Char, {3})),
                      Error::InvalidArgument, "out");
  const char* qc = "quantized_decomposed::quantize_per_channel.out";
  EXPECT_KERNEL_ERROR(call_out(qc, {t(f32({2, 3}, std::vector<double>(6))),
                                    t(tf.make(ST::Double, {2}, {0.1, 0.1})),
                                    t(tf.make(ST::Long, {2}, {0, 0})), i(2), i(-128), i(127),
                                    st(ST::Char)},
                               tf.zeros(ST::Char, {2, 3})),
                      Error::InvalidArgument, "Dimension out of range");
  EXPECT_KERNEL_ERROR(call_out(qc, {t(f32({2, 3}, std::vector<double>(6))),
                                    t(tf.make(ST::Double, {2}, {0.1, 0.1})),
                                    t(tf.make(ST::Long, {2}, {0, 0})), i(1), i(-128), i(127),
                                    st(ST::Char)},
                               tf.zeros(ST::Char, {2, 3})),
                      Error::InvalidArgument, "scales: has 2 elements, expected 3");
  EXPECT_KERNEL_ERROR(call_out(qc, {t(f32({2, 3}, std::vector<double>(6))),
                                    t(tf.make(ST::Double, {2}, {0.1, -1})),
                                    t(tf.make(ST::Long, {2}, {0, 0})), i(0), i(-128), i(127),
                                    st(ST::Char)},
                               tf.zeros(ST::Char, {2, 3})),
                      Error::InvalidArgument, "every scale must be finite and > 0, got -1");
  EXPECT_KERNEL_ERROR(call_out(qc, {t(f32({}, {1})), t(tf.make(ST::Double, {1}, {0.1})),
                                    t(tf.make(ST::Long, {1}, {0})), i(0), i(-128), i(127),
                                    st(ST::Char)},
                               tf.zeros(ST::Char, {})),
                      Error::InvalidArgument, "0-dim");
  const char* dq = "quantized_decomposed::dequantize_per_tensor.out";
  EXPECT_KERNEL_ERROR(dq_out(dq, {t(tf.make(ST::Byte, {1}, {1})), d(0.1), i(0), i(-128), i(127),
                                    st(ST::Char), none()},
                               tf.zeros(ST::Float, {1})),
                      Error::InvalidType, "input");
  EXPECT_KERNEL_ERROR(dq_out(dq, {t(tf.make(ST::Char, {1}, {1})), d(0.1), i(0), i(-128), i(127),
                                    st(ST::Char), st(ST::Double)},
                               tf.zeros(ST::Float, {1})),
                      Error::InvalidType, "out");
  EXPECT_KERNEL_ERROR(dq_out(dq, {t(tf.make(ST::Char, {1}, {1})), d(0.1), i(0), i(-128), i(127),
                                    st(ST::Char), none()},
                               tf.zeros(ST::Long, {1})),
                      Error::InvalidType, "out");
  const char* cq = "quantized_decomposed::choose_qparams.Tensor_out";
  Tensor* s = tf.zeros(ST::Double, {1});
  Tensor* z = tf.zeros(ST::Long, {1});
  EXPECT_KERNEL_ERROR(call_two(cq, {t(x), i(1), i(127), d(1e-5), st(ST::Char)}, s, z),
                      Error::InvalidArgument, "must include 0");
  EXPECT_KERNEL_ERROR(call_two(cq, {t(tf.zeros(ST::Float, {0})), i(-128), i(127), d(1e-5),
                                    st(ST::Char)},
                               s, z),
                      Error::InvalidArgument, "empty tensor");
  EXPECT_KERNEL_ERROR(call_two(cq, {t(f32({2}, {1, NAN})), i(-128), i(127), d(1e-5), st(ST::Char)},
                               s, z),
                      Error::InvalidArgument, "NaN");
  EXPECT_KERNEL_ERROR(call_two(cq, {t(x), i(-128), i(127), d(1e-5), st(ST::Char)},
                               tf.zeros(ST::Float, {2}), z),
                      Error::InvalidArgument, "scale_out");
}

}  // namespace
}  // namespace tri::testing
