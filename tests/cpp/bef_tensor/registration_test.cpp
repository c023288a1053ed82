// Every kernel the tensor corpus files name is registered by
// register_tfrt_kernels(), which would silently drop a table that no longer
// fits the executor's fixed kernel table.
#include <gtest/gtest.h>

#include "cpp/kernels/tfrt/register_tfrt_kernels.h"
#include "cpp/runtime/async/kernel_frame.h"

namespace tri {
namespace {

TEST(TensorKernelRegistration, CorpusKernelsAreRegistered) {
  register_tfrt_kernels();
  for (const char* name : {
           "tfrt_dht.create_uninitialized_tensor.bool.1", "tfrt_dht.create_uninitialized_tensor.f32.4",
           "tfrt_dht.create_uninitialized_tensor.i32.0", "tfrt_dht.create_uninitialized_tensor.i64.1",
           "tfrt_dht.fill_tensor_with_constant.f32", "tfrt_dht.fill_tensor_with_constant.i32",
           "tfrt_dht.set_tensor_with_constant_values.bool", "tfrt_dht.set_tensor_with_values.i64",
           "tfrt_dht.print_tensor", "tfrt_dht.tensor_equal.i32", "tfrt_dht.allocate_buffer",
           "tfrt_dht.get_buffer", "tfrt_dht.get_buffer_slice", "tfrt_dht.make_tensor.f32",
           "tfrt_dht.print_buffer", "tfrt_dht.get_tensor_shape", "ts.build_shape",
           "ts.build_partial_shape", "ts.build_unranked_partial_shape", "ts.print_shape",
           "ts.print_partial_shape", "ts.equal_shape", "ts.get_num_elements", "ts.to_shape",
           "ts.to_partial_shape", "ts.as_fixed_rank_shape.3", "ts.print_fixed_rank_shape.3",
           "tfrt_test.const_dense_attr", "tfrt_test.slice_inplace.i32.3", "tfrt_test.flatten.f32",
           "tfrt_test.max_pooling_2d.f32", "tfrt_test.add.i32", "tfrt_test.relu.i32",
           "tfrt_test.equal.i32", "tfrt_test.argmax.i32.2", "tfrt_test.reduce_mean.f32.1",
           "tfrt_test.matmul.i32.2"}) {
    EXPECT_NE(async::find_kernel(name), nullptr) << name;
  }
}

}  // namespace
}  // namespace tri
