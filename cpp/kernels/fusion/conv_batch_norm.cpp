#include "cpp/kernels/fusion/conv_batch_norm.h"

#include <cmath>
#include <cstring>

#include "cpp/kernels/aten/op_convolution.h"
#include "cpp/kernels/fusion/value_uses.h"
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"

namespace tri::kernels {
namespace {

constexpr const char* kFusedName = "trident::conv_affine_clamp.out";
constexpr uint32_t kFusedArgs = 15;

// aten::convolution.out: [input, weight, bias?, stride, padding, dilation,
// transposed, output_padding, groups, out, (returned out)].
constexpr uint32_t kConvOut = 9;
// The fused kernel's: the convolution's nine inputs, then scale, shift, lo,
// hi, and its two outs last, as in every call (the convolution's out, then
// the chain's last out, which it returns), so that planning per shape sees
// where it writes.
constexpr uint32_t kScale = 9, kShift = 10, kLo = 11, kHi = 12, kFusedConvOut = 13, kLastOut = 14;

// The convolution's scratch, from the convolution's own ten arguments.
size_t conv_affine_clamp_scratch(KernelArgs& args) {
  if (args.size() != kFusedArgs) return 0;
  EValue* conv_args[kConvOut + 1];
  for (uint32_t a = 0; a < kConvOut; ++a) conv_args[a] = &args.at(a);
  conv_args[kConvOut] = &args.at(kFusedConvOut);
  KernelArgs conv(conv_args, kConvOut + 1);
  return convolution_out_scratch(conv);
}

const KernelEntry kFusedEntry = {kFusedName, &conv_affine_clamp_out, kFusedArgs, nullptr,
                                 &conv_affine_clamp_scratch};
// _native_batch_norm_legit_no_training.out: [input, weight?, bias?,
// running_mean, running_var, momentum, eps, out, save_mean, save_invstd, ...].
constexpr uint32_t kBnOut = 7;
constexpr uint32_t kBnArgs = 10;

bool float_tensor(const EValue* v, int32_t rank) {
  return v->is_tensor() && v->to_tensor().scalar_type() == ScalarType::Float &&
         v->to_tensor().dim() == rank;
}

// A batch-norm parameter: None where allowed, else f32[channels] read by
// this batch norm alone.
bool parameter_ok(const EValue* v, bool optional, int32_t channels, const Instruction& bn,
                  const ValueUses& uses) {
  if (v->is_none()) return optional;
  return float_tensor(v, 1) && v->to_tensor().size(0) == channels && uses.only_in(v, bn);
}

double scalar_of(const EValue* v, double fallback) {
  if (v->is_double()) return v->to_double();
  if (v->is_int()) return static_cast<double>(v->to_int());
  return fallback;
}

bool overlaps(const Tensor& a, const Tensor& b) {
  const uintptr_t a0 = reinterpret_cast<uintptr_t>(a.data());
  const uintptr_t b0 = reinterpret_cast<uintptr_t>(b.data());
  return a0 < b0 + b.capacity_bytes() && b0 < a0 + a.capacity_bytes();
}

struct Chain {
  size_t conv = 0;
  size_t length = 0;  // 2 (conv, batch norm) or 3 (and the activation)
  const EValue* last_out = nullptr;
  double lo = -INFINITY;
  double hi = INFINITY;
};

// The chain starting at instruction i, if it fuses.
bool match(Span<const Instruction> ins, Span<const ResolvedOperator> ops, const ValueUses& uses,
           bool sizing, size_t i, Chain* chain) {
  if (i + 1 >= ins.size()) return false;
  const Instruction& conv = ins[i];
  const Instruction& bn = ins[i + 1];
  if (!is_call(conv, ops, "aten::convolution.out", kConvOut + 1) ||
      !is_call(bn, ops, "aten::_native_batch_norm_legit_no_training.out", kBnArgs)) {
    return false;
  }
  const EValue* conv_out = conv.args[kConvOut];
  const EValue* transposed = conv.args[6];
  if (!float_tensor(conv.args[0], 4) || !float_tensor(conv.args[1], 4) ||
      !float_tensor(conv_out, 4) || !transposed->is_bool() || transposed->to_bool() ||
      bn.args[0] != conv_out || !uses.read_once_by(conv_out, conv, bn)) {
    return false;
  }
  const int32_t channels = conv_out->to_tensor().size(1);
  const EValue* bn_out = bn.args[kBnOut];
  if (!parameter_ok(bn.args[1], true, channels, bn, uses) ||
      !parameter_ok(bn.args[2], true, channels, bn, uses) ||
      !parameter_ok(bn.args[3], false, channels, bn, uses) ||
      !parameter_ok(bn.args[4], false, channels, bn, uses) || !bn.args[6]->is_double() ||
      !float_tensor(bn_out, 4) || !uses.only_in(bn.args[8], bn) || !uses.only_in(bn.args[9], bn)) {
    return false;
  }
  chain->conv = i;
  chain->length = 2;
  chain->last_out = bn_out;
  if (i + 2 < ins.size()) {
    const Instruction& act = ins[i + 2];
    const bool hardtanh = is_call(act, ops, "aten::hardtanh.out", 4) && act.args[1]->is_scalar() &&
                          act.args[2]->is_scalar() && float_tensor(act.args[3], 4);
    const bool relu = is_call(act, ops, "aten::relu.out", 2) && float_tensor(act.args[1], 4);
    if ((hardtanh || relu) && act.args[0] == bn_out && uses.read_once_by(bn_out, bn, act)) {
      chain->length = 3;
      chain->last_out = hardtanh ? act.args[3] : act.args[1];
      chain->lo = hardtanh ? scalar_of(act.args[1], -INFINITY) : 0.0;
      chain->hi = hardtanh ? scalar_of(act.args[2], INFINITY) : INFINITY;
    }
  }
  // The fused kernel convolves into the convolution's out, then writes the
  // last out from it: the same sizes and strides, and unless both are
  // contiguous (then it copies like memmove), the same memory or none of
  // it. (Sizing binds no memory: it plans for the fusion, and the real
  // build may then use less.)
  const Tensor& first = conv_out->to_tensor();
  const Tensor& last = chain->last_out->to_tensor();
  for (int32_t d = 0; d < 4; ++d) {
    if (first.size(d) != last.size(d) || first.strides()[d] != last.strides()[d]) return false;
  }
  const bool contiguous = first.is_contiguous() && last.is_contiguous();
  if (!sizing && !contiguous && first.data() != last.data() && overlaps(first, last)) return false;
  return true;
}

// scale = gamma / sqrt(var + eps), shift = beta - mean * scale (gamma 1 and
// beta 0 when None), in double, rounded once.
bool fold_batch_norm(const Instruction& bn, int32_t channels, float* scale, float* shift) {
  const Tensor* gamma = bn.args[1]->is_none() ? nullptr : &bn.args[1]->to_tensor();
  const Tensor* beta = bn.args[2]->is_none() ? nullptr : &bn.args[2]->to_tensor();
  const Tensor& mean = bn.args[3]->to_tensor();
  const Tensor& var = bn.args[4]->to_tensor();
  const double eps = bn.args[6]->to_double();
  if (mean.data() == nullptr || var.data() == nullptr || (gamma && gamma->data() == nullptr) ||
      (beta && beta->data() == nullptr)) {
    return false;
  }
  auto at = [](const Tensor& t, int32_t c) {
    return static_cast<double>(static_cast<const float*>(t.data())[c * t.strides()[0]]);
  };
  for (int32_t c = 0; c < channels; ++c) {
    const double s = (gamma ? at(*gamma, c) : 1.0) / std::sqrt(at(var, c) + eps);
    scale[c] = static_cast<float>(s);
    shift[c] = static_cast<float>((beta ? at(*beta, c) : 0.0) - at(mean, c) * s);
  }
  return true;
}

// The fused instruction's arguments: conv's nine inputs, scale, shift, lo,
// hi (new values from the method allocator), conv's out and the chain's
// last out.
Result<EValue**> fused_args(const MethodPassContext& ctx, Span<const Instruction> ins,
                            const Chain& chain) {
  const Instruction& conv = ins[chain.conv];
  const Instruction& bn = ins[chain.conv + 1];
  const int32_t channels = conv.args[kConvOut]->to_tensor().size(1);
  MemoryAllocator& alloc = *ctx.alloc;
  EValue** args = alloc.allocate_array<EValue*>(kFusedArgs);
  EValue* extra = alloc.allocate_array<EValue>(4);
  Tensor* tensors = alloc.allocate_array<Tensor>(2);
  float* scale = alloc.allocate_array<float>(static_cast<size_t>(channels));
  float* shift = alloc.allocate_array<float>(static_cast<size_t>(channels));
  TRI_CHECK(args && extra && tensors && scale && shift, Error::MemoryAllocationFailed,
            "method '%s': no memory to fuse instruction %zu", ctx.method_name, chain.conv);
  for (uint32_t a = 0; a < kConvOut; ++a) args[a] = conv.args[a];
  args[kFusedConvOut] = conv.args[kConvOut];
  args[kLastOut] = const_cast<EValue*>(chain.last_out);
  if (!ctx.sizing && !fold_batch_norm(bn, channels, scale, shift)) return static_cast<EValue**>(nullptr);
  const SizesType size[1] = {channels};
  for (int t = 0; t < 2; ++t) {
    tensors[t] = Tensor();
    TRI_TRY(tensors[t].init(ScalarType::Float, Span<const SizesType>(size, 1), {},
                            t == 0 ? scale : shift, static_cast<size_t>(channels) * sizeof(float),
                            ShapeDynamism::Static));
  }
  extra[0] = EValue::from_tensor(&tensors[0]);
  extra[1] = EValue::from_tensor(&tensors[1]);
  extra[2] = EValue::from_double(chain.lo);
  extra[3] = EValue::from_double(chain.hi);
  for (int e = 0; e < 4; ++e) args[kScale + e] = &extra[e];
  return args;
}

}  // namespace

Error conv_affine_clamp_out(KernelContext& context, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* input, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* weight, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* bias, args.optional_tensor(2));
  TRI_ASSIGN_OR_RETURN(Tensor* conv_out, args.tensor(kFusedConvOut));
  TRI_ASSIGN_OR_RETURN(Tensor* scale, args.tensor(kScale));
  TRI_ASSIGN_OR_RETURN(Tensor* shift, args.tensor(kShift));
  TRI_ASSIGN_OR_RETURN(const double lo, args.double_value(kLo));
  TRI_ASSIGN_OR_RETURN(const double hi, args.double_value(kHi));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(kLastOut));
  TRI_CHECK(weight->dim() >= 2 && scale->scalar_type() == ScalarType::Float &&
                shift->scalar_type() == ScalarType::Float && scale->is_contiguous() &&
                shift->is_contiguous() && scale->numel() == static_cast<size_t>(weight->size(0)) &&
                shift->numel() == scale->numel(),
            Error::InvalidArgument, "%s: scale and shift must have one value per channel",
            kFusedName);
  ChannelAffine affine;
  affine.scale = static_cast<const float*>(scale->data());
  affine.shift = static_cast<const float*>(shift->data());
  affine.lo = static_cast<float>(lo);
  affine.hi = static_cast<float>(hi);
  // Straight into the last out, unless the memory plan put it over an
  // operand the convolution still reads. Over the input alone (mobilenet_v2's
  // stem and expansion 1x1s), the convolution can still write it when it
  // first reads all of the input into its column buffer (for an expansion
  // that copies the input instead of the several times larger output), and
  // a depthwise 3x3 over exactly its input writes it row by row, saving
  // each input row first.
  // Else into the convolution's own out (the plan keeps that apart from
  // them), moved after.
  const bool over_input = overlaps(*out, *input);
  const bool over_params = overlaps(*out, *weight) || (bias != nullptr && overlaps(*out, *bias));
  if (!over_params) {
    const Error err = convolution_into(context, args, *out, affine, over_input);
    if (!over_input || err != Error::NotSupported) return err;
  }
  TRI_TRY(convolution_into(context, args, *conv_out, affine));
  TRI_TRY(out->resize(conv_out->sizes()));
  for (int32_t d = 0; d < conv_out->dim(); ++d) {
    TRI_CHECK(out->strides()[d] == conv_out->strides()[d], Error::InvalidArgument,
              "%s: out and the convolution's out differ in layout", kFusedName);
  }
  if (out->data() == conv_out->data()) return Error::Ok;
  const bool apart = !overlaps(*out, *conv_out);
  if (conv_out->is_contiguous()) {
    if (apart) {
      copy_bytes(out->mutable_data(), conv_out->data(), conv_out->nbytes());
    } else {
      memmove(out->mutable_data(), conv_out->data(), conv_out->nbytes());
    }
    return Error::Ok;
  }
  TRI_CHECK(apart, Error::InvalidArgument, "%s: out lies partly over the convolution's out",
            kFusedName);
  copy_view(TensorView::of(*conv_out), TensorView::of(*out));
  return Error::Ok;
}

Error fuse_conv_batch_norm(const MethodPassContext& ctx, Span<Instruction>* instructions,
                           Span<ResolvedOperator>* operators) {
  Span<Instruction> ins = *instructions;
  bool any = false;
  for (size_t i = 0; i + 1 < ins.size() && !any; ++i) {
    const Instruction& in = ins[i];
    any = is_call(in, *operators, "aten::convolution.out", kConvOut + 1);
  }
  if (!any) return Error::Ok;
  TRI_ASSIGN_OR_RETURN(const ValueUses uses, ValueUses::count(ctx, ins));
  // The fused kernel as one more operator of the method.
  const size_t n_ops = operators->size();
  ResolvedOperator* ops = ctx.alloc->allocate_array<ResolvedOperator>(n_ops + 1);
  TRI_CHECK(ops != nullptr, Error::MemoryAllocationFailed,
            "method '%s': no memory for the fused operator", ctx.method_name);
  for (size_t o = 0; o < n_ops; ++o) ops[o] = (*operators)[o];
  ops[n_ops].kernel = kFusedEntry;
  ops[n_ops].name = kFusedName;
  size_t kept = 0;
  bool fused_any = false;
  for (size_t i = 0; i < ins.size();) {
    Chain chain;
    if (match(ins, *operators, uses, ctx.sizing, i, &chain)) {
      TRI_ASSIGN_OR_RETURN(EValue** args, fused_args(ctx, ins, chain));
      if (args != nullptr) {
        Instruction fused;
        fused.kind = InstructionKind::KernelCall;
        fused.target = static_cast<uint32_t>(n_ops);
        fused.args = args;
        fused.num_args = kFusedArgs;
        const Instruction& last = ins[i + chain.length - 1];
        fused.source = ins[i].source;
        fused.source_count = last.source + last.source_count - ins[i].source;
        ins[kept++] = fused;
        i += chain.length;
        fused_any = true;
        continue;
      }
    }
    ins[kept++] = ins[i++];
  }
  *instructions = Span<Instruction>(ins.data(), kept);
  if (fused_any) *operators = Span<ResolvedOperator>(ops, n_ops + 1);
  return Error::Ok;
}

}  // namespace tri::kernels
