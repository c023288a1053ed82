#include "cpp/kernels/util/reduce.h"

#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/runtime/core/evalue.h"

namespace tri {

void make_reduce_plan(const Tensor& self, const bool mask[kTensorDimLimit], bool keepdim,
                      ReducePlan* p) {
  p->in = TensorView::of(self);
  const int64_t es = static_cast<int64_t>(self.element_size());
  p->n_kept = 0;
  p->n_red = 0;
  p->out_dim = 0;
  p->reduce_numel = 1;
  for (int32_t d = 0; d < self.dim(); ++d) {
    const int64_t size = self.size(d);
    const int64_t stride = static_cast<int64_t>(self.strides()[d]) * es;
    if (mask[d]) {
      p->red_sizes[p->n_red] = size;
      p->red_strides[p->n_red] = stride;
      p->red_dim[p->n_red] = d;
      ++p->n_red;
      p->reduce_numel *= size;
      if (keepdim) {
        p->out_sizes[p->out_dim++] = 1;
      }
    } else {
      p->kept_sizes[p->n_kept] = size;
      p->kept_strides[p->n_kept] = stride;
      p->kept_out_dim[p->n_kept] = p->out_dim;
      ++p->n_kept;
      p->out_sizes[p->out_dim++] = size;
    }
  }
}

Error reduce_mask_from_dims(const EValue& dims, int32_t rank, bool mask[kTensorDimLimit]) {
  Span<const int64_t> list;
  if (!dims.is_none()) {
    TRI_TRY_CONTEXT(read_int_list(dims, &list), "dim");
  }
  if (list.empty()) {
    for (size_t d = 0; d < kTensorDimLimit; ++d) {
      mask[d] = true;
    }
    return Error::Ok;
  }
  return dim_list_mask(list, rank, mask);
}

Error plan_over_dims(const Tensor& self, const EValue& dims, bool keepdim, ReducePlan* plan) {
  bool mask[kTensorDimLimit];
  TRI_TRY(reduce_mask_from_dims(dims, self.dim(), mask));
  make_reduce_plan(self, mask, keepdim, plan);
  Span<const int64_t> list;
  plan->all_dims = dims.is_none() || read_int_list(dims, &list) != Error::Ok || list.empty();
  return Error::Ok;
}

Error plan_over_dim(const Tensor& self, Optional<int64_t> dim, bool keepdim, ReducePlan* plan) {
  bool mask[kTensorDimLimit];
  for (bool& m : mask) m = !dim.has_value;
  if (dim.has_value) {
    int32_t d = 0;
    TRI_TRY(normalize_dim(dim.value, self.dim(), &d));
    mask[d] = true;
  }
  make_reduce_plan(self, mask, keepdim, plan);
  plan->all_dims = !dim.has_value;
  return Error::Ok;
}

Error check_nonempty_reduction(const ReducePlan& plan, const char* op) {
  if (plan.reduce_numel != 0) {
    return Error::Ok;
  }
  TRI_CHECK(!plan.all_dims, Error::InvalidArgument,
            "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify "
            "the reduction dim with the 'dim' argument.", op);
  for (int32_t r = 0; r < plan.n_red; ++r) {
    TRI_CHECK(plan.red_sizes[r] != 0, Error::InvalidArgument,
              "%s(): Expected reduction dim %d to have non-zero size.", op,
              static_cast<int>(plan.red_dim[r]));
  }
  return Error::Ok;
}

Error read_dims_dtype_args(KernelArgs& args, bool has_dims, uint32_t out_types,
                           const char* floating_op, DimsDtypeArgs* a) {
  const size_t dtype_at = has_dims ? 3 : 1;
  TRI_ASSIGN_OR_RETURN(a->self, args.tensor(0));
  bool keepdim = false;
  if (has_dims) {
    TRI_ASSIGN_OR_RETURN(keepdim, args.bool_value(2));
  }
  TRI_ASSIGN_OR_RETURN(a->dtype, args.optional_scalar_type(dtype_at));
  TRI_ASSIGN_OR_RETURN(a->out, args.tensor(dtype_at + 1));
  if (floating_op != nullptr) {
    const ScalarType want = a->dtype.has_value ? a->dtype.value : a->self->scalar_type();
    TRI_CHECK(is_floating_type(want), Error::InvalidType,
              "%s(): could not infer output dtype; input dtype must be floating point, got %s",
              floating_op, scalar_type_name(want));
  }
  TRI_TRY(check_dtype(a->self->scalar_type(), kRealHBBoolTypes, "self"));
  TRI_TRY(check_dtype(a->out->scalar_type(), out_types, "out"));
  if (a->dtype.has_value) {
    TRI_TRY(check_same_dtype(*a->out, a->dtype.value, "out (must match dtype)"));
  }
  if (has_dims) {
    TRI_ASSIGN_OR_RETURN(const EValue* const dims, args.slot(1));
    TRI_TRY(plan_over_dims(*a->self, *dims, keepdim, &a->plan));
  } else {
    TRI_TRY(plan_over_dim(*a->self, Optional<int64_t>{}, false, &a->plan));
  }
  return resize_out(*a->out, Span<const int64_t>(a->plan.out_sizes, a->plan.out_dim));
}

bool column_mode_applies(const ReducePlan& p, const TensorView& out) {
  if (p.n_kept == 0 || p.n_red == 0) return false;
  const int32_t last = p.n_kept - 1;
  return p.kept_sizes[last] >= 4 &&
         p.kept_strides[last] == static_cast<int64_t>(p.in.element_size()) &&
         out.strides[p.kept_out_dim[last]] == 1;
}

}  // namespace tri
