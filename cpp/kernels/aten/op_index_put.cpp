// aten::index_put.out: out = copy of self, then out[indices] = values
// (values broadcast to the indexing result's shape; util/index_plan.h has
// the indexing rules). With accumulate, values are added, repeated indices
// adding up (wrapping for integers, logical or for Bool); without it the
// last write to a repeated index wins. values must have self's dtype.
#include <cinttypes>
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/index_plan.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

template <typename C>
void accumulate(const IndexPlan& plan, const TensorView& o, const TensorView& values) {
  const ScalarType type = o.type;
  const int64_t es = static_cast<int64_t>(o.element_size());
  char* dst = static_cast<char*>(o.data);
  const char* src = static_cast<const char*>(values.data);
  for_each_indexed(plan, o, values, [&](int64_t at, int64_t from) {
    char* d = dst + at * es;
    C v = arith_add(load_one<C>(type, d), load_one<C>(type, src + from * es));
    if constexpr (std::is_integral<C>::value) wrap_to_dtype(type, &v, 1);
    store_one<C>(type, v, d);
  });
}

// out = self with out[indices] = values (or += them). out may be self.
Error index_put_into(KernelContext& ctx, Tensor* self, Span<Tensor* const> indices,
                     Tensor* values, bool accumulate_values, Tensor* out) {
  TRI_TRY(check_dtype(self->scalar_type(), kAllTypes, "self"));
  TRI_CHECK(values->scalar_type() == self->scalar_type(), Error::InvalidType,
            "Index put requires the source and destination dtypes match, got %s for the "
            "destination and %s for the source.", scalar_type_name(self->scalar_type()),
            scalar_type_name(values->scalar_type()));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  IndexPlan plan;
  TRI_TRY(make_index_plan(ctx, TensorView::of(*self), indices, &plan));
  const TensorView vv = TensorView::of(*values);
  bool fits = vv.dim <= plan.dim;
  for (int32_t i = 0; fits && i < vv.dim; ++i) {
    const int64_t target = plan.shape[plan.dim - vv.dim + i];
    fits = vv.sizes[i] == target || vv.sizes[i] == 1;
  }
  TRI_CHECK(fits, Error::InvalidArgument,
            "shape mismatch: value tensor of rank %d cannot be broadcast to the indexing "
            "result of rank %d (compare their sizes)", vv.dim, plan.dim);
  if (out != self) {
    TRI_CHECK(!bytes_overlap(*self, *out), Error::InvalidArgument,
              "out shares memory with self without being self");
    TRI_TRY(copy_into(TensorView::of(*self), *out));
  }
  const TensorView o = TensorView::of(*out);
  if (accumulate_values) {
    switch (compute_kind(self->scalar_type())) {
      case ComputeKind::Int: accumulate<int64_t>(plan, o, vv); break;
      case ComputeKind::Float: accumulate<float>(plan, o, vv); break;
      default: accumulate<double>(plan, o, vv); break;
    }
    return Error::Ok;
  }
  const int64_t es = static_cast<int64_t>(o.element_size());
  char* dst = static_cast<char*>(o.data);
  const char* src = static_cast<const char*>(vv.data);
  for_each_indexed(plan, o, vv, [&](int64_t at, int64_t from) {
    std::memmove(dst + at * es, src + from * es, static_cast<size_t>(es));
  });
  return Error::Ok;
}

}  // namespace

Error index_put_out(KernelContext& ctx, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<Tensor* const> indices, args.tensor_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* values, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(const bool accumulate_values, args.bool_value(3));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(4));
  return index_put_into(ctx, self, indices, values, accumulate_values, out);
}

// aten::index_put_: the same, in place in self (KV caches written at the
// decoding position); the returned value gets self (see alias_result).
Error index_put_inplace(KernelContext& ctx, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<Tensor* const> indices, args.tensor_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* values, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(const bool accumulate_values, args.bool_value(3));
  TRI_ASSIGN_OR_RETURN(Tensor* ret, args.tensor(4));
  TRI_CHECK(!bytes_overlap(*values, *self), Error::NotSupported,
            "values share memory with self");
  TRI_TRY(index_put_into(ctx, self, indices, values, accumulate_values, self));
  return alias_result(*self, *ret);
}

size_t index_put_scratch(KernelArgs& args) {
  Result<Span<Tensor* const>> indices = args.tensor_list(1);
  return indices.ok() ? index_plan_scratch(*indices) : 0;
}

}  // namespace kernels
}  // namespace tri
