// Convolution + batch norm (eval) + clamping activation, fused at load.
//
// Exported conv nets (torchvision's, through ExecuTorch or torch.export)
// run aten::convolution.out, then _native_batch_norm_legit_no_training.out
// on its output, then often hardtanh.out (ReLU6) or relu.out. The last two
// are whole passes over memory: on mobilenet_v2 a fifth of the portable
// path's time. The pass below rewrites such a chain into one KernelCall of
// trident::conv_affine_clamp.out, which convolves and applies
// y = clamp(x * scale[c] + shift[c], lo, hi) to each output value as the
// convolution finishes it (in the gemm's cached tiles, or the depthwise
// kernel's rows), with scale = gamma / sqrt(var + eps) and
// shift = beta - mean * scale computed once at load. It applies only when
// nothing else can see the intermediate tensors: each is read by the next
// instruction of the chain alone and is neither a method input nor an
// output, and the batch norm's parameters are read by that batch norm alone
// (so they are the file's constants). Where the memory plan put the chain's
// last out over the convolution's input, the convolution writes it after
// reading all of its input into its column buffer (a depthwise 3x3 over
// exactly its input: saving each input row before covering it), or, where
// it cannot (other depthwise overlaps, grouped, more positions than one
// column tile), writes its own out, which the kernel then moves.
#pragma once

#include "cpp/runtime/executor/method_pass.h"
#include "cpp/runtime/kernel/kernel_args.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri::kernels {

// aten::convolution.out's ten arguments (the out being the chain's last
// out), then scale f32[C], shift f32[C], lo (Double), hi (Double).
Error conv_affine_clamp_out(KernelContext& context, KernelArgs& args);

// The method pass (register with register_method_pass).
Error fuse_conv_batch_norm(const MethodPassContext& context, Span<Instruction>* instructions,
                           Span<ResolvedOperator>* operators);

}  // namespace tri::kernels
