# Op cases of matrix products, convolution and pooling
# (cpp/kernels/tables/conv_pool_linear.inc). Where torch 1.13 has no CPU kernel
# for a dtype (float16 matmul and conv, ...), and for float16/bfloat16 matrix
# products and convolutions (see MAX_HALF_ULPS), `ref` computes in float32 and
# rounds, as the runtime does. Shapes cross the SIMD gemm's 6x8 tiles and
# 256-deep K slices.
import torch
import torch.nn.functional as F

from oplib import case, T

FLOATS = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int8", "int16", "int32", "int64", "uint8"]
REAL = FLOATS + INTS
CL5 = [0, 2, 3, 4, 1]
DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16}


def via_float(fn, dtype):
    """A reference for dtypes torch 1.13 lacks or rounds more than once:
    compute in float32, round once."""
    def ref(*args, **kw):
        conv = [a.float() if isinstance(a, torch.Tensor) else a for a in args]
        r = fn(*conv, **kw)
        if isinstance(r, tuple):
            return tuple(x.to(dtype) if x.is_floating_point() else x for x in r)
        return r.to(dtype)
    return ref


def tol(dtype):
    """Sums of many products: looser than the elementwise defaults."""
    return {"float32": dict(rtol=1e-4, atol=1e-4)}.get(dtype, {})


# float16/bfloat16 matrix products and convolutions are checked in ulps of the
# half type against float32 results rounded once (torch 1.13's own bfloat16
# mm/addmm/bmm round partial sums: up to 8 ulps off that here). The runtime
# also sums in float32 and rounds once (addmm and linear round the product
# before adding the bias: their references do too), so it can only differ
# where its summation order puts a float32 sum on the other side of a rounding
# boundary: 1 ulp. Seen with SIMD on and off: 0 on these cases; 1, in a few
# elements, on larger float16 mm, addmm and convolution (K up to 576).
MAX_HALF_ULPS = 1


def checked(fn, dtype, half_ref=None):
    """The case options of `fn` in `dtype`: tol(dtype), or for float16 and
    bfloat16 MAX_HALF_ULPS against `half_ref(dtype)`, by default `fn`
    computed in float32 and rounded once."""
    if dtype not in DTYPES:
        return tol(dtype)
    return dict(ref=(half_ref or (lambda d: via_float(fn, d)))(DTYPES[dtype]), max_ulps=MAX_HALF_ULPS)


def addmm_rounded_product(dtype):
    """addmm as the runtime computes it in float16/bfloat16 (op_addmm.cpp):
    mat1 @ mat2 rounded to dtype, then alpha * that + beta * self in float32,
    rounded again. Where self cancels the product, the once-rounded result is
    tens of ulps away from that (65 in the float16 case here), and a product
    rounded the other way would be too (not seen)."""
    def ref(s, a, b, beta=1, alpha=1):
        prod = torch.mm(a.float(), b.float()).to(dtype).float()
        return (prod * alpha if beta == 0 else prod * alpha + s.float() * beta).to(dtype)
    return ref


def linear_rounded_product(dtype):
    """linear as the runtime computes it in float16/bfloat16 (op_linear.cpp):
    the product rounded to dtype, then the bias added and rounded again."""
    def ref(x, w, b=None):
        prod = F.linear(x.float(), w.float()).to(dtype)
        return prod if b is None else (prod.float() + b.float()).to(dtype)
    return ref


def small(shape, dtype, **kw):
    """Integers small enough that products stay exact in every dtype."""
    if dtype in INTS:
        return T(shape, dtype, low=0 if dtype == "uint8" else -3, high=4, **kw)
    return T(shape, dtype, **kw)


def mm_cases():
    def addmm(s, a, b, beta=1, alpha=1):
        return torch.addmm(s, a, b, beta=beta, alpha=alpha)

    out = []
    for dt in REAL:
        out.append(case("aten::mm.out", T([3, 4], dt), T([4, 5], dt), **checked(torch.mm, dt)))
        out.append(case("aten::addmm.out", T([5], dt), T([3, 4], dt), T([4, 5], dt),
                        beta=2 if dt in INTS else 0.5, alpha=3 if dt in INTS else 1.5,
                        **checked(addmm, dt, addmm_rounded_product)))
        out.append(case("aten::bmm.out", T([2, 3, 4], dt), T([2, 4, 5], dt), **checked(torch.bmm, dt)))
        out.append(case("aten::linear.out", T([2, 3, 4], dt), T([5, 4], dt), T([5], dt),
                        **checked(F.linear, dt, linear_rounded_product)))
    f = tol("float32")
    out += [
        # Tile edges of the SIMD gemm, K beyond one 256-deep slice, transposed operands.
        case("aten::mm.out", T([13, 70]), T([70, 19]), **f),
        case("aten::mm.out", T([7, 300]), T([300, 9]), **f),
        case("aten::mm.out", T([6, 8]), T([8, 8], dim_order=[1, 0]), **f),
        case("aten::mm.out", T([5, 3], dim_order=[1, 0]), T([3, 17]), **f),
        case("aten::mm.out", T([1, 1]), T([1, 1])),
        case("aten::mm.out", T([0, 4]), T([4, 5])),
        case("aten::mm.out", T([3, 0]), T([0, 5])),
        case("aten::addmm.out", T([3, 1]), T([3, 4]), T([4, 5])),
        case("aten::addmm.out", T([19]), T([25, 33]), T([33, 19]), beta=0, alpha=2, **f),
        case("aten::addmm.out", T([1]), T([0, 3]), T([3, 2])),
        # A bias row with beta = alpha = 1 starts the SIMD gemm's sums: a
        # narrow last panel (20 = 16 + 4) over two K slices, a partial one,
        # a [1, n] row.
        case("aten::addmm.out", T([20]), T([5, 257]), T([257, 20]), **f),
        case("aten::addmm.out", T([7]), T([3, 5]), T([5, 7]), **f),
        case("aten::addmm.out", T([1, 17]), T([4, 9]), T([9, 17]), **f),
        case("aten::bmm.out", T([3, 9, 40]), T([3, 40, 11]), **f),
        case("aten::bmm.out", T([2, 5, 3]), T([2, 3, 4], dim_order=[0, 2, 1]), **f),
        case("aten::bmm.out", T([0, 3, 4]), T([0, 4, 5])),
        case("aten::bmm.out", T([1, 1, 1]), T([1, 1, 1])),
        case("aten::linear.out", T([2, 3]), T([4, 3]), **f),
        case("aten::linear.out", T([3]), T([4, 3]), T([4]), **f),
        case("aten::linear.out", T([2, 3]), T([3])),
        case("aten::linear.out", T([2, 4, 3], dim_order=[1, 0, 2]), T([5, 3]), T([5]), **f),
        case("aten::linear.out", T([37, 64]), T([50, 64]), T([50]), **f),
        case("aten::linear.out", T([0, 3]), T([4, 3]), T([4])),
        case("aten::linear.out", T([2, 3]), T([4, 3]), T([1])),
        case("aten::linear.out", T([3, 9]), T([20, 9]), T([20]), **f),
    ]
    return out


def conv(x, w, b=None, stride=(1,), padding=(0,), dilation=(1,), transposed=False,
         output_padding=(0,), groups=1, **kw):
    return case("aten::convolution.out", x, w, b, list(stride), list(padding), list(dilation),
                transposed, list(output_padding), groups, **kw)


def conv_cases():
    out = []
    f = tol("float32")
    for dt in REAL:
        out.append(conv(small([2, 3, 6, 5], dt), small([4, 3, 3, 3], dt), small([4], dt),
                        stride=[1, 2], padding=[1], **checked(torch.ops.aten.convolution, dt)))
    for dt in ["float32", "float64", "int64"]:
        out.append(conv(small([1, 4, 4, 5], dt), small([4, 2, 3, 3], dt), small([2 * 2], dt), stride=[2],
                        padding=[1], transposed=True, output_padding=[1], groups=2, **tol(dt)))
    out += [
        conv(T([1, 3, 8, 8]), T([5, 3, 3, 3]), T([5]), **f),
        conv(T([2, 3, 8, 8], channels_last=True), T([5, 3, 3, 3]), T([5]), padding=[1], **f),
        conv(T([1, 3, 9, 7]), T([6, 3, 3, 2]), None, stride=[2, 1], padding=[1, 0], dilation=[2, 1], **f),
        conv(T([1, 8, 7, 7]), T([8, 1, 3, 3]), T([8]), padding=[1], groups=8, name="depthwise", **f),
        conv(T([1, 8, 7, 7], channels_last=True), T([16, 1, 3, 3]), None, stride=[2], padding=[1],
             groups=8, name="depthwise_mult", **f),
        conv(T([1, 6, 5, 5]), T([4, 3, 1, 1]), T([4]), groups=2, **f),
        conv(T([2, 16, 6, 6]), T([24, 16, 1, 1]), T([24]), name="pointwise", **f),
        conv(T([2, 16, 6, 6], channels_last=True), T([24, 16, 1, 1]), None, **f),
        conv(T([1, 32, 10, 10]), T([40, 32, 3, 3]), T([40]), padding=[1], name="k288", **f),
        conv(T([0, 3, 5, 5]), T([4, 3, 3, 3]), T([4])),
        conv(T([1, 1, 1, 1]), T([1, 1, 1, 1]), T([1])),
        # 1-D and 3-D.
        conv(T([2, 4, 11]), T([6, 4, 3]), T([6]), stride=[2], padding=[1], **f),
        conv(T([2, 4, 11]), T([4, 1, 5]), None, padding=[2], dilation=[2], groups=4, **f),
        conv(T([1, 2, 5, 6, 4]), T([3, 2, 3, 3, 2]), T([3]), stride=[1, 2, 1], padding=[1, 1, 0], **f),
        conv(T([1, 2, 4, 5, 3], dim_order=CL5), T([3, 2, 2, 2, 2]), None, **f),
        # Transposed.
        conv(T([1, 3, 4, 4]), T([3, 2, 3, 3]), T([2]), stride=[2], padding=[1], transposed=True,
             output_padding=[1], **f),
        conv(T([2, 4, 5, 3], channels_last=True), T([4, 3, 2, 2]), None, stride=[2, 1], transposed=True, **f),
        conv(T([1, 4, 3, 3]), T([4, 1, 3, 3]), T([4]), padding=[1], dilation=[2], transposed=True,
             groups=4, **f),
        conv(T([2, 3, 7]), T([3, 2, 3]), T([2]), stride=[3], transposed=True, output_padding=[2], **f),
        conv(T([1, 2, 2, 3, 3]), T([2, 2, 2, 2, 2]), None, stride=[2], transposed=True, **f),
    ]
    return out


def conv_backward(x, w, stride=(1,), padding=(0,), dilation=(1,), transposed=False,
                  output_padding=(0,), groups=1, bias=True, dtype="float32", **kw):
    """A convolution_backward case; grad_output takes the forward's output shape."""
    y = torch.ops.aten.convolution(torch.zeros(x.shape), torch.zeros(w.shape), None, list(stride),
                                   list(padding), list(dilation), transposed,
                                   list(output_padding), groups)
    out_ch = w.shape[1] * groups if transposed else w.shape[0]
    go = T(list(y.shape), dtype)
    return case("aten::convolution_backward.out", go, x, w, [out_ch] if bias else None,
                list(stride), list(padding), list(dilation), transposed, list(output_padding),
                groups, [True, True, bias], **kw)


def conv_backward_cases():
    f = tol("float32")
    out = []
    for dt in FLOATS:
        out.append(conv_backward(T([1, 3, 4, 5], dt), T([2, 3, 3, 3], dt), stride=[1, 2],
                                 padding=[1], dtype=dt,
                                 **checked(torch.ops.aten.convolution_backward, dt)))
    out += [
        conv_backward(T([1, 3, 5, 5]), T([4, 3, 3, 3]), **f),
        conv_backward(T([2, 3, 4, 4], channels_last=True), T([4, 3, 3, 3], channels_last=True),
                      padding=[1], **f),
        conv_backward(T([1, 3, 7, 5]), T([4, 3, 3, 2]), stride=[2, 1], padding=[1, 0],
                      dilation=[2, 1], bias=False, **f),
        conv_backward(T([1, 6, 4, 4]), T([6, 1, 3, 3]), padding=[1], groups=6, name="depthwise", **f),
        conv_backward(T([2, 8, 3, 3]), T([6, 4, 1, 1]), groups=2, name="pointwise", **f),
        # Strides that skip input: those elements get no gradient.
        conv_backward(T([1, 2, 6, 6]), T([3, 2, 2, 2]), stride=[3], **f),
        conv_backward(T([0, 3, 5, 5]), T([4, 3, 3, 3])),
        conv_backward(T([2, 4, 11]), T([4, 1, 5]), padding=[2], dilation=[2], groups=4, **f),
        conv_backward(T([1, 2, 4, 5, 3]), T([2, 2, 3, 2, 2]), stride=[1, 2, 1], padding=[1, 1, 0], **f),
        # Transposed.
        conv_backward(T([1, 3, 4, 4]), T([3, 2, 3, 3]), stride=[2], padding=[1], transposed=True,
                      output_padding=[1], **f),
        conv_backward(T([1, 4, 3, 4]), T([4, 2, 3, 3]), stride=[2], padding=[1], transposed=True,
                      output_padding=[1], groups=2, **f),
        conv_backward(T([1, 4, 5, 3], channels_last=True), T([4, 3, 2, 2]), stride=[2, 1],
                      transposed=True, bias=False, **f),
        conv_backward(T([1, 4, 3, 3]), T([4, 1, 3, 3]), padding=[1], dilation=[2], transposed=True,
                      groups=4, **f),
        conv_backward(T([1, 3, 7]), T([3, 2, 3]), stride=[3], transposed=True, output_padding=[2], **f),
        conv_backward(T([1, 2, 2, 3, 3]), T([2, 2, 2, 2, 2]), stride=[2], transposed=True, **f),
    ]
    return out


def pool_cases():
    out = []
    for dt in ["float32", "float64", "bfloat16", "int64", "float16"]:
        kw = {}
        if dt == "float16":
            kw["ref"] = via_float(torch.ops.aten.avg_pool2d, torch.float16)
        out.append(case("aten::avg_pool2d.out", T([2, 3, 7, 6], dt), [3, 2], [2, 2], [1, 1], **kw))
    for dt in ["float32", "float64", "int64"]:
        out.append(case("aten::avg_pool3d.out", T([1, 2, 5, 4, 6], dt), [2, 2, 3], [2], [1], True))
    out += [
        case("aten::avg_pool2d.out", T([1, 2, 8, 8], channels_last=True), [2, 2]),
        case("aten::avg_pool2d.out", T([2, 5, 5]), [3], [2], [1], True, False),
        case("aten::avg_pool2d.out", T([1, 1, 5, 5]), [2], [2], [1], True, True, 3),
        case("aten::avg_pool2d.out", T([1, 1, 4, 4], "int64"), [3], [1], [1], False, True, -2),
        case("aten::avg_pool2d.out", T([0, 2, 4, 4]), [2]),
        case("aten::avg_pool2d.out", T([1, 1, 1, 1]), [1]),
        case("aten::avg_pool3d.out", T([2, 4, 4, 4]), [3], [2], [1], False, False),
        case("aten::avg_pool3d.out", T([1, 2, 4, 4, 4], dim_order=CL5), [2], [], [0], False, True, 5),
    ]
    for dt in ["float32", "float64", "bfloat16"]:
        out.append(case("aten::max_pool2d_with_indices.out", T([2, 3, 7, 6], dt, unique=True), [3, 2],
                        [2, 1], [1, 0]))
        out.append(case("aten::_adaptive_avg_pool2d.out", T([2, 3, 7, 9], dt), [3, 4]))
    for dt in ["float32", "float64"]:
        out.append(case("aten::max_pool3d_with_indices.out", T([1, 2, 5, 6, 4], dt), [2, 3, 2], [2], [1]))
        out.append(case("aten::_adaptive_avg_pool3d.out", T([1, 2, 5, 6, 7], dt), [2, 3, 4]))
    out += [
        case("aten::max_pool2d_with_indices.out", T([1, 4, 8, 8], channels_last=True), [2], [2]),
        case("aten::max_pool2d_with_indices.out", T([3, 9, 9]), [3], [2], [1], [2], True),
        case("aten::max_pool2d_with_indices.out", T([0, 2, 4, 4]), [2]),
        case("aten::max_pool2d_with_indices.out", T([1, 1, 1, 1]), [1]),
        case("aten::max_pool3d_with_indices.out", T([2, 7, 7, 7]), [3], [2], [1], [2], True),
        case("aten::max_pool3d_with_indices.out", T([1, 3, 4, 4, 4], dim_order=CL5), [2]),
        case("aten::max_pool3d_with_indices.out", T([1, 1, 1, 1, 1]), [1]),
        case("aten::_adaptive_avg_pool2d.out", T([1, 4, 7, 7], channels_last=True), [1, 1]),
        case("aten::_adaptive_avg_pool2d.out", T([3, 5, 5]), [7, 2]),
        case("aten::_adaptive_avg_pool2d.out", T([0, 3, 5, 5]), [2, 2]),
        case("aten::_adaptive_avg_pool2d.out", T([1, 1, 4, 4]), [0, 2]),
        case("aten::_adaptive_avg_pool3d.out", T([2, 4, 4, 4]), [1, 1, 1]),
        case("aten::_adaptive_avg_pool3d.out", T([1, 2, 3, 4, 5], dim_order=CL5), [2, 2, 2]),
        case("aten::_adaptive_avg_pool3d.out", T([1, 1, 3, 3, 3], "float16"), [2, 2, 2]),
    ]
    return out


def fold_cases():
    out = []
    for dt in FLOATS:
        out.append(case("aten::im2col.out", T([2, 3, 6, 5], dt), [2, 3], [1, 2], [1, 0], [2, 1]))
        out.append(case("aten::col2im.out", T([2, 12, 8], dt), [4, 5], [2, 2], [1, 1], [0, 0], [2, 1]))
    out += [
        case("aten::im2col.out", T([3, 4, 4]), [3, 3], [1, 1], [1, 1], [1, 1]),
        case("aten::im2col.out", T([1, 2, 5, 5], channels_last=True), [2, 2], [2, 2], [0, 0], [1, 1]),
        case("aten::im2col.out", T([0, 2, 3, 3]), [2, 2], [1, 1], [0, 0], [1, 1]),
        case("aten::im2col.out", T([1, 1, 1, 1]), [1, 1], [1, 1], [0, 0], [1, 1]),
        case("aten::col2im.out", T([18, 9]), [5, 5], [3, 3], [1, 1], [1, 1], [2, 2]),
        case("aten::col2im.out", T([1, 4, 49]), [5, 5], [2, 2], [2, 2], [2, 2], [1, 1]),
        case("aten::col2im.out", T([0, 4, 4]), [3, 3], [2, 2], [1, 1], [0, 0], [1, 1]),
    ]
    return out


def dist_cases():
    out = []
    for dt in ["float32", "float64"]:
        for p in [0.0, 1.0, 2.0, 3.5, float("inf")]:
            out.append(case("aten::_cdist_forward.out", T([3, 5], dt), T([4, 5], dt), p, None))
            out.append(case("aten::_pdist_forward.out", T([5, 4], dt), p))
    out += [
        case("aten::_cdist_forward.out", T([2, 1, 30, 3]), T([3, 27, 3]), 2.0, None, rtol=1e-4, atol=1e-4),
        case("aten::_cdist_forward.out", T([4, 3]), T([2, 3]), 2.0, 2),
        case("aten::_cdist_forward.out", T([0, 3]), T([2, 3]), 2.0, None),
        case("aten::_cdist_forward.out", T([2, 0]), T([2, 0]), 1.0, None),
        case("aten::_cdist_forward.out", T([1, 1]), T([1, 1]), 2.0, None),
        case("aten::_pdist_forward.out", T([1, 3]), 2.0),
        case("aten::_pdist_forward.out", T([0, 3]), 2.0),
    ]
    return out


CASES = mm_cases() + conv_cases() + conv_backward_cases() + pool_cases() + fold_cases() + dist_cases()
