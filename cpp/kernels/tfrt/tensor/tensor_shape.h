// TFRT's shape values: TensorShape (`!ts.shape`, known dims), PartialTensorShape
// (`!ts.partial_shape`, dims may be -1 or the rank unknown) and FixedRankShape
// (`!ts.fixed_rank_shape.N`). Dims are int64 as in TFRT, so a shape can say
// more than a tensor can hold; each object is one heap block with its dims.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/kernels/tfrt/tensor/text_out.h"
#include "cpp/runtime/async/async_value.h"
#include "cpp/runtime/async/object_types.h"

namespace tri::tfrt_kernels {

class TensorShape final : public async::Object {
 public:
  static constexpr uint16_t kTypeId = async::kTensorShapeObject;

  // A shape of `rank` int64 dims copied from `dims` (any alignment: they may
  // come straight from an attribute); nullptr (and a message in
  // last_error_message()) when a dim is negative or the heap is full.
  static TensorShape* make(async::HostContext& host, const void* dims, uint32_t rank);

  uint32_t rank() const { return rank_; }
  const int64_t* dims() const { return reinterpret_cast<const int64_t*>(this + 1); }
  // The product of the dims; false when it overflows int64.
  bool num_elements(int64_t* out) const;
  bool equals(const TensorShape& other) const;

 private:
  explicit TensorShape(uint32_t rank) : Object(kTypeId), rank_(rank) {}
  int64_t* mutable_dims() { return reinterpret_cast<int64_t*>(this + 1); }

  uint32_t rank_;
};

class PartialTensorShape final : public async::Object {
 public:
  static constexpr uint16_t kTypeId = async::kPartialTensorShapeObject;
  static constexpr int64_t kUnknownDim = -1;

  // dims of -1 are unknown; other negative dims are refused (nullptr and a
  // message, as for heap exhaustion).
  static PartialTensorShape* make(async::HostContext& host, const void* dims, uint32_t rank);
  static PartialTensorShape* make_unranked(async::HostContext& host);

  bool ranked() const { return ranked_; }
  uint32_t rank() const { return rank_; }
  const int64_t* dims() const { return reinterpret_cast<const int64_t*>(this + 1); }

 private:
  PartialTensorShape(bool ranked, uint32_t rank) : Object(kTypeId), ranked_(ranked), rank_(rank) {}
  int64_t* mutable_dims() { return reinterpret_cast<int64_t*>(this + 1); }

  bool ranked_;
  uint32_t rank_;
};

class FixedRankShape final : public async::Object {
 public:
  static constexpr uint16_t kTypeId = async::kFixedRankShapeObject;
  static constexpr uint32_t kMaxRank = 4;

  FixedRankShape(const int64_t* dims, uint32_t rank);
  uint32_t rank() const { return rank_; }
  const int64_t* dims() const { return dims_; }

 private:
  uint32_t rank_;
  int64_t dims_[kMaxRank];
};

// "[1, 57, 92]", "[]": how TFRT prints shapes, FixedRankShapes and the shape
// part of tensors and messages.
template <typename Int>
void write_dims(TextOut& out, const Int* dims, size_t rank) {
  out.write("[");
  for (size_t i = 0; i < rank; ++i) {
    out.format(i == 0 ? "%lld" : ", %lld", static_cast<long long>(dims[i]));
  }
  out.write("]");
}

}  // namespace tri::tfrt_kernels
