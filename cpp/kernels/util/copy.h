// Copies between strided views, converting dtypes when they differ. Every
// view/copy op (permute, expand, slice, select, squeeze, clone, _to_copy,
// dim-order copies) ends in one of these.
#pragma once

#include "cpp/kernels/util/tensor_view.h"
#include "cpp/runtime/core/error.h"

namespace tri {

// dst[i] = src[i] over dst's shape; src broadcasts to it (expand).
void copy_view(const TensorView& src, const TensorView& dst);

// copy_view for views whose memory does not overlap: same-type copies
// spread over the thread pool (a transpose at a graph's edge is a strided
// gather worth two cores).
void copy_view_disjoint(const TensorView& src, const TensorView& dst);

// Copies the elements of src into dst in logical (row-major) order; the
// shapes may differ but the element counts must match (view/reshape).
void copy_reshape(const TensorView& src, const TensorView& dst);

// memcpy of n bytes between buffers that do not overlap, spread over the
// thread pool in pieces of 256 KiB.
void copy_bytes(void* dst, const void* src, size_t n);

// Copies convert like ATen's copy_: any of kAllTypes to any other.
Error check_copy_dtypes(const Tensor& self, const Tensor& out);

// Resizes out to `src`'s shape and copies src into it.
Error copy_into(const TensorView& src, Tensor& out);

// True when the bytes of a and b intersect.
bool bytes_overlap(const Tensor& a, const Tensor& b);

// The returned value of an in-place op (copy_, index_put_). ExecuTorch's
// kernels make it an alias of self; a program that gave it a tensor of its
// own gets self's shape and values in it.
Error alias_result(const Tensor& self, Tensor& ret);

}  // namespace tri
