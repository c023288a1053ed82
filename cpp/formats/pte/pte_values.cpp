#include "cpp/formats/pte/pte_values.h"

#include <cinttypes>
#include <cstring>

#include "cpp/formats/pte/fb_read.h"
#include "cpp/formats/pte/pte_program.h"
#include "cpp/formats/pte/schema/program_generated.h"

namespace tri::pte {
namespace {

namespace fb = executorch_flatbuffer;

size_t vector_size(const flatbuffers::Vector<int32_t>* v) {
  return v ? v->size() : 0;
}

}  // namespace

Error parse_tensor_shape(const fb::Tensor* t, Tensor* out) {
  const int32_t type = static_cast<int32_t>(t->scalar_type());
  TRI_CHECK(is_valid_scalar_type(type), Error::InvalidProgram,
            "scalar type %" PRId32 " is not a known type", type);
  TRI_CHECK(t->storage_offset() == 0, Error::NotSupported,
            "storage_offset %" PRId32 " (only 0 is supported)",
            t->storage_offset());
  const auto* sizes = t->sizes();
  const auto* dim_order = t->dim_order();
  const size_t rank = sizes ? sizes->size() : 0;
  TRI_CHECK(rank <= kTensorDimLimit, Error::NotSupported,
            "rank %zu exceeds the limit of %zu", rank, kTensorDimLimit);
  TRI_CHECK(dim_order == nullptr || dim_order->size() == 0 ||
                dim_order->size() == rank,
            Error::InvalidProgram, "dim_order has %" PRIu32 " entries for rank %zu",
            dim_order->size(), rank);
  const int32_t dynamism = static_cast<int32_t>(t->shape_dynamism());
  TRI_CHECK(dynamism >= 0 && dynamism <= 2, Error::InvalidProgram,
            "shape_dynamism %" PRId32 " is not a known value", dynamism);
  const Span<const SizesType> size_span(sizes ? sizes->data() : nullptr, rank);
  const Span<const DimOrderType> order_span(
      dim_order && dim_order->size() ? dim_order->data() : nullptr,
      dim_order ? dim_order->size() : 0);
  return out->init(static_cast<ScalarType>(type), size_span, order_span,
                   nullptr, 0, static_cast<ShapeDynamism>(dynamism));
}

namespace {

// Kernels read elements directly, so a hostile offset that misaligns them
// (e.g. a float at an odd address) is refused; writers align tensor data to
// 16 bytes.
Error check_aligned(const void* data, const Tensor& t, const char* what) {
  const size_t alignment = t.element_size();
  TRI_CHECK(reinterpret_cast<uintptr_t>(data) % alignment == 0,
            Error::InvalidProgram,
            "%s data is not aligned to its %zu-byte elements", what, alignment);
  return Error::Ok;
}

Error bind_tensor_data(const ValueTableContext& ctx, const fb::Tensor* t, size_t index,
                       Tensor* out) {
  const size_t nbytes = out->nbytes();
  const fb::ExtraTensorInfo* extra = t->extra_tensor_info();
  const fb::AllocationDetails* alloc = t->allocation_info();
  void* planned = nullptr;
  if (alloc != nullptr && ctx.per_shape) {
    out->set_data(nullptr, 0);
    if (ctx.views != nullptr && ctx.views[index]) return Error::Ok;
    const auto* inputs = ctx.plan->inputs();
    for (size_t i = 0; inputs != nullptr && i < inputs->size(); ++i) {
      if (read_element(inputs, i) == static_cast<int32_t>(index)) return Error::Ok;
    }
    TRI_CHECK(ctx.memory->binder != nullptr, Error::InvalidState,
              "a method planned per shape needs a TensorBinder");
    out->set_binder(ctx.memory->binder);
    return Error::Ok;
  }
  if (alloc != nullptr && ctx.sizing) {
    // The real build binds it (and checks its range); nothing to allocate.
    out->set_data(nullptr, 0);
    return Error::Ok;
  }
  if (alloc != nullptr) {
    uint32_t memory_id = alloc->memory_id();
    uint64_t offset = static_cast<uint64_t>(alloc->memory_offset_low()) |
                      (static_cast<uint64_t>(alloc->memory_offset_high()) << 32);
    if (ctx.lifetime_offsets != nullptr) {
      memory_id = 1;
      offset = ctx.lifetime_offsets[index];
    }
    TRI_CHECK(ctx.memory->planned != nullptr, Error::InvalidState,
              "planned tensor but no planned memory was provided");
    TRI_ASSIGN_OR_RETURN(planned, ctx.memory->planned->address(memory_id, offset, nbytes));
    TRI_TRY(check_aligned(planned, *out, "planned tensor"));
  }
  if (extra != nullptr && extra->location() == fb::TensorDataLocation::EXTERNAL) {
    const flatbuffers::String* key = extra->fully_qualified_name();
    TRI_CHECK(key != nullptr && key->size() > 0, Error::InvalidProgram,
              "external tensor has no fully_qualified_name");
    TRI_CHECK(ctx.external != nullptr, Error::ExternalDataMissing,
              "tensor '%s' lives in an external data file (.ptd), and none "
              "was provided",
              key->c_str());
    Result<ByteSpan> data =
        ctx.external->get(Span<const char>(key->data(), key->size()));
    if (!data.ok()) {
      // A key no data file has: a file is missing, not broken.
      const Error code = data.error() == Error::NotFound ? Error::ExternalDataMissing : data.error();
      return add_context(code, "external tensor '%s'", key->c_str());
    }
    TRI_CHECK(data->size() >= nbytes, Error::InvalidExternalData,
              "external tensor '%s' has %zu bytes, its shape needs %zu",
              key->c_str(), data->size(), nbytes);
    if (planned != nullptr) {
      memcpy(planned, data->data(), nbytes);
      out->set_data(planned, nbytes);
    } else {
      TRI_TRY(check_aligned(data->data(), *out, "external tensor"));
      out->set_data(const_cast<uint8_t*>(data->data()), nbytes);
    }
    return Error::Ok;
  }
  const uint32_t buffer = t->data_buffer_idx();
  if (planned != nullptr) {
    if (buffer > 0) {
      const uint64_t segments_index = extra ? extra->mutable_data_segments_idx() : 0;
      TRI_ASSIGN_OR_RETURN(const ByteSpan initial,
                           ctx.program->mutable_data(segments_index, buffer, nbytes));
      memcpy(planned, initial.data(), nbytes);
    }
    out->set_data(planned, nbytes);
    return Error::Ok;
  }
  if (buffer > 0) {
    TRI_ASSIGN_OR_RETURN(const ByteSpan constant,
                         ctx.program->constant_data(buffer, nbytes));
    TRI_TRY(check_aligned(constant.data(), *out, "constant tensor"));
    // Constants stay in the caller's file bytes; kernels only read them.
    out->set_data(const_cast<uint8_t*>(constant.data()), nbytes);
    return Error::Ok;
  }
  // An input (or a delegate output) that receives memory at run time.
  out->set_data(nullptr, 0);
  return Error::Ok;
}

Error parse_tensor(const ValueTableContext& ctx, const fb::Tensor* t, size_t index,
                   Tensor* out) {
  TRI_TRY(parse_tensor_shape(t, out));
  return bind_tensor_data(ctx, t, index, out);
}

// Resolves slot indices of a list into pointers. `allow_none` accepts -1
// (OptionalTensorList) and maps it to `none`.
template <typename Index>
Error box_items(const flatbuffers::Vector<Index>* items, Span<EValue> values,
                EValue* none, EValue** boxed) {
  const size_t n = items ? items->size() : 0;
  for (size_t i = 0; i < n; ++i) {
    const int64_t index = static_cast<int64_t>(read_element(items, i));
    if (index == -1 && none != nullptr) {
      boxed[i] = none;
      continue;
    }
    TRI_CHECK(index >= 0 && static_cast<uint64_t>(index) < values.size(),
              Error::InvalidProgram,
              "list item %zu refers to value %" PRId64 " (the table has %zu)",
              i, index, values.size());
    boxed[i] = &values[static_cast<size_t>(index)];
  }
  return Error::Ok;
}

// The verifier accepts a union whose type is set but whose table is absent;
// every accessor below assumes the table is there.
bool union_table_present(const fb::EValue* v) {
  return v->val_type() == fb::KernelTypes::NONE || v->val() != nullptr;
}

Error parse_value(const ValueTableContext& ctx, const fb::EValue* v,
                  Span<EValue> values, EValue* none, EValue* out) {
  MemoryAllocator& alloc = *ctx.memory->method;
  TRI_CHECK(union_table_present(v), Error::InvalidProgram,
            "the value's %s table is missing",
            fb::EnumNameKernelTypes(v->val_type()));
  switch (v->val_type()) {
    case fb::KernelTypes::NONE:
    case fb::KernelTypes::Null:
      *out = EValue::none();
      return Error::Ok;
    case fb::KernelTypes::Int:
      *out = EValue::from_int(v->val_as_Int()->int_val());
      return Error::Ok;
    case fb::KernelTypes::Bool:
      *out = EValue::from_bool(v->val_as_Bool()->bool_val());
      return Error::Ok;
    case fb::KernelTypes::Double:
      *out = EValue::from_double(v->val_as_Double()->double_val());
      return Error::Ok;
    case fb::KernelTypes::String: {
      const flatbuffers::String* s = v->val_as_String()->string_val();
      out->tag = Tag::String;
      out->payload.as_string = {s ? s->c_str() : "", s ? s->size() : 0};
      return Error::Ok;
    }
    case fb::KernelTypes::Tensor: {
      Tensor* tensor = alloc.allocate_array<Tensor>(1);
      TRI_CHECK(tensor != nullptr, Error::MemoryAllocationFailed,
                "method allocator exhausted");
      TRI_TRY(parse_tensor(ctx, v->val_as_Tensor(), static_cast<size_t>(out - values.data()), tensor));
      *out = EValue::from_tensor(tensor);
      return Error::Ok;
    }
    case fb::KernelTypes::IntList: {
      const auto* items = v->val_as_IntList()->items();
      const size_t n = items ? items->size() : 0;
      EValue** boxed = alloc.allocate_array<EValue*>(n);
      int64_t* scratch = alloc.allocate_array<int64_t>(n);
      TRI_CHECK(boxed && scratch, Error::MemoryAllocationFailed,
                "method allocator exhausted");
      TRI_TRY(box_items(items, values, nullptr, boxed));
      out->tag = Tag::IntList;
      out->payload.as_int_list = {boxed, scratch, n};
      return Error::Ok;
    }
    case fb::KernelTypes::DoubleList: {
      // Copied: the file's vector may be misaligned for doubles.
      const auto* items = v->val_as_DoubleList()->items();
      const size_t n = items ? items->size() : 0;
      double* copy = alloc.allocate_array<double>(n);
      TRI_CHECK(copy != nullptr, Error::MemoryAllocationFailed,
                "method allocator exhausted");
      for (size_t i = 0; i < n; ++i) {
        copy[i] = read_element(items, i);
      }
      out->tag = Tag::DoubleList;
      out->payload.as_double_list = {copy, n};
      return Error::Ok;
    }
    case fb::KernelTypes::BoolList: {
      // Copied so that a byte other than 0/1 in the file cannot become an
      // invalid bool.
      const auto* items = v->val_as_BoolList()->items();
      const size_t n = items ? items->size() : 0;
      bool* copy = alloc.allocate_array<bool>(n);
      TRI_CHECK(copy != nullptr, Error::MemoryAllocationFailed,
                "method allocator exhausted");
      for (size_t i = 0; i < n; ++i) {
        copy[i] = items->Get(static_cast<flatbuffers::uoffset_t>(i)) != 0;
      }
      out->tag = Tag::BoolList;
      out->payload.as_bool_list = {copy, n};
      return Error::Ok;
    }
    case fb::KernelTypes::TensorList:
    case fb::KernelTypes::OptionalTensorList: {
      const bool optional = v->val_type() == fb::KernelTypes::OptionalTensorList;
      const auto* items = optional ? v->val_as_OptionalTensorList()->items()
                                   : v->val_as_TensorList()->items();
      const size_t n = vector_size(items);
      EValue** boxed = alloc.allocate_array<EValue*>(n);
      Tensor** scratch = alloc.allocate_array<Tensor*>(n);
      TRI_CHECK(boxed && scratch, Error::MemoryAllocationFailed,
                "method allocator exhausted");
      TRI_TRY(box_items(items, values, optional ? none : nullptr, boxed));
      out->tag = optional ? Tag::OptionalTensorList : Tag::TensorList;
      out->payload.as_tensor_list = {boxed, scratch, n};
      return Error::Ok;
    }
  }
  return fail(Error::InvalidProgram, "unknown value type %d",
              static_cast<int>(v->val_type()));
}

}  // namespace

Error parse_values(const ValueTableContext& ctx, Span<EValue> values) {
  const auto* table = ctx.plan->values();
  // One shared None slot for the None items of optional tensor lists.
  EValue* none = ctx.memory->method->allocate_array<EValue>(1);
  TRI_CHECK(none != nullptr, Error::MemoryAllocationFailed,
            "method allocator exhausted");
  for (size_t i = 0; i < values.size(); ++i) {
    const fb::EValue* v = table->Get(static_cast<flatbuffers::uoffset_t>(i));
    TRI_CHECK(v != nullptr, Error::InvalidProgram, "value %zu is missing", i);
    TRI_TRY_CONTEXT(parse_value(ctx, v, values, none, &values[i]),
                    "method '%s', value %zu (%s)", ctx.method, i,
                    fb::EnumNameKernelTypes(v->val_type()));
  }
  return Error::Ok;
}

Result<ValueInfo> describe_value(const fb::ExecutionPlan* plan, int32_t index) {
  const auto* table = plan->values();
  TRI_CHECK(table != nullptr && index >= 0 &&
                static_cast<uint32_t>(index) < table->size(),
            Error::InvalidProgram, "value index %" PRId32 " out of range (%" PRIu32 " values)",
            index, table ? table->size() : 0);
  const fb::EValue* v = table->Get(static_cast<flatbuffers::uoffset_t>(index));
  TRI_CHECK(v != nullptr && union_table_present(v), Error::InvalidProgram,
            "value %" PRId32 " has no table", index);
  ValueInfo info;
  switch (v->val_type()) {
    case fb::KernelTypes::Int: info.tag = Tag::Int; break;
    case fb::KernelTypes::Bool: info.tag = Tag::Bool; break;
    case fb::KernelTypes::Double: info.tag = Tag::Double; break;
    case fb::KernelTypes::String: info.tag = Tag::String; break;
    case fb::KernelTypes::IntList: info.tag = Tag::IntList; break;
    case fb::KernelTypes::DoubleList: info.tag = Tag::DoubleList; break;
    case fb::KernelTypes::BoolList: info.tag = Tag::BoolList; break;
    case fb::KernelTypes::TensorList: info.tag = Tag::TensorList; break;
    case fb::KernelTypes::OptionalTensorList: info.tag = Tag::OptionalTensorList; break;
    case fb::KernelTypes::Tensor: {
      Tensor shape;
      TRI_TRY_CONTEXT(parse_tensor_shape(v->val_as_Tensor(), &shape),
                      "value %" PRId32, index);
      info.tag = Tag::Tensor;
      info.dtype = shape.scalar_type();
      info.dynamism = shape.dynamism();
      info.dim = static_cast<uint8_t>(shape.dim());
      for (int32_t d = 0; d < shape.dim(); ++d) {
        info.sizes[d] = shape.size(d);
      }
      break;
    }
    default: info.tag = Tag::None; break;
  }
  return info;
}

}  // namespace tri::pte
