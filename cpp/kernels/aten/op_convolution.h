// aten::convolution.out's checks and work, for kernels that extend it.
#pragma once

#include "cpp/kernels/util/channel_affine.h"
#include "cpp/runtime/kernel/kernel_args.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri {
namespace kernels {

// aten::convolution.out over args' first nine arguments, writing `out`
// (resized to the result) rather than args' own out, with `affine` applied
// to each value as it is finished (float32 and not transposed, else
// InvalidArgument). out_over_input: `out` lies over the input (see
// ConvProblem::out_over_input; NotSupported, with nothing written, where
// the convolution cannot read all of its input first).
Error convolution_into(KernelContext& context, KernelArgs& args, Tensor& out,
                       const ChannelAffine& affine, bool out_over_input = false);

}  // namespace kernels
}  // namespace tri
