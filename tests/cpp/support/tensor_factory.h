// Test-only helper that owns tensors and their storage (tests may use the
// standard library; the runtime may not).
#pragma once

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <memory>
#include <vector>

#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/core/tensor.h"

namespace tri::testing {

class TensorFactory {
 public:
  // A tensor of `type` with the given sizes holding `values` converted to the
  // element type (bool, integers, float, double; Half/BFloat16 from float).
  Tensor* make(ScalarType type, std::vector<SizesType> sizes,
               const std::vector<double>& values,
               std::vector<DimOrderType> dim_order = {},
               ShapeDynamism dynamism = ShapeDynamism::Static);
  // Like make(), but the values are raw int64 (exact for Long beyond 2^53).
  Tensor* make_long(std::vector<SizesType> sizes,
                    const std::vector<int64_t>& values);
  Tensor* zeros(ScalarType type, std::vector<SizesType> sizes,
                std::vector<DimOrderType> dim_order = {},
                ShapeDynamism dynamism = ShapeDynamism::Static);

  // Reads any tensor back as doubles, in logical (row-major) order whatever
  // its dim order.
  static std::vector<double> values(const Tensor& t);

  // EValue slots whose storage the factory keeps alive.
  EValue* value(const EValue& v);
  EValue* tensor_value(Tensor* t) { return value(EValue::from_tensor(t)); }
  EValue* int_list(const std::vector<int64_t>& items);
  EValue* double_list(const std::vector<double>& items);
  EValue* bool_list(const std::vector<bool>& items);
  EValue* tensor_list(const std::vector<Tensor*>& items, bool optional = false);

 private:
  std::deque<Tensor> tensors_;
  std::deque<std::vector<uint8_t>> storage_;
  std::deque<EValue> values_;
  std::deque<std::vector<EValue*>> boxes_;
  std::deque<std::vector<int64_t>> int_scratch_;
  std::deque<std::vector<Tensor*>> tensor_scratch_;
  std::deque<std::vector<double>> doubles_;
  std::deque<std::unique_ptr<bool[]>> bools_;
};

}  // namespace tri::testing
