// The common front half of binary elementwise kernels (add, sub, mul, div,
// pow, comparisons): read `self` and `other` (a Tensor, or a Scalar for the
// .Scalar overloads), find the ATen result dtype, check it and the out
// dtype, broadcast and resize out.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/tensor_view.h"
#include "cpp/runtime/kernel/kernel_args.h"

namespace tri {

struct BinaryOperands {
  const Tensor* self = nullptr;
  const Tensor* other = nullptr;  // nullptr: `other_scalar` is the operand
  Scalar other_scalar;
  bool self_is_scalar = false;    // pow.Scalar_out: self is a Scalar
  Scalar self_scalar;
  Tensor* out = nullptr;
  ScalarType common = ScalarType::Float;

  // Views of the operands. A Scalar operand is converted into `storage` as a
  // value of the compute type of `common` (normally this->common; true
  // division passes Float).
  TensorView self_view(ScalarType common, ComputeScalar* storage) const {
    if (self_is_scalar) {
      storage->set(self_scalar, common);
      return storage->view();
    }
    return TensorView::of(*self);
  }
  TensorView other_view(ScalarType common, ComputeScalar* storage) const {
    if (other == nullptr) {
      storage->set(other_scalar, common);
      return storage->view();
    }
    return TensorView::of(*other);
  }
};

enum class OperandKind : uint8_t { Tensor, Scalar };

struct BinarySpec {
  OperandKind self_kind = OperandKind::Tensor;
  OperandKind other_kind = OperandKind::Tensor;
  size_t out_index = 2;          // argument index of out
  uint32_t allowed = 0;          // dtypes the common dtype may be
  bool out_is_bool = false;      // comparisons: out may be any dtype
  // Float ops (atan2, copysign): a Bool or integral common dtype computes in
  // Float (the default dtype), as ATen's build_borrowing_binary_float_op.
  bool int_to_float = false;
};

// Reads arguments 0 and 1 and out, computes `common` (Float for a float op
// on non-floating operands), checks that it is in spec.allowed and castable
// to out's dtype, broadcasts and resizes out.
Error prepare_binary(KernelArgs& args, const BinarySpec& spec, BinaryOperands* ops);

// ATen's alpha rules: a Bool alpha needs a Bool result; an integral result
// needs an integral alpha.
Error check_alpha(const Scalar& alpha, ScalarType common);

// Integer division, modulo: fails with ATen's "ZeroDivisionError" when the
// common dtype is integral and some divisor, as a value of it, is 0 (and out
// is not empty). Floating division by zero is defined (inf, NaN).
Error check_int_divisor(const TensorView& divisor, ScalarType common, const Tensor& out);

}  // namespace tri
