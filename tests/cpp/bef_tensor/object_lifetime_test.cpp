// The tensor objects' reference counting, on a heap whose bytes in use can
// be checked: slices keep their parent's bytes alive, tensors keep their
// buffer alive, and dropping the last reference returns every block.
#include <gtest/gtest.h>

#include <vector>

#include "cpp/kernels/tfrt/tensor/dense_host_tensor.h"
#include "cpp/kernels/tfrt/tensor/tensor_shape.h"
#include "cpp/runtime/async/host_context.h"

namespace tri::tfrt_kernels {
namespace {

class ObjectLifetime : public ::testing::Test {
 protected:
  ObjectLifetime() : memory_(1 << 20), heap_(memory_.data(), memory_.size()), host_(heap_) {}

  std::vector<uint8_t> memory_;
  FreeListAllocator heap_;
  async::HostContext host_;
};

TEST_F(ObjectLifetime, SlicesKeepTheirParentAlive) {
  HostBuffer* parent = HostBuffer::allocate(host_, 64, 64);
  ASSERT_NE(parent, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(parent->data()) % 64, 0u);
  HostBuffer* slice = HostBuffer::slice(host_, parent, 16, 32);
  ASSERT_NE(slice, nullptr);
  EXPECT_EQ(slice->data(), parent->data() + 16);
  const int64_t dims[] = {8};
  DenseHostTensor* tensor = DenseHostTensor::wrap(host_, ScalarType::Int, dims, slice);
  ASSERT_NE(tensor, nullptr);
  parent->drop_ref(host_);
  slice->drop_ref(host_);
  // The tensor still reaches the parent's bytes through the slice.
  for (int i = 0; i < 8; ++i) tensor->data<int32_t>()[i] = i;
  EXPECT_EQ(tensor->tensor().numel(), 8u);
  EXPECT_NE(heap_.bytes_in_use(), 0u);
  tensor->drop_ref(host_);
  EXPECT_EQ(heap_.bytes_in_use(), 0u);
  EXPECT_EQ(heap_.live_blocks(), 0u);
}

TEST_F(ObjectLifetime, RefusalsLeaveNothingAllocated) {
  EXPECT_EQ(HostBuffer::allocate(host_, 16, 3), nullptr);
  EXPECT_EQ(HostBuffer::allocate(host_, size_t{2} << 30, 16), nullptr);
  HostBuffer* buffer = HostBuffer::allocate(host_, 16, 16);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(HostBuffer::slice(host_, buffer, 8, 9), nullptr);
  const int64_t too_many[] = {5};
  EXPECT_EQ(DenseHostTensor::wrap(host_, ScalarType::Int, too_many, buffer), nullptr);
  const int64_t negative[] = {-1};
  EXPECT_EQ(DenseHostTensor::create(host_, ScalarType::Int, negative), nullptr);
  buffer->drop_ref(host_);
  EXPECT_EQ(heap_.live_blocks(), 0u);
  DenseHostTensor* scalar = DenseHostTensor::create(host_, ScalarType::Float, {});
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(heap_.live_blocks(), 2u);  // the tensor and its buffer
  scalar->drop_ref(host_);
  EXPECT_EQ(heap_.live_blocks(), 0u);
}

TEST_F(ObjectLifetime, ShapesAreOneBlockEach) {
  const int64_t dims[] = {1, 2, 3};
  TensorShape* shape = TensorShape::make(host_, dims, 3);
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape->dims()[2], 3);
  PartialTensorShape* partial = PartialTensorShape::make_unranked(host_);
  ASSERT_NE(partial, nullptr);
  EXPECT_FALSE(partial->ranked());
  shape->drop_ref(host_);
  partial->drop_ref(host_);
  EXPECT_EQ(heap_.bytes_in_use(), 0u);
}

}  // namespace
}  // namespace tri::tfrt_kernels
