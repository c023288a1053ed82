// aten::cat.out and aten::stack.out. Inputs promote to a common dtype that
// must cast to out's. cat skips 1-D inputs of size 0 (ATen's legacy rule);
// stack inserts a new dim, so every input must have the same shape.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/shape_view.h"
#include "cpp/kernels/util/type_promotion.h"

namespace tri {
namespace kernels {
namespace {

bool skipped(const Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

Error check_list_dtypes(Span<Tensor* const> tensors, const Tensor& out, const char* op) {
  TRI_CHECK(tensors.size() > 0, Error::InvalidArgument,
            "%s: expected a non-empty list of Tensors", op);
  ScalarType common = tensors[0]->scalar_type();
  for (size_t i = 0; i < tensors.size(); ++i) {
    TRI_TRY_CONTEXT(check_dtype(tensors[i]->scalar_type(), kAllTypes, "tensors"), "%zu", i);
    const ScalarType next = promote_types(common, tensors[i]->scalar_type());
    TRI_CHECK(next != kUndefinedType, Error::InvalidType,
              "tensors[%zu]: dtype %s does not promote with %s", i,
              scalar_type_name(tensors[i]->scalar_type()), scalar_type_name(common));
    common = next;
  }
  TRI_TRY(check_dtype(out.scalar_type(), kAllTypes, "out"));
  return check_can_cast(common, out.scalar_type());
}

}  // namespace

Error cat_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const Span<Tensor* const> tensors, args.tensor_list(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_list_dtypes(tensors, *out, "cat"));
  const Tensor* ref = nullptr;
  size_t ref_index = 0;
  for (size_t i = 0; i < tensors.size() && ref == nullptr; ++i) {
    if (!skipped(*tensors[i])) {
      ref = tensors[i];
      ref_index = i;
    }
  }
  if (ref == nullptr) {  // only legacy empty inputs
    const int64_t zero[] = {0};
    return resize_out(*out, Span<const int64_t>(zero, 1));
  }
  const int32_t rank = ref->dim();
  TRI_CHECK(rank > 0, Error::InvalidArgument,
            "zero-dimensional tensor (at position %zu) cannot be concatenated", ref_index);
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, rank, &d));
  int64_t shape[kTensorDimLimit];
  for (int32_t k = 0; k < rank; ++k) shape[k] = ref->size(k);
  int64_t total = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = *tensors[i];
    if (skipped(t)) continue;
    TRI_CHECK(t.dim() == rank, Error::InvalidArgument,
              "tensors must have same number of dimensions: got %d and %d (tensors[%zu])",
              rank, t.dim(), i);
    for (int32_t k = 0; k < rank; ++k) {
      TRI_CHECK(k == d || t.size(k) == shape[k], Error::InvalidArgument,
                "sizes of tensors must match except in dimension %d: expected size %" PRId64
                " but got size %d for tensors[%zu] at dimension %d",
                d, shape[k], t.size(k), i, k);
    }
    total += t.size(d);
  }
  shape[d] = total;
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, static_cast<size_t>(rank))));
  const TensorView o = TensorView::of(*out);
  int64_t at = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (skipped(*tensors[i])) continue;
    const int64_t n = tensors[i]->size(d);
    copy_view(TensorView::of(*tensors[i]), narrow_view(o, d, at, n));
    at += n;
  }
  return Error::Ok;
}

Error stack_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const Span<Tensor* const> tensors, args.tensor_list(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_list_dtypes(tensors, *out, "stack"));
  const Tensor& first = *tensors[0];
  const int32_t rank = first.dim();
  TRI_CHECK(rank < static_cast<int32_t>(kTensorDimLimit), Error::NotSupported,
            "stack: the result would exceed the rank limit");
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, rank + 1, &d));
  for (size_t i = 1; i < tensors.size(); ++i) {
    TRI_CHECK(same_sizes(tensors[i]->sizes(), first.sizes()), Error::InvalidArgument,
              "stack expects each tensor to be equal size, but tensors[%zu] differs from "
              "tensors[0]", i);
  }
  int64_t shape[kTensorDimLimit];
  for (int32_t k = 0, j = 0; k <= rank; ++k) {
    shape[k] = k == d ? static_cast<int64_t>(tensors.size()) : first.size(j++);
  }
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, static_cast<size_t>(rank + 1))));
  const TensorView o = TensorView::of(*out);
  for (size_t i = 0; i < tensors.size(); ++i) {
    TensorView slot = narrow_view(o, d, static_cast<int64_t>(i), 1);
    slot.remove_dim(d);
    copy_view(TensorView::of(*tensors[i]), slot);
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
