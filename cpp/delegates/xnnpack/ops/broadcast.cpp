#include "cpp/delegates/xnnpack/ops/broadcast.h"

namespace tri::xnnpack {

Error broadcast_shape(const Value& a, const Value& b, int32_t* dims, int* rank) {
  const int r = a.rank() > b.rank() ? a.rank() : b.rank();
  for (int i = 0; i < r; ++i) {
    const int ai = a.rank() - r + i;
    const int bi = b.rank() - r + i;
    const int32_t da = ai >= 0 ? a.dim(ai) : 1;
    const int32_t db = bi >= 0 ? b.dim(bi) : 1;
    TRI_CHECK(da == db || da == 1 || db == 1, Error::InvalidArgument,
              "operands of shapes with dim %d = %d and %d do not broadcast", i, da, db);
    dims[i] = da == 1 ? db : da;
  }
  *rank = r;
  return Error::Ok;
}

BroadcastRows::BroadcastRows(const Value& a, const Value& b, const Value& out) {
  // Per output dim: its size and each operand's element stride (0 where the
  // operand broadcasts).
  const int r = out.rank();
  int64_t size[kMaxDims];
  int64_t sa[kMaxDims];
  int64_t sb[kMaxDims];
  int64_t ka = 1;
  int64_t kb = 1;
  for (int i = r - 1; i >= 0; --i) {
    const int ai = a.rank() - r + i;
    const int bi = b.rank() - r + i;
    const int64_t da = ai >= 0 ? a.dim(ai) : 1;
    const int64_t db = bi >= 0 ? b.dim(bi) : 1;
    size[i] = out.dim(i);
    sa[i] = da == 1 ? 0 : ka;
    sb[i] = db == 1 ? 0 : kb;
    ka *= da;
    kb *= db;
  }
  // Merge dim i into the (already merged) dims after it when both operands
  // continue linearly across the boundary; size-1 dims always merge.
  for (int i = r - 1; i >= 0; --i) {
    if (size[i] == 1) continue;
    if (rank_ > 0) {
      const int j = rank_ - 1;
      const bool a_ok = sa[i] == a_stride_[j] * size_[j];
      const bool b_ok = sb[i] == b_stride_[j] * size_[j];
      if (a_ok && b_ok) {
        size_[j] *= size[i];
        continue;
      }
    }
    size_[rank_] = size[i];
    a_stride_[rank_] = sa[i];
    b_stride_[rank_] = sb[i];
    ++rank_;
  }
  // Dims were collected innermost first; rank_ 0 is the row.
  if (rank_ == 0) {
    size_[0] = 1;
    a_stride_[0] = 1;
    b_stride_[0] = 1;
    rank_ = 1;
  }
  row_ = static_cast<size_t>(size_[0]);
  sa_ = a_stride_[0] == 0 ? 0 : 1;
  sb_ = b_stride_[0] == 0 ? 0 : 1;
  rows_ = 1;
  for (int i = 1; i < rank_; ++i) rows_ *= static_cast<size_t>(size_[i]);
  if (out.numel() == 0) rows_ = 0;
}

void BroadcastRows::offsets(size_t r, size_t* a, size_t* b) const {
  size_t oa = 0;
  size_t ob = 0;
  for (int i = 1; i < rank_; ++i) {
    const size_t c = r % static_cast<size_t>(size_[i]);
    r /= static_cast<size_t>(size_[i]);
    oa += c * static_cast<size_t>(a_stride_[i]);
    ob += c * static_cast<size_t>(b_stride_[i]);
  }
  *a = oa;
  *b = ob;
}

}  // namespace tri::xnnpack
