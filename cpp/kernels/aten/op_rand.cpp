// aten::rand.out (uniform in [0, 1)), aten::randn.out (standard normal),
// aten::randperm.out (a random permutation of 0..n-1). Values come from
// util/random_state.h, not from PyTorch's generator.
#include <cinttypes>
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/random_state.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/shape_size.h"

namespace tri {
namespace kernels {
namespace {

// Significant bits of a floating dtype: uniforms drawn with this many bits
// are exact in it, so rand never rounds up to 1.
int mantissa_bits(ScalarType t) {
  switch (t) {
    case ScalarType::Half: return 11;
    case ScalarType::BFloat16: return 8;
    case ScalarType::Float: return 24;
    default: return 53;
  }
}

Error random_out(KernelArgs& args, bool normal) {
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> size, args.int_list(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(1));
  TRI_TRY(check_dtype(out->scalar_type(), kFloatHBTypes, "out"));
  TRI_TRY(resize_to_size_arg(size, *out));
  // Dense whatever its dim order: numel consecutive elements.
  const int64_t n = static_cast<int64_t>(out->numel());
  const int bits = mantissa_bits(out->scalar_type());
  const int64_t es = static_cast<int64_t>(out->element_size());
  constexpr int64_t kChunk = 256;
  double buf[kChunk];
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t m = n - i < kChunk ? n - i : kChunk;
    for (int64_t k = 0; k < m; ++k) buf[k] = normal ? random_normal() : random_unit(bits);
    store_row<double>(out->scalar_type(), buf, static_cast<char*>(out->mutable_data()) + i * es,
                      es, m);
  }
  return Error::Ok;
}

// The largest n a dtype can hold 0..n-1 of exactly.
int64_t max_randperm(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return 256;
    case ScalarType::Char: return 128;
    case ScalarType::Short: return 32768;
    case ScalarType::Int: return int64_t{1} << 31;
    case ScalarType::Half: return 2049;
    case ScalarType::BFloat16: return 257;
    case ScalarType::Float: return (int64_t{1} << 24) + 1;
    default: return INT64_MAX;
  }
}

template <size_t kSize>
void shuffle(char* data, int64_t n) {
  for (int64_t i = n - 1; i > 0; --i) {
    const int64_t j = static_cast<int64_t>(random_u64() % static_cast<uint64_t>(i + 1));
    char tmp[kSize];
    std::memcpy(tmp, data + i * kSize, kSize);
    std::memcpy(data + i * kSize, data + j * kSize, kSize);
    std::memcpy(data + j * kSize, tmp, kSize);
  }
}

}  // namespace

Error rand_out(KernelContext&, KernelArgs& args) { return random_out(args, false); }
Error randn_out(KernelContext&, KernelArgs& args) { return random_out(args, true); }

Error randperm_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const int64_t n, args.int_value(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(1));
  TRI_TRY(check_dtype(out->scalar_type(), kRealHBTypes, "out"));
  TRI_CHECK(n >= 0, Error::InvalidArgument, "n must be non-negative, got %" PRId64, n);
  TRI_CHECK(n <= max_randperm(out->scalar_type()), Error::InvalidArgument,
            "n cannot be greater than %" PRId64 " for %s type", max_randperm(out->scalar_type()),
            scalar_type_name(out->scalar_type()));
  const int64_t shape[] = {n};
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, 1)));
  const int64_t es = static_cast<int64_t>(out->element_size());
  char* data = static_cast<char*>(out->mutable_data());
  constexpr int64_t kChunk = 256;
  int64_t buf[kChunk];
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t m = n - i < kChunk ? n - i : kChunk;
    for (int64_t k = 0; k < m; ++k) buf[k] = i + k;
    store_row<int64_t>(out->scalar_type(), buf, data + i * es, es, m);
  }
  switch (es) {
    case 1: shuffle<1>(data, n); break;
    case 2: shuffle<2>(data, n); break;
    case 4: shuffle<4>(data, n); break;
    default: shuffle<8>(data, n); break;
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
