// Factories of a given size: aten::full.out, aten::zeros.out,
// aten::ones.out, aten::empty.out (memory_format must agree with out's
// layout; the values are left as they are).
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/fill.h"
#include "cpp/kernels/util/memory_format.h"
#include "cpp/kernels/util/shape_size.h"

namespace tri {
namespace kernels {
namespace {

Error fill_out(KernelArgs& args, const Scalar& value, size_t out_index) {
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> size, args.int_list(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(out_index));
  TRI_TRY(check_dtype(out->scalar_type(), kAllTypes, "out"));
  TRI_TRY_CONTEXT(check_scalar_fits(value, out->scalar_type()), "fill_value");
  TRI_TRY(resize_to_size_arg(size, *out));
  fill_scalar(*out, value);
  return Error::Ok;
}

Scalar int_scalar(int64_t v) {
  Scalar s;
  s.tag = Tag::Int;
  s.i = v;
  return s;
}

}  // namespace

Error full_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const Scalar value, args.scalar(1));
  return fill_out(args, value, 2);
}

Error zeros_out(KernelContext&, KernelArgs& args) { return fill_out(args, int_scalar(0), 1); }

Error ones_out(KernelContext&, KernelArgs& args) { return fill_out(args, int_scalar(1), 1); }

Error empty_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> size, args.int_list(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_dtype(out->scalar_type(), kAllTypes, "out"));
  TRI_TRY(check_memory_format(args, 1, *out));
  return resize_to_size_arg(size, *out);
}

Error empty_strided_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> size, args.int_list(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> stride, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_dtype(out->scalar_type(), kAllTypes, "out"));
  TRI_CHECK(stride.size() == size.size(), Error::InvalidArgument,
            "stride has %zu entries for %zu sizes", stride.size(), size.size());
  for (size_t d = 0; d < stride.size(); ++d) {
    TRI_CHECK(stride[d] >= 0, Error::InvalidArgument, "stride[%zu] = %lld is negative", d,
              static_cast<long long>(stride[d]));
  }
  TRI_TRY(resize_to_size_arg(size, *out));
  return Error::Ok;
}

// aten::empty_permuted.out: out of `size` whose memory holds the dims in the
// order `physical_layout` names, which must be out's dim order.
Error empty_permuted_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> size, args.int_list(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> layout, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_dtype(out->scalar_type(), kAllTypes, "out"));
  TRI_CHECK(layout.size() == size.size(), Error::InvalidArgument,
            "Number of dimensions in size does not match the length of the physical_layout; "
            "i.e. len(size) = %zu is not equal to len(physical_layout) = %zu",
            size.size(), layout.size());
  TRI_CHECK(static_cast<size_t>(out->dim()) == size.size(), Error::InvalidArgument,
            "out has rank %d, size has %zu entries", out->dim(), size.size());
  for (size_t i = 0; i < layout.size(); ++i) {
    TRI_CHECK(layout[i] == out->dim_order()[i], Error::InvalidArgument,
              "physical_layout[%zu] is %lld but out's dim order has %d there", i,
              static_cast<long long>(layout[i]), out->dim_order()[i]);
  }
  return resize_to_size_arg(size, *out);
}

}  // namespace kernels
}  // namespace tri
