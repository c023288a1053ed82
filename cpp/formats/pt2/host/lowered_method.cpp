#include "cpp/formats/pt2/host/lowered_method.h"

namespace tri::pt2 {
namespace {

Error build_tensor(const ValueBuildContext& context, const LoweredTensor& t, Tensor* out) {
  void* data = nullptr;
  if (t.place == TensorPlace::Constant) {
    data = t.data;
  } else if (!context.sizing) {
    TRI_CHECK(context.memory->planned != nullptr, Error::InvalidState,
              "planned tensor but no planned memory was provided");
    TRI_ASSIGN_OR_RETURN(data, context.memory->planned->address(1, t.offset, t.nbytes));
  }
  return out->init(t.dtype, Span<const SizesType>(t.sizes.data(), t.sizes.size()), {}, data,
                   t.nbytes, t.dynamism);
}

}  // namespace

Error LoweredMethodSource::build_values(const ValueBuildContext& context,
                                        Span<EValue> values) const {
  MemoryAllocator& alloc = *context.memory->method;
  EValue* none = alloc.allocate_array<EValue>(1);
  TRI_CHECK(none != nullptr, Error::MemoryAllocationFailed, "method allocator exhausted");
  for (size_t i = 0; i < values.size(); ++i) {
    const LoweredValue& v = method_.values[i];
    EValue& out = values[i];
    switch (v.tag) {
      case Tag::None:
        out = EValue::none();
        break;
      case Tag::Int:
        out = EValue::from_int(v.integer);
        break;
      case Tag::Double:
        out = EValue::from_double(v.number);
        break;
      case Tag::Bool:
        out = EValue::from_bool(v.boolean);
        break;
      case Tag::String:
        out.tag = Tag::String;
        out.payload.as_string = {v.text.c_str(), v.text.size()};
        break;
      case Tag::Tensor: {
        Tensor* tensor = alloc.allocate_array<Tensor>(1);
        TRI_CHECK(tensor != nullptr, Error::MemoryAllocationFailed, "method allocator exhausted");
        TRI_TRY_CONTEXT(build_tensor(context, v.tensor, tensor), "method '%s', value %zu",
                        method_.name.c_str(), i);
        out = EValue::from_tensor(tensor);
        break;
      }
      case Tag::IntList: {
        const size_t n = v.items.size();
        EValue** boxed = alloc.allocate_array<EValue*>(n);
        int64_t* scratch = alloc.allocate_array<int64_t>(n);
        TRI_CHECK(boxed && scratch, Error::MemoryAllocationFailed, "method allocator exhausted");
        for (size_t k = 0; k < n; ++k) boxed[k] = &values[static_cast<size_t>(v.items[k])];
        out.tag = Tag::IntList;
        out.payload.as_int_list = {boxed, scratch, n};
        break;
      }
      case Tag::DoubleList: {
        double* copy = alloc.allocate_array<double>(v.numbers.size());
        TRI_CHECK(copy != nullptr, Error::MemoryAllocationFailed, "method allocator exhausted");
        for (size_t k = 0; k < v.numbers.size(); ++k) copy[k] = v.numbers[k];
        out.tag = Tag::DoubleList;
        out.payload.as_double_list = {copy, v.numbers.size()};
        break;
      }
      case Tag::BoolList: {
        bool* copy = alloc.allocate_array<bool>(v.booleans.size());
        TRI_CHECK(copy != nullptr, Error::MemoryAllocationFailed, "method allocator exhausted");
        for (size_t k = 0; k < v.booleans.size(); ++k) copy[k] = v.booleans[k] != 0;
        out.tag = Tag::BoolList;
        out.payload.as_bool_list = {copy, v.booleans.size()};
        break;
      }
      case Tag::TensorList:
      case Tag::OptionalTensorList: {
        const size_t n = v.items.size();
        EValue** boxed = alloc.allocate_array<EValue*>(n);
        Tensor** scratch = alloc.allocate_array<Tensor*>(n);
        TRI_CHECK(boxed && scratch, Error::MemoryAllocationFailed, "method allocator exhausted");
        for (size_t k = 0; k < n; ++k) {
          boxed[k] = v.items[k] < 0 ? none : &values[static_cast<size_t>(v.items[k])];
        }
        out.tag = v.tag;
        out.payload.as_tensor_list = {boxed, scratch, n};
        break;
      }
    }
  }
  return Error::Ok;
}

Result<OperatorRef> LoweredMethodSource::operator_at(size_t index) const {
  TRI_CHECK(index < method_.operators.size(), Error::InvalidProgram, "no operator %zu", index);
  const LoweredOperator& op = method_.operators[index];
  return OperatorRef{op.name.c_str(), op.overload.c_str()};
}

Result<DelegateRef> LoweredMethodSource::delegate_at(size_t index) const {
  return fail(Error::InvalidProgram, "PT2 methods have no delegates (asked for %zu)", index);
}

Result<CompileSpec> LoweredMethodSource::compile_spec_at(size_t delegate, size_t) const {
  return fail(Error::InvalidProgram, "PT2 methods have no delegates (asked for %zu)", delegate);
}

Result<InstructionRef> LoweredMethodSource::instruction_at(size_t index) const {
  TRI_CHECK(index < method_.calls.size(), Error::InvalidProgram, "no instruction %zu", index);
  const LoweredCall& call = method_.calls[index];
  InstructionRef ref;
  ref.kind = InstructionKind::KernelCall;
  ref.target = call.op;
  ref.args = Span<const int32_t>(call.args.data(), call.args.size());
  return ref;
}

ValueInfo describe_lowered_value(const LoweredMethod& method, int32_t index) {
  ValueInfo info;
  if (index < 0 || static_cast<size_t>(index) >= method.values.size()) return info;
  const LoweredValue& v = method.values[static_cast<size_t>(index)];
  info.tag = v.tag;
  if (v.tag == Tag::Tensor) {
    info.dtype = v.tensor.dtype;
    info.dynamism = v.tensor.dynamism;
    info.dim = static_cast<uint8_t>(v.tensor.sizes.size());
    for (size_t d = 0; d < v.tensor.sizes.size() && d < kTensorDimLimit; ++d) {
      info.sizes[d] = v.tensor.sizes[d];
    }
  }
  return info;
}

}  // namespace tri::pt2
