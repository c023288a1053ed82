// aten::scatter_add.out and aten::scatter_reduce.two_out: out = copy of
// self, then out[p with p[dim] = index[p]] combined with src[p] by sum,
// prod, mean, amax or amin. Without include_self, scattered-to elements
// start from the reduction's identity instead of self. mean divides by the
// number of values combined (floor division for integral dtypes); that count
// needs temp memory. Elements are read and written one at a time in the
// compute type, so half-precision and integer results round or wrap per
// step, as ATen's in-place loops do; amax/amin propagate NaN.
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <limits>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/scratch_size.h"
#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/floor_div.h"
#include "cpp/kernels/util/index_walk.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

enum class Reduce { Sum, Prod, Mean, Amax, Amin };

bool parse_reduce(Span<const char> s, Reduce* r) {
  struct Name { const char* text; Reduce r; };
  static const Name kNames[] = {{"sum", Reduce::Sum}, {"prod", Reduce::Prod},
                                {"mean", Reduce::Mean}, {"amax", Reduce::Amax},
                                {"amin", Reduce::Amin}};
  for (const Name& n : kNames) {
    if (std::strlen(n.text) == s.size() && std::memcmp(n.text, s.data(), s.size()) == 0) {
      *r = n.r;
      return true;
    }
  }
  return false;
}

// The range of an integral (or Bool) dtype, for amax/amin's identity.
void int_range(ScalarType t, int64_t* lo, int64_t* hi) {
  switch (t) {
    case ScalarType::Bool: *lo = 0; *hi = 1; break;
    case ScalarType::Byte: *lo = 0; *hi = 255; break;
    case ScalarType::Char: *lo = -128; *hi = 127; break;
    case ScalarType::Short: *lo = -32768; *hi = 32767; break;
    case ScalarType::Int: *lo = INT32_MIN; *hi = INT32_MAX; break;
    default: *lo = INT64_MIN; *hi = INT64_MAX; break;
  }
}

template <typename C>
C identity(Reduce r, ScalarType type) {
  if (r == Reduce::Prod) return C(1);
  if (r != Reduce::Amax && r != Reduce::Amin) return C(0);
  if constexpr (std::is_integral<C>::value) {
    int64_t lo = 0;
    int64_t hi = 0;
    int_range(type, &lo, &hi);
    return r == Reduce::Amax ? lo : hi;
  } else {
    return r == Reduce::Amax ? -std::numeric_limits<C>::infinity()
                             : std::numeric_limits<C>::infinity();
  }
}

template <typename C>
C floor_or_true_div(C a, C b) {
  if constexpr (std::is_integral<C>::value) {
    return floor_div(a, b);
  } else {
    return a / b;
  }
}

template <typename C>
C combine(Reduce r, C a, C b) {
  switch (r) {
    case Reduce::Prod: return arith_mul(a, b);
    case Reduce::Amax:
      if constexpr (!std::is_integral<C>::value) {
        if (std::isnan(a) || std::isnan(b)) return std::isnan(a) ? a : b;
      }
      return a < b ? b : a;
    case Reduce::Amin:
      if constexpr (!std::is_integral<C>::value) {
        if (std::isnan(a) || std::isnan(b)) return std::isnan(a) ? a : b;
      }
      return b < a ? b : a;
    default: return arith_add(a, b);
  }
}

template <typename C>
void run(const GatherScatterViews& v, const TensorView& o, Reduce r, bool include_self,
         int64_t* count) {
  const ScalarType type = o.type;
  const int64_t es = static_cast<int64_t>(o.element_size());
  char* dst = static_cast<char*>(o.data);
  const char* src = static_cast<const char*>(v.src.data);
  const int64_t dim_stride = o.strides[v.dim];
  const TensorView* views[] = {&v.src, &o};
  // Out offsets are the element offsets of out, which is dense: they index
  // `count` directly.
  if (!include_self) {
    const C init = identity<C>(r, type);
    for_each_index(v.index, v.dim, views, 2, 0x2u, [&](int64_t i, const int64_t* off) {
      store_one<C>(type, init, dst + (off[1] + i * dim_stride) * es);
    });
  }
  for_each_index(v.index, v.dim, views, 2, 0x2u, [&](int64_t i, const int64_t* off) {
    const int64_t at = off[1] + i * dim_stride;
    char* d = dst + at * es;
    C value = combine<C>(r, load_one<C>(type, d), load_one<C>(type, src + off[0] * es));
    if constexpr (std::is_integral<C>::value) wrap_to_dtype(type, &value, 1);
    store_one<C>(type, value, d);
    if (count != nullptr) ++count[at];
  });
  if (count == nullptr) return;
  const int64_t n = o.numel();
  for (int64_t k = 0; k < n; ++k) {
    const int64_t c = count[k] + (include_self ? 1 : 0);
    if (count[k] == 0 || c == 1) continue;
    char* d = dst + k * es;
    store_one<C>(type, floor_or_true_div(load_one<C>(type, d), static_cast<C>(c)), d);
  }
}

Error scatter_reduce_impl(KernelContext& ctx, KernelArgs& args, Reduce r, bool include_self,
                          size_t out_index) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(Tensor* index, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(Tensor* src, args.tensor(3));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(out_index));
  GatherScatterViews v;
  TRI_TRY(check_gather_scatter(*self, dim, *index, src, &v));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBBoolTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_TRY(resize_out(*out, self->sizes()));
  int64_t* count = nullptr;
  if (r == Reduce::Mean && index->numel() > 0) {
    TRI_CHECK(ctx.temp != nullptr, Error::MemoryAllocationFailed,
              "scatter_reduce: reduce='mean' needs temp memory for its counts");
    count = ctx.temp->allocate_array<int64_t>(out->numel());
    TRI_CHECK(count != nullptr, Error::MemoryAllocationFailed,
              "scatter_reduce: temp memory too small for %zu counts", out->numel());
    std::memset(count, 0, out->numel() * sizeof(int64_t));
  }
  TRI_TRY(copy_into(TensorView::of(*self), *out));
  const TensorView o = at_least_1d(TensorView::of(*out));
  switch (compute_kind(self->scalar_type())) {
    case ComputeKind::Int: run<int64_t>(v, o, r, include_self, count); break;
    case ComputeKind::Float: run<float>(v, o, r, include_self, count); break;
    default: run<double>(v, o, r, include_self, count); break;
  }
  return Error::Ok;
}

}  // namespace

Error scatter_add_out(KernelContext& ctx, KernelArgs& args) {
  return scatter_reduce_impl(ctx, args, Reduce::Sum, true, 4);
}

Error scatter_reduce_two_out(KernelContext& ctx, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const Span<const char> name, args.string(4));
  TRI_ASSIGN_OR_RETURN(const bool include_self, args.bool_value(5));
  Reduce r = Reduce::Sum;
  TRI_CHECK(parse_reduce(name, &r), Error::InvalidArgument,
            "reduce argument must be either sum, prod, mean, amax or amin, got %.*s",
            static_cast<int>(name.size() < 32 ? name.size() : 32), name.data());
  return scatter_reduce_impl(ctx, args, r, include_self, 6);
}

// reduce='mean' counts per out element (out has self's sizes).
size_t scatter_reduce_scratch(KernelArgs& args) {
  Result<Span<const char>> name = args.string(4);
  Result<Tensor*> self = args.tensor(0);
  Reduce r = Reduce::Sum;
  if (!name.ok() || !self.ok() || !parse_reduce(*name, &r) || r != Reduce::Mean) return 0;
  return ScratchSize().add<int64_t>(static_cast<int64_t>((*self)->numel())).bytes();
}

}  // namespace kernels
}  // namespace tri
