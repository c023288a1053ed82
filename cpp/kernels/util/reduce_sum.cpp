#include "cpp/kernels/util/reduce_sum.h"

#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/reduce_simd.h"

namespace tri {
namespace {

constexpr int64_t kChunk = 256;

// One run of n elements of S, added in order (the typed path for the dtypes
// models sum: Float into double, Long into int64).
template <typename Acc, typename S>
Acc sum_typed(const char* p, int64_t n, int64_t stride, Acc acc) {
  if (stride == static_cast<int64_t>(sizeof(S))) {
    const S* s = reinterpret_cast<const S*>(p);
    if constexpr (std::is_same<S, float>::value) {
      return acc + sum_f32(s, n);
    }
    for (int64_t i = 0; i < n; ++i) acc = arith_add(acc, static_cast<Acc>(s[i]));
    return acc;
  }
  for (int64_t i = 0; i < n; ++i) {
    acc = arith_add(acc, static_cast<Acc>(*reinterpret_cast<const S*>(p + i * stride)));
  }
  return acc;
}

// Any dtype: converted to Acc a chunk at a time, then added in order.
template <typename Acc>
Acc sum_converted(ScalarType type, const char* p, int64_t n, int64_t stride, Acc acc) {
  Acc buf[kChunk];
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t m = n - i < kChunk ? n - i : kChunk;
    load_row<Acc>(type, p + i * stride, stride, m, buf);
    for (int64_t j = 0; j < m; ++j) acc = arith_add(acc, buf[j]);
  }
  return acc;
}

// Float self, reduced over outer dims: blocks of out elements accumulate
// whole contiguous input rows.
void reduce_columns_f32(const ReducePlan& plan, const TensorView& out, double divisor) {
  const int64_t oes = static_cast<int64_t>(out.element_size());
  for_each_column_block(plan, out, kChunk, [&](char* o, const char* in, int64_t m) {
    double acc[kChunk];
    for (int64_t j = 0; j < m; ++j) acc[j] = 0;
    walk_reduced(plan, in, [&](const char* p, int64_t n, int64_t stride) {
      for (int64_t i = 0; i < n; ++i) {
        add_f32_rows(acc, reinterpret_cast<const float*>(p + i * stride), m);
      }
    });
    if (divisor != 1.0) {
      for (int64_t j = 0; j < m; ++j) acc[j] /= divisor;
    }
    store_row<double>(out.type, acc, o, oes, m);
  });
}

// Acc is double or int64_t (wrapping).
template <typename Acc>
void reduce_with(const ReducePlan& plan, const TensorView& out, double divisor) {
  const ScalarType in_type = plan.in.type;
  using Typed = typename std::conditional<std::is_same<Acc, double>::value, float, int64_t>::type;
  const bool typed = in_type == dtype_of<Typed>();
  if constexpr (std::is_same<Acc, double>::value) {
    if (typed && column_mode_applies(plan, out)) {
      reduce_columns_f32(plan, out, divisor);
      return;
    }
  }
  for_each_reduction_parallel(plan, out, [&](char* o, const char* in) {
    Acc acc = Acc(0);
    walk_reduced(plan, in, [&](const char* p, int64_t n, int64_t stride) {
      acc = typed ? sum_typed<Acc, Typed>(p, n, stride, acc)
                  : sum_converted<Acc>(in_type, p, n, stride, acc);
    });
    if constexpr (std::is_floating_point<Acc>::value) {
      acc = divisor == 1.0 ? acc : acc / divisor;
    }
    store_one<Acc>(out.type, acc, o);
  });
}

}  // namespace

void reduce_sum(const ReducePlan& plan, const TensorView& out, double divisor) {
  if (is_floating_type(out.type)) {
    reduce_with<double>(plan, out, divisor);
  } else {
    reduce_with<int64_t>(plan, out, divisor);
  }
}

}  // namespace tri
