// The kernel table: every entry is registered with its arity, and every
// portable operator of the corpus (MANIFEST.md, "Operator frequency") is in it.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cpp/kernels/kernels.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri {
namespace {

struct TableEntry {
  const char* name;
  int32_t num_args;
};

const TableEntry kTable[] = {
#define TRI_KERNEL(name, function, num_args) {name, num_args},
#include "cpp/kernels/kernel_table.inc"
#undef TRI_KERNEL
};

TEST(KernelTable, EveryEntryIsRegisteredOnceWithItsArity) {
  std::set<std::string> seen;
  for (const TableEntry& e : kTable) {
    EXPECT_TRUE(seen.insert(e.name).second) << "duplicate " << e.name;
    const KernelEntry* k = find_kernel(e.name);
    ASSERT_NE(k, nullptr) << e.name;
    EXPECT_EQ(k->num_args, e.num_args) << e.name;
  }
}

struct ScratchEntry {
  const char* name;
  KernelScratchFn scratch;
};

const ScratchEntry kScratchTable[] = {
#define TRI_KERNEL_SCRATCH(name, function) {name, &kernels::function},
#include "cpp/kernels/tables/scratch.inc"
#undef TRI_KERNEL_SCRATCH
};

// A scratch row whose name matches no kernel would leave that kernel
// without its declaration (kernel_test.cpp would then catch it using temp).
TEST(KernelTable, EveryScratchRowNamesARegisteredKernelOnce) {
  std::set<std::string> seen;
  for (const ScratchEntry& e : kScratchTable) {
    EXPECT_TRUE(seen.insert(e.name).second) << "duplicate scratch row " << e.name;
    const KernelEntry* k = find_kernel(e.name);
    ASSERT_NE(k, nullptr) << e.name;
    EXPECT_EQ(k->scratch, e.scratch) << e.name;
  }
  size_t declared = 0;
  for (const TableEntry& e : kTable) declared += find_kernel(e.name)->scratch != nullptr;
  EXPECT_EQ(declared, sizeof(kScratchTable) / sizeof(kScratchTable[0]));
}

TEST(KernelTable, CoversTheCorpusPortableOps) {
  // Arity as dumped from the corpus programs (KernelCall argument counts).
  const TableEntry corpus[] = {
      {"aten::add.out", 5}, {"aten::mul.out", 4}, {"dim_order_ops::_to_dim_order_copy.out", 5},
      {"aten::permute_copy.out", 4}, {"aten::addmm.out", 7}, {"aten::alias_copy.out", 3},
      {"aten::mm.out", 4}, {"aten::sub.out", 5}, {"aten::sum.IntList_out", 6}, {"aten::view_copy.out", 4},
      {"aten::full_like.out", 5}, {"aten::neg.out", 3}, {"aten::tanh.out", 3},
      {"aten::pow.Tensor_Scalar_out", 4}, {"aten::mul.Scalar_out", 4}, {"aten::where.self_out", 5},
      {"aten::unsqueeze_copy.out", 4}, {"aten::slice_copy.Tensor_out", 7}, {"aten::ne.Scalar_out", 4},
      {"aten::_to_copy.out", 5}, {"aten::arange.start_out", 5}, {"aten::scalar_tensor.out", 3},
      {"aten::select_copy.int_out", 5}, {"executorch_prim::et_view.default", 3}, {"aten::clamp.out", 5},
      {"aten::div.out", 4}, {"aten::index.Tensor_out", 4}, {"aten::index_select.out", 5},
      {"dim_order_ops::_clone_dim_order.out", 5}, {"aten::_log_softmax.out", 5}, {"aten::_softmax.out", 5},
      {"aten::argmax.out", 5}, {"aten::clone.out", 4}, {"aten::eq.Scalar_out", 4}, {"aten::exp.out", 3},
      {"aten::expand_copy.out", 5}, {"aten::gather.out", 6}, {"aten::max_pool2d_with_indices.out", 9},
      {"aten::mean.out", 6}, {"aten::scatter.value_out", 6}, {"aten::sigmoid.out", 3},
      {"aten::squeeze_copy.dims_out", 4},
  };
  for (const TableEntry& e : corpus) {
    const KernelEntry* k = find_kernel(e.name);
    ASSERT_NE(k, nullptr) << e.name;
    EXPECT_EQ(k->num_args, e.num_args) << e.name;
  }
}

}  // namespace
}  // namespace tri
