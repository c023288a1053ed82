// aten::_embedding_bag.out: per bag (a run of `indices` starting at each
// offset) the sum, mean or max of the indexed weight rows, as ATen's CPU
// kernel computes them, with its four outs:
//   out0 [bags, D]: the reduced rows (an empty bag gives zeros);
//   out1 offset2bag: the bag of each index, or no elements where ATen's
//        "fast path" skips it (sum of Float/Half rows, no padding_idx);
//   out2 bag_size [bags]: the non-padding indices per bag (ATen leaves it
//        uninitialized in sum mode; here it is always the count);
//   out3 max_indices: the weight row each max came from, [bags, D] in max
//        mode; [bags] of zeros otherwise (ATen: uninitialized).
// Indices equal to padding_idx (when >= 0) are skipped. Max takes the
// first of equal values, as ATen's strict `>` does.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

enum Mode : int64_t { kSum = 0, kMean = 1, kMax = 2 };

// Element i of a 1-D tensor, converted to C.
template <typename C>
C element_at(const Tensor& t, int64_t i) {
  return load_one<C>(t.scalar_type(), static_cast<const char*>(t.mutable_data()) +
                                          i * t.strides()[0] * static_cast<int64_t>(t.element_size()));
}

int64_t index_at(const Tensor& t, int64_t i) { return element_at<int64_t>(t, i); }

// Stores v at [i] of a 1-D index out, or at [i, j] of a 2-D one (any dim
// order: out tensors keep theirs).
void store_index(Tensor& t, int64_t i, int64_t j, int64_t v) {
  const int64_t off = i * t.strides()[0] + (t.dim() == 2 ? j * t.strides()[1] : 0);
  store_one<int64_t>(t.scalar_type(), v,
                     static_cast<char*>(t.mutable_data()) + off * static_cast<int64_t>(t.element_size()));
}

struct Bags {
  const Tensor* weight;
  const Tensor* indices;
  const Tensor* offsets;
  const Tensor* psw;  // per_sample_weights, or null
  int64_t mode, padding_idx, num_bags;
};

int64_t bag_end(const Bags& b, int64_t bag) {
  return bag + 1 < static_cast<int64_t>(b.offsets->numel()) ? index_at(*b.offsets, bag + 1)
                                                            : static_cast<int64_t>(b.indices->numel());
}

// Reduces bag `bag` over dims [d0, d0 + m) into out (and max_indices).
void reduce_chunk(const Bags& b, int64_t bag, int64_t d0, int64_t m, Tensor& out, Tensor& max_idx,
                  int64_t count) {
  constexpr int64_t kChunk = 128;
  double acc[kChunk], row[kChunk];
  int64_t arg[kChunk] = {};
  const Tensor& w = *b.weight;
  const int64_t wes = static_cast<int64_t>(w.element_size());
  for (int64_t j = 0; j < m; ++j) acc[j] = 0.0;
  bool first = true;
  for (int64_t i = index_at(*b.offsets, bag); i < bag_end(b, bag); ++i) {
    const int64_t idx = index_at(*b.indices, i);
    if (idx == b.padding_idx) continue;
    load_row<double>(w.scalar_type(),
                     static_cast<const char*>(w.mutable_data()) +
                         (idx * w.strides()[0] + d0 * w.strides()[1]) * wes,
                     w.strides()[1] * wes, m, row);
    if (b.mode == kMax) {
      for (int64_t j = 0; j < m; ++j) {
        if (first || row[j] > acc[j]) {
          acc[j] = row[j];
          arg[j] = idx;
        }
      }
    } else {
      const double s = b.psw != nullptr ? element_at<double>(*b.psw, i) : 1.0;
      for (int64_t j = 0; j < m; ++j) acc[j] += row[j] * s;
    }
    first = false;
  }
  if (b.mode == kMean && count > 1) {
    for (int64_t j = 0; j < m; ++j) acc[j] /= static_cast<double>(count);
  }
  const int64_t oes = static_cast<int64_t>(out.element_size());
  store_row<double>(out.scalar_type(), acc,
                    static_cast<char*>(out.mutable_data()) +
                        (bag * out.strides()[0] + d0 * out.strides()[1]) * oes,
                    out.strides()[1] * oes, m);
  if (b.mode == kMax) {
    for (int64_t j = 0; j < m; ++j) store_index(max_idx, bag, d0 + j, arg[j]);
  }
}

Error check_bags(const Bags& b) {
  const int64_t n = static_cast<int64_t>(b.indices->numel());
  const int64_t rows = b.weight->size(0);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = index_at(*b.indices, i);
    TRI_CHECK(v >= 0 && v < rows, Error::InvalidArgument,
              "indices[%" PRId64 "] = %" PRId64 " is out of range for weight with %" PRId64 " rows",
              i, v, rows);
  }
  const int64_t no = static_cast<int64_t>(b.offsets->numel());
  TRI_CHECK(no >= 1, Error::InvalidArgument, "offsets must have at least one element");
  TRI_CHECK(index_at(*b.offsets, 0) == 0, Error::InvalidArgument,
            "offsets[0] has to be 0, got %" PRId64, index_at(*b.offsets, 0));
  for (int64_t k = 1; k < no; ++k) {
    const int64_t prev = index_at(*b.offsets, k - 1);
    const int64_t cur = index_at(*b.offsets, k);
    TRI_CHECK(cur >= prev && cur <= n, Error::InvalidArgument,
              "offsets[%" PRId64 "] = %" PRId64 " must lie in [offsets[%" PRId64 "] = %" PRId64
              ", %" PRId64 " (the number of indices)]",
              k, cur, k - 1, prev, n);
  }
  // ATen reads past its buffers when include_last_offset's last offset is
  // not the end of indices; here that is an error.
  TRI_CHECK(b.num_bags == no || index_at(*b.offsets, no - 1) == n, Error::InvalidArgument,
            "with include_last_offset the last offset must be the number of indices (%" PRId64
            "), got %" PRId64, n, index_at(*b.offsets, no - 1));
  return Error::Ok;
}

}  // namespace

Error embedding_bag_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* weight, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* indices, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* offsets, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(const bool scale_grad, args.bool_value(3));
  TRI_ASSIGN_OR_RETURN(const int64_t mode, args.int_value(4));
  TRI_ASSIGN_OR_RETURN(const bool sparse, args.bool_value(5));
  TRI_ASSIGN_OR_RETURN(Tensor* psw, args.optional_tensor(6));
  TRI_ASSIGN_OR_RETURN(const bool include_last, args.bool_value(7));
  TRI_ASSIGN_OR_RETURN(const int64_t padding_idx, args.int_value(8));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(9));
  TRI_ASSIGN_OR_RETURN(Tensor* offset2bag, args.tensor(10));
  TRI_ASSIGN_OR_RETURN(Tensor* bag_size, args.tensor(11));
  TRI_ASSIGN_OR_RETURN(Tensor* max_indices, args.tensor(12));
  (void)scale_grad;  // gradient-only options
  (void)sparse;
  TRI_CHECK(weight->dim() == 2, Error::InvalidArgument, "weight must be 2-D, got rank %d",
            weight->dim());
  TRI_TRY(check_dtype(weight->scalar_type(), kFloatHBTypes, "weight"));
  TRI_TRY(check_dtype(indices->scalar_type(), kIndexTypes, "indices"));
  TRI_TRY(check_dtype(offsets->scalar_type(), kIndexTypes, "offsets"));
  TRI_CHECK(indices->dim() == 1, Error::NotSupported, "indices must be 1-D, got rank %d",
            indices->dim());
  TRI_CHECK(offsets->dim() == 1, Error::InvalidArgument, "offsets must be 1-D, got rank %d",
            offsets->dim());
  TRI_CHECK(mode >= kSum && mode <= kMax, Error::InvalidArgument,
            "mode must be 0 (sum), 1 (mean) or 2 (max), got %" PRId64, mode);
  if (psw != nullptr) {
    TRI_CHECK(mode == kSum, Error::InvalidArgument,
              "per_sample_weights is only supported for mode sum, got mode %" PRId64, mode);
    TRI_TRY(check_same_dtype(*psw, weight->scalar_type(), "per_sample_weights"));
    TRI_CHECK(psw->dim() == 1 && psw->numel() == indices->numel(), Error::InvalidArgument,
              "per_sample_weights must be 1-D with one weight per index (%zu)", indices->numel());
  }
  // ATen's index outs take the wider of the two index dtypes.
  const ScalarType itype = indices->scalar_type() == ScalarType::Long ||
                                   offsets->scalar_type() == ScalarType::Long
                               ? ScalarType::Long
                               : ScalarType::Int;
  TRI_TRY(check_same_dtype(*out, weight->scalar_type(), "out0"));
  TRI_TRY(check_same_dtype(*offset2bag, itype, "out1"));
  TRI_TRY(check_same_dtype(*bag_size, itype, "out2"));
  TRI_TRY(check_same_dtype(*max_indices, itype, "out3"));
  const int64_t num_bags = static_cast<int64_t>(offsets->numel()) - (include_last ? 1 : 0);
  const Bags b{weight, indices, offsets, psw, mode, padding_idx < 0 ? -1 : padding_idx, num_bags};
  TRI_TRY(check_bags(b));
  const int64_t d = weight->size(1);
  const int64_t n = static_cast<int64_t>(indices->numel());
  const int64_t out_shape[] = {num_bags, d};
  TRI_TRY(resize_out(*out, Span<const int64_t>(out_shape, 2), "out0"));
  const bool fast_sum = mode == kSum &&
                        (weight->scalar_type() == ScalarType::Float ||
                         weight->scalar_type() == ScalarType::Half) &&
                        weight->strides()[1] == 1 && out->strides()[1] == 1 && padding_idx < 0 &&
                        (psw == nullptr || psw->strides()[0] == 1);
  const int64_t o2b_shape[] = {fast_sum ? 0 : n};
  TRI_TRY(resize_out(*offset2bag, Span<const int64_t>(o2b_shape, 1), "out1"));
  TRI_TRY(resize_out(*bag_size, Span<const int64_t>(out_shape, 1), "out2"));
  TRI_TRY(resize_out(*max_indices, Span<const int64_t>(out_shape, mode == kMax ? 2 : 1), "out3"));
  for (int64_t bag = 0; bag < num_bags; ++bag) {
    int64_t count = 0;
    for (int64_t i = index_at(*offsets, bag); i < bag_end(b, bag); ++i) {
      if (index_at(*indices, i) != b.padding_idx) ++count;
      if (!fast_sum) store_index(*offset2bag, i, 0, bag);
    }
    store_index(*bag_size, bag, 0, count);
    if (mode != kMax) store_index(*max_indices, bag, 0, 0);
    for (int64_t d0 = 0; d0 < d; d0 += 128) {
      reduce_chunk(b, bag, d0, d - d0 < 128 ? d - d0 : 128, *out, *max_indices, count);
    }
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
