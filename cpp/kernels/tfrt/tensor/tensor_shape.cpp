#include "cpp/kernels/tfrt/tensor/tensor_shape.h"

#include <cstring>
#include <new>

namespace tri::tfrt_kernels {
namespace {

// One block: the object, then `rank` int64 dims.
void* allocate_with_dims(async::HostContext& host, size_t object_size, uint32_t rank) {
  static_assert(sizeof(TensorShape) % alignof(int64_t) == 0, "dims follow the object");
  static_assert(sizeof(PartialTensorShape) % alignof(int64_t) == 0, "dims follow the object");
  void* memory = host.allocate(object_size + sizeof(int64_t) * size_t{rank});
  if (memory == nullptr) fail(Error::MemoryAllocationFailed, "out of memory building a shape");
  return memory;
}

int64_t dim_at(const void* dims, uint32_t i) {
  int64_t d;
  std::memcpy(&d, static_cast<const uint8_t*>(dims) + sizeof(int64_t) * size_t{i}, sizeof(d));
  return d;
}

}  // namespace

TensorShape* TensorShape::make(async::HostContext& host, const void* dims, uint32_t rank) {
  for (uint32_t i = 0; i < rank; ++i) {
    if (dim_at(dims, i) < 0) {
      fail(Error::InvalidArgument, "dimension %u of a shape is %lld; dimensions must be >= 0", i,
           static_cast<long long>(dim_at(dims, i)));
      return nullptr;
    }
  }
  void* memory = allocate_with_dims(host, sizeof(TensorShape), rank);
  if (memory == nullptr) return nullptr;
  TensorShape* shape = new (memory) TensorShape(rank);
  if (rank != 0) std::memcpy(shape->mutable_dims(), dims, sizeof(int64_t) * size_t{rank});
  return shape;
}

bool TensorShape::num_elements(int64_t* out) const {
  int64_t n = 1;
  for (uint32_t i = 0; i < rank_; ++i) {
    if (__builtin_mul_overflow(n, dims()[i], &n)) return false;
  }
  *out = n;
  return true;
}

bool TensorShape::equals(const TensorShape& other) const {
  return rank_ == other.rank_ &&
         (rank_ == 0 || std::memcmp(dims(), other.dims(), sizeof(int64_t) * size_t{rank_}) == 0);
}

PartialTensorShape* PartialTensorShape::make(async::HostContext& host, const void* dims,
                                             uint32_t rank) {
  for (uint32_t i = 0; i < rank; ++i) {
    if (dim_at(dims, i) < kUnknownDim) {
      fail(Error::InvalidArgument,
           "dimension %u of a partial shape is %lld; dimensions must be -1 (unknown) or >= 0", i,
           static_cast<long long>(dim_at(dims, i)));
      return nullptr;
    }
  }
  void* memory = allocate_with_dims(host, sizeof(PartialTensorShape), rank);
  if (memory == nullptr) return nullptr;
  PartialTensorShape* shape = new (memory) PartialTensorShape(true, rank);
  if (rank != 0) std::memcpy(shape->mutable_dims(), dims, sizeof(int64_t) * size_t{rank});
  return shape;
}

PartialTensorShape* PartialTensorShape::make_unranked(async::HostContext& host) {
  void* memory = allocate_with_dims(host, sizeof(PartialTensorShape), 0);
  return memory == nullptr ? nullptr : new (memory) PartialTensorShape(false, 0);
}

FixedRankShape::FixedRankShape(const int64_t* dims, uint32_t rank)
    : Object(kTypeId), rank_(rank), dims_{} {
  for (uint32_t i = 0; i < rank && i < kMaxRank; ++i) dims_[i] = dims[i];
}

}  // namespace tri::tfrt_kernels
