#include "cpp/kernels/util/matmul.h"

#include <cinttypes>
#include <cstdint>

#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/gemm.h"
#include "cpp/kernels/util/gemm_f32.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/scratch_size.h"
#include "cpp/kernels/util/simd.h"

namespace tri {
namespace {

// The compute type's arithmetic: integers wrap (int64 via uint64).
template <typename C>
using GemmType = typename std::conditional<std::is_same<C, int64_t>::value, uint64_t, C>::type;

// Any dtypes and strides, no scratch memory: c = a @ b in C, 256 columns of a
// row of c at a time, converting each row slice of b as it is used. The
// fallback when temp memory is missing (or too small).
template <typename C>
void gemm_converting(int64_t m, int64_t n, int64_t k, const AnyMat& a, const AnyMat& b,
                     const AnyMat& c) {
  using G = GemmType<C>;
  constexpr int64_t kCols = 256;
  G acc[kCols];
  C brow[kCols];
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j0 = 0; j0 < n; j0 += kCols) {
      const int64_t nc = n - j0 < kCols ? n - j0 : kCols;
      for (int64_t j = 0; j < nc; ++j) acc[j] = G(0);
      for (int64_t p = 0; p < k; ++p) {
        const G av = static_cast<G>(load_one<C>(a.type, a.data + i * a.rs + p * a.cs));
        load_row<C>(b.type, b.data + p * b.rs + j0 * b.cs, b.cs, nc, brow);
        for (int64_t j = 0; j < nc; ++j) acc[j] += av * static_cast<G>(brow[j]);
      }
      for (int64_t j = 0; j < nc; ++j) brow[j] = static_cast<C>(acc[j]);
      store_row<C>(c.type, brow, c.data + i * c.rs + j0 * c.cs, c.cs, nc);
    }
  }
}

// b [k, n] as a row-major copy in temp (a linear layer's [n, k] weight read
// as b = weight^T), or b itself when it is row-major already or temp is
// short.
template <typename G>
MatView<G> row_major_in_temp(KernelContext& ctx, int64_t k, int64_t n, MatView<G> b) {
  if (b.cs == 1 || ctx.temp == nullptr || k <= 0) return b;
  G* packed = ctx.temp->allocate_array<G>(static_cast<size_t>(k * n));
  if (packed == nullptr) return b;
  for (int64_t p = 0; p < k; ++p) {
    for (int64_t j = 0; j < n; ++j) packed[p * n + j] = b.data[p * b.rs + j * b.cs];
  }
  return MatView<G>{packed, n, 1};
}

// a, b and c hold C already (Float, Double, Long); byte strides are
// multiples of sizeof(C).
template <typename C>
void run_native(KernelContext& ctx, int64_t m, int64_t n, int64_t k, const AnyMat& a,
                const AnyMat& b, const AnyMat& c) {
  using G = GemmType<C>;
  constexpr int64_t es = sizeof(C);
  if (!(c.cs == es || n == 1)) {
    if (!(c.rs == es || m == 1)) {
      // Neither row- nor column-major (a batch slice in an odd dim order).
      gemm_converting<C>(m, n, k, a, b, c);
      return;
    }
    // Column-major out: compute C^T = B^T A^T into it.
    run_native<C>(ctx, n, m, k, AnyMat{b.data, b.type, b.cs, b.rs},
                  AnyMat{a.data, a.type, a.cs, a.rs}, AnyMat{c.data, c.type, c.cs, c.rs});
    return;
  }
  MatView<G> av{reinterpret_cast<const G*>(a.data), a.rs / es, a.cs / es};
  MatView<G> bv{reinterpret_cast<const G*>(b.data), b.rs / es, b.cs / es};
  if (n == 1) {
    bv.cs = 1;
  }
  bv = row_major_in_temp(ctx, k, n, bv);
  if (bv.cs != 1) {
    gemm_converting<C>(m, n, k, a, b, c);
    return;
  }
  gemm_blocked<G>(m, n, k, av, bv, reinterpret_cast<G*>(c.data), c.rs / es);
}

// Other dtypes (Half, BFloat16, the narrower integers): convert a and b to C
// in temp memory, multiply there, convert the product into c.
template <typename C>
void run_converted(KernelContext& ctx, int64_t m, int64_t n, int64_t k, const AnyMat& a,
                   const AnyMat& b, const AnyMat& c) {
  using G = GemmType<C>;
  C* ac = nullptr;
  C* bc = nullptr;
  C* cc = nullptr;
  if (ctx.temp != nullptr && m > 0 && n > 0) {
    ac = ctx.temp->allocate_array<C>(static_cast<size_t>(m * k));
    bc = ctx.temp->allocate_array<C>(static_cast<size_t>(k * n));
    cc = ctx.temp->allocate_array<C>(static_cast<size_t>(m * n));
  }
  if (ac == nullptr || bc == nullptr || cc == nullptr) {
    gemm_converting<C>(m, n, k, a, b, c);
    return;
  }
  for (int64_t i = 0; i < m; ++i) load_row<C>(a.type, a.data + i * a.rs, a.cs, k, ac + i * k);
  for (int64_t p = 0; p < k; ++p) load_row<C>(b.type, b.data + p * b.rs, b.cs, n, bc + p * n);
  gemm_blocked<G>(m, n, k, MatView<G>{reinterpret_cast<const G*>(ac), k, 1},
                  MatView<G>{reinterpret_cast<const G*>(bc), n, 1}, reinterpret_cast<G*>(cc), n);
  for (int64_t i = 0; i < m; ++i) store_row<C>(c.type, cc + i * n, c.data + i * c.rs, c.cs, n);
}

}  // namespace

AnyMat any_mat(const Tensor& t, int32_t d0, int32_t d1) {
  const int64_t es = static_cast<int64_t>(t.element_size());
  return AnyMat{static_cast<char*>(t.mutable_data()), t.scalar_type(), t.strides()[d0] * es,
                t.strides()[d1] * es};
}

size_t matmul_scratch(ScalarType type, int64_t m, int64_t n, int64_t k) {
  // Beyond int32 sizes (only hostile arguments) the kernel's scratch-free
  // fallback runs, if it gets that far; nothing to declare.
  constexpr int64_t kMaxDim = INT32_MAX;
  if (m <= 0 || n <= 0 || k <= 0 || m > kMaxDim || n > kMaxDim || k > kMaxDim) return 0;
  const bool wide = type == ScalarType::Float || type == ScalarType::Double || type == ScalarType::Long;
  if (wide) {
    // run_native packs one operand: b, or a when it swaps for a column-major out.
    const int64_t packed = k * (m > n ? m : n);
    return type == ScalarType::Float ? ScratchSize().add<float>(packed).bytes()
                                     : ScratchSize().add<double>(packed).bytes();
  }
  ScratchSize s;
  if (compute_kind(type) == ComputeKind::Int) {
    s.add<int64_t>(m * k).add<int64_t>(k * n).add<int64_t>(m * n);
  } else {
    s.add<float>(m * k).add<float>(k * n).add<float>(m * n);
  }
  return s.bytes();
}

size_t carved_matmul_scratch(ScalarType type, int64_t m, int64_t n, int64_t k) {
  const size_t inner = matmul_scratch(type, m, n, k);
  // carve_rest keeps two alignments back, and its own block may be padded.
  return inner == 0 ? 0 : inner + 3 * kDefaultAlignment;
}

MemoryAllocator carve_rest(MemoryAllocator* temp) {
  if (temp == nullptr || temp->capacity() <= temp->used() + 2 * kDefaultAlignment) {
    return MemoryAllocator();
  }
  const size_t size = temp->capacity() - temp->used() - 2 * kDefaultAlignment;
  void* base = temp->allocate(size);
  return base == nullptr ? MemoryAllocator() : MemoryAllocator(base, size);
}

Error check_matmul(const Tensor& a, const Tensor& b, Tensor& out) {
  TRI_CHECK(a.dim() == 2, Error::InvalidArgument, "mat1 must be a matrix, got rank %d", a.dim());
  TRI_CHECK(b.dim() == 2, Error::InvalidArgument, "mat2 must be a matrix, got rank %d", b.dim());
  TRI_CHECK(a.size(1) == b.size(0), Error::InvalidArgument,
            "mat1 and mat2 shapes cannot be multiplied (%" PRId32 "x%" PRId32 " and %" PRId32
            "x%" PRId32 ")",
            a.size(0), a.size(1), b.size(0), b.size(1));
  TRI_TRY(check_dtype(a.scalar_type(), kRealHBTypes, "mat1"));
  TRI_CHECK(a.scalar_type() == b.scalar_type(), Error::InvalidType,
            "expected mat1 and mat2 to have the same dtype, but got %s != %s",
            scalar_type_name(a.scalar_type()), scalar_type_name(b.scalar_type()));
  TRI_TRY(check_same_dtype(out, a.scalar_type(), "out"));
  const SizesType shape[] = {a.size(0), b.size(1)};
  return resize_out(out, shape);
}

void matmul_into(KernelContext& context, const Tensor& a, const Tensor& b, Tensor& out) {
  matmul_any(context, a.size(0), b.size(1), a.size(1), any_mat(a), any_mat(b), any_mat(out));
}

void matmul_add_row_into(KernelContext& context, const Tensor& a, const Tensor& b,
                         const float* row, Tensor& out) {
  matmul_add_row_f32(context, a.size(0), b.size(1), a.size(1), any_mat(a), any_mat(b),
                     any_mat(out), row);
}

void matmul_add_row_f32(KernelContext& context, int64_t m, int64_t n, int64_t k, const AnyMat& a,
                        const AnyMat& b, const AnyMat& c, const float* row) {
  constexpr int64_t es = sizeof(float);
  if (simd_enabled() && (c.cs == es || n == 1)) {
    // The packed gemm reads b row- or column-major (a linear layer's
    // weight, transposed) as it packs its panels; other strides are copied
    // row-major first.
    MatView<float> bv{reinterpret_cast<const float*>(b.data), b.rs / es, n == 1 ? 1 : b.cs / es};
    if (bv.cs != 1 && bv.rs != 1) bv = row_major_in_temp(context, k, n, bv);
    if (bv.cs == 1 || bv.rs == 1) {
      gemm_f32_packed(m, n, k,
                      MatView<float>{reinterpret_cast<const float*>(a.data), a.rs / es, a.cs / es},
                      bv, reinterpret_cast<float*>(c.data), c.rs / es, nullptr, row);
      return;
    }
  }
  run_native<float>(context, m, n, k, a, b, c);
  if (row == nullptr) return;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float* x = reinterpret_cast<float*>(c.data + i * c.rs + j * c.cs);
      *x = *x + row[j];
    }
  }
}

const float* f32_bias_row(const Tensor& bias, int64_t n) {
  if (bias.scalar_type() != ScalarType::Float || static_cast<int64_t>(bias.numel()) != n ||
      bias.dim() < 1 || bias.size(bias.dim() - 1) != n ||
      (n > 1 && bias.strides()[bias.dim() - 1] != 1)) {
    return nullptr;
  }
  return static_cast<const float*>(bias.data());
}

void matmul_any(KernelContext& context, int64_t m, int64_t n, int64_t k, const AnyMat& av,
                const AnyMat& bv, const AnyMat& cv) {
  switch (cv.type) {
    case ScalarType::Float: return matmul_add_row_f32(context, m, n, k, av, bv, cv, nullptr);
    case ScalarType::Double: return run_native<double>(context, m, n, k, av, bv, cv);
    case ScalarType::Long: return run_native<int64_t>(context, m, n, k, av, bv, cv);
    default:
      if (compute_kind(cv.type) == ComputeKind::Int) {
        return run_converted<int64_t>(context, m, n, k, av, bv, cv);
      }
      return run_converted<float>(context, m, n, k, av, bv, cv);
  }
}

}  // namespace tri
