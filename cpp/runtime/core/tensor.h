// The one tensor type every format front end, the interpreter and every kernel
// share. It does not own its data: `data` points into planned memory, a
// constant segment of the loaded file, or a caller's input buffer. Shape
// metadata lives in fixed arrays, so a tensor never allocates.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/scalar_type.h"
#include "cpp/runtime/core/span.h"

namespace tri {

// The largest rank a tensor can have (ExecuTorch uses the same limit).
constexpr size_t kTensorDimLimit = 16;

using SizesType = int32_t;
using StridesType = int32_t;
using DimOrderType = uint8_t;

// How a tensor's shape may change between runs.
enum class ShapeDynamism : uint8_t {
  Static = 0,          // never
  DynamicBound = 1,    // any shape whose elements fit the planned capacity
  DynamicUnbound = 2,  // any shape; data must be provided to fit it
};

const char* shape_dynamism_name(ShapeDynamism dynamism);

class MemoryAllocator;
class Tensor;

// Places a tensor whose memory the plan leaves to the run (per-shape
// planning: method.h's LazyTensor). Tensor::resize asks it for the bytes the
// new shape needs, so the memory follows the shapes a run really has rather
// than their upper bound. The host implements it over memory it owns.
class TensorBinder {
 public:
  // Gives `tensor` at least `nbytes` (set_data), releasing what it held.
  virtual Error bind(Tensor& tensor, size_t nbytes) = 0;
  // Takes back what bind() gave `tensor`, which is left without memory.
  virtual void release(Tensor& tensor) = 0;
  // Takes back everything at once (the start of a run); the tensors holding
  // it are unbound by their owner.
  virtual void release_all() = 0;
  // Points `temp` at scratch of at least `bytes` for the next kernel: a
  // method planned per shape sizes its kernels' scratch at the run's shapes
  // too, not at the bound.
  virtual Error reserve_scratch(size_t bytes, MemoryAllocator& temp) = 0;

 protected:
  ~TensorBinder() = default;
};

class Tensor {
 public:
  Tensor() = default;

  // Sets type, shape and memory layout. `dim_order` empty means contiguous
  // (0, 1, ..., dim-1). `capacity_bytes` is how many bytes `data` can hold;
  // it becomes the bound for later resizes. Validates everything it is given.
  Error init(ScalarType type, Span<const SizesType> sizes,
             Span<const DimOrderType> dim_order, void* data,
             size_t capacity_bytes, ShapeDynamism dynamism);

  ScalarType scalar_type() const { return type_; }
  size_t element_size() const { return tri::element_size(type_); }
  int32_t dim() const { return dim_; }
  SizesType size(int32_t d) const { return sizes_[d]; }
  Span<const SizesType> sizes() const { return {sizes_, dim_}; }
  Span<const StridesType> strides() const { return {strides_, dim_}; }
  Span<const DimOrderType> dim_order() const { return {dim_order_, dim_}; }
  ShapeDynamism dynamism() const { return dynamism_; }
  // The sizes given to init(): the upper bound of a DynamicBound tensor.
  Span<const SizesType> bound_sizes() const { return {bound_sizes_, dim_}; }

  size_t numel() const { return numel_; }
  size_t nbytes() const { return numel_ * element_size(); }
  size_t capacity_bytes() const { return capacity_; }
  bool is_contiguous() const;

  void* mutable_data() const { return data_; }
  const void* data() const { return data_; }
  template <typename T>
  T* data_ptr() const {
    return static_cast<T*>(data_);
  }

  // Points the tensor at other memory, e.g. a caller's input buffer.
  void set_data(void* data, size_t capacity_bytes) {
    data_ = data;
    capacity_ = capacity_bytes;
  }

  // Changes the shape, keeping rank and dim order. Fails, naming the sizes,
  // when the dynamism or the capacity forbid it; the tensor is unchanged then.
  // A tensor with a binder that has no memory yet, or too little, gets it
  // from the binder here, even when the shape stays.
  Error resize(Span<const SizesType> new_sizes);

  // Per-shape planning: memory comes from `binder` at resize (null: the
  // tensor's memory is fixed by whoever set it).
  void set_binder(TensorBinder* binder) { binder_ = binder; }
  TensorBinder* binder() const { return binder_; }

 private:
  void compute_strides();

  void* data_ = nullptr;
  size_t capacity_ = 0;
  TensorBinder* binder_ = nullptr;
  size_t numel_ = 1;
  ScalarType type_ = ScalarType::Float;
  ShapeDynamism dynamism_ = ShapeDynamism::Static;
  uint8_t dim_ = 0;
  SizesType sizes_[kTensorDimLimit] = {};
  SizesType bound_sizes_[kTensorDimLimit] = {};
  StridesType strides_[kTensorDimLimit] = {};
  DimOrderType dim_order_[kTensorDimLimit] = {};
};

// Writes "[2, 3, 4]" into `buffer` for messages; returns `buffer`.
const char* format_sizes(Span<const SizesType> sizes, char* buffer,
                         size_t capacity);

// Whether 32-bit strides can address a tensor of these sizes.
bool strides_fit(Span<const SizesType> sizes);

// numel of `sizes` with overflow checking; false on overflow or a negative
// size.
bool checked_numel(Span<const SizesType> sizes, size_t* out);

}  // namespace tri
