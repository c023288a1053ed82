// The registered TFRT ops the translator knows the custom assembly form of,
// with the operand counts and result types their op definitions fix
// (include/tfrt/basic_kernels/opdefs/basic_kernels.td, tensor/opdefs/
// dense_host_tensor.td, dense_host_tensor_sync.td, tensor_shape.td,
// test_kernels/opdefs/test_kernels.td at TFRT HEAD).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tri::bef::mlir {

// Type spellings the op definitions produce.
constexpr const char* kStringType = "!tfrt.string";
// HEAD registers the tensor type in the `tfrt_tensor` dialect (formerly `t`).
constexpr const char* kTensorType = "!tfrt_tensor.tensor";
constexpr const char* kHostBufferType = "!ht.host_buffer";
constexpr const char* kShapeType = "!ts.shape";
constexpr const char* kPartialShapeType = "!ts.partial_shape";

enum class CustomForm : uint8_t {
  Operands,         // operands attr-dict
  Value,            // $value attr-dict
  OperandsValue,    // operands $value attr-dict
  TensorValues,     // $tensor $values attr-dict
  AttrDict,         // attr-dict
  ComplexConstant,  // $real `,` $imaginary attr-dict
  MergeChains,      // $inputs attr-dict `:` type($inputs)
  TestCost,         // $args attr-dict `:` type($args)
  Call,
  Return,
  If,
  Repeat,
  ParallelFor,
  ParallelCall,
  Cond,
  Case,
  While,
  Once,
  DoAsync,
  Benchmark,
};

struct CustomOpSpec {
  CustomForm form = CustomForm::Operands;
  uint32_t num_operands = 0;  // Operands, OperandsValue, TensorValues
  std::vector<std::string> results;
  std::string attr;       // the named attribute of the Value forms
  std::string attr_type;  // the type a Value-form literal is parsed at ("" none)
};

// nullptr when `name` has no custom form the translator knows.
const CustomOpSpec* find_custom_op(const std::string& name);

// Registered TFRT ops are IsolatedFromAbove; unregistered ones are not.
bool is_registered_op(const std::string& name);

}  // namespace tri::bef::mlir
