#include <gtest/gtest.h>

#include "cpp/custom/register_custom_kernels.h"
#include "cpp/delegates/register_delegates.h"
#include "cpp/kernels/register_kernels.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (tri::register_portable_kernels() != tri::Error::Ok ||
      tri::register_custom_kernels() != tri::Error::Ok ||
      tri::register_builtin_backends() != tri::Error::Ok) {
    return 2;
  }
  return RUN_ALL_TESTS();
}
