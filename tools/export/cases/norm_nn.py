# Op cases of normalization, resampling, embeddings and pixel shuffles
# (cpp/kernels/tables/norm_nn.inc). torch 1.13 has no float16 CPU kernels for
# the norms and resampling: those cases compute in float32 and round (`ref`),
# as the runtime does. The _native_batch_norm_legit* overloads are newer than
# torch 1.13: their schemas come from PyTorch's native_functions.yaml and the
# reference is native_batch_norm.
import torch

from oplib import DTYPES_BY_NAME, case, T

A = torch.ops.aten
FLOATS = ["float32", "float64", "bfloat16"]
ALL = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
       "bool"]

LEGIT_NO_TRAINING = (
    "_native_batch_norm_legit_no_training.out(Tensor input, Tensor? weight, Tensor? bias, "
    "Tensor running_mean, Tensor running_var, float momentum, float eps, *, Tensor(a!) out0, "
    "Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))")
LEGIT = (
    "_native_batch_norm_legit.out(Tensor input, Tensor? weight, Tensor? bias, "
    "Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, float eps, "
    "*, Tensor(d!) out, Tensor(e!) save_mean, Tensor(f!) save_invstd) -> "
    "(Tensor(d!), Tensor(e!), Tensor(f!))")
LEGIT_NO_STATS = (
    "_native_batch_norm_legit.no_stats_out(Tensor input, Tensor? weight, Tensor? bias, "
    "bool training, float momentum, float eps, *, Tensor(a!) out, Tensor(b!) save_mean, "
    "Tensor(c!) save_invstd) -> (Tensor(a!), Tensor(b!), Tensor(c!))")


def tol(dt):
    """Sums over many elements: float32 needs more than the elementwise default."""
    return dict(rtol=1e-4, atol=1e-5) if dt == "float32" else {}


def half_via_float(fn, dtype=torch.float16):
    """float16 reference: compute in float32, round the floating results."""
    def ref(*args, **kw):
        conv = [a.float() if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                for a in args]
        r = fn(*conv, **kw)
        if isinstance(r, tuple):
            return tuple(x.to(dtype) if x.is_floating_point() else x for x in r)
        return r.to(dtype)
    return ref


def bn_eval(x, w, b, rm, rv, mom, eps):
    return A.native_batch_norm(x, w, b, rm, rv, False, mom, eps)


def bn_legit(x, w, b, rm, rv, training, mom, eps):
    return A.native_batch_norm(x, w, b, rm, rv, training, mom, eps)


def bn_no_stats(x, w, b, training, mom, eps):
    return A.native_batch_norm(x, w, b, None, None, training, mom, eps)


def stats(c, dt):
    """weight, bias, running_mean, running_var of c channels."""
    return T([c], dt), T([c], dt), T([c], dt), T([c], dt, low=0.2, high=2.0)


def batch_norm_cases():
    cases = []
    shapes = [([2, 3, 4, 5], False), ([2, 3, 2, 5], True), ([4, 3], False), ([2, 5, 7], False),
              ([1, 1, 1, 1], False), ([2, 3, 2, 2, 2], False),
              ([1, 8, 3, 3], True)]
    for shape, cl in shapes:
        c = shape[1]
        for dt in (["float32"] if shape != [2, 3, 4, 5] else FLOATS + ["float16"]):
            w, b, rm, rv = stats(c, dt)
            ref = half_via_float(bn_eval) if dt == "float16" else bn_eval
            x = T(shape, dt, channels_last=cl)
            cases.append(case("aten::_native_batch_norm_legit_no_training.out", x, w, b, rm, rv,
                              0.1, 1e-5, schema=LEGIT_NO_TRAINING, ref=ref))
            ref = half_via_float(A.native_batch_norm) if dt == "float16" else None
            cases.append(case("aten::native_batch_norm.out", x, w, b, rm, rv, False, 0.1, 1e-5,
                              ref=ref))
            if shape[0] * (x.shape[2] if len(shape) > 2 else 1) > 1:
                cases.append(case("aten::native_batch_norm.out", x, w, b, rm, rv, True, 0.1,
                                  1e-5, ref=ref, **tol(dt)))
                cases.append(case("aten::_native_batch_norm_legit.out", x, w, b, rm, rv, True,
                                  0.1, 1e-5, schema=LEGIT,
                                  ref=half_via_float(bn_legit) if dt == "float16" else bn_legit,
                                  **tol(dt)))
                cases.append(case("aten::_native_batch_norm_legit.no_stats_out", x, None, None,
                                  True, 0.1, 1e-5, schema=LEGIT_NO_STATS,
                                  ref=half_via_float(bn_no_stats) if dt == "float16" else bn_no_stats,
                                  **tol(dt)))
    # Size 0 (torch 1.13's CPU kernel divides by zero here): an empty out.
    def empty_ref(x, *rest):
        return x.clone(), x.new_empty([0]), x.new_empty([0])
    cases.append(case("aten::_native_batch_norm_legit_no_training.out", T([0, 3, 2, 2]),
                      *stats(3, "float32"), 0.1, 1e-5, schema=LEGIT_NO_TRAINING, ref=empty_ref))
    # No weight / bias; evaluation through _native_batch_norm_legit.out.
    _, _, rm, rv = stats(3, "float32")
    cases.append(case("aten::_native_batch_norm_legit_no_training.out", T([2, 3, 4, 4]), None,
                      None, rm, rv, 0.1, 1e-3, schema=LEGIT_NO_TRAINING, ref=bn_eval))
    cases.append(case("aten::_native_batch_norm_legit.out", T([2, 3, 4, 4], channels_last=True),
                      *stats(3, "float32"), False, 0.1, 1e-5, schema=LEGIT, ref=bn_legit))
    return cases


def layer_norm_cases():
    cases = []
    for dt in FLOATS + ["float16"]:
        ref = half_via_float(A.native_layer_norm) if dt == "float16" else None
        cases.append(case("aten::native_layer_norm.out", T([2, 3, 4, 5], dt), [4, 5],
                          T([4, 5], dt), T([4, 5], dt), 1e-5, ref=ref, **tol(dt)))
    for shape, norm, affine, cl in [([2, 3, 4, 5], [5], True, True), ([2, 3, 4, 5], [3, 4, 5], False, True),
                                    ([4, 300], [300], True, False), ([3, 1], [1], True, False),
                                    ([0, 4], [4], True, False), ([3, 0], [0], False, False),
                                    ([7], [7], True, False), ([2, 2, 3], [2, 3], False, False),
                                    ([5, 33], [33], True, False)]:
        w = T(norm) if affine else None
        b = T(norm) if affine else None
        cases.append(case("aten::native_layer_norm.out", T(shape, channels_last=cl), norm, w, b,
                          1e-5, **tol("float32")))
    cases.append(case("aten::native_layer_norm.out", T([4, 6]), [6], T([6]), None, 1e-5,
                      **tol("float32")))
    return cases


def group_norm_cases():
    cases = []
    for dt in FLOATS + ["float16"]:
        ref = half_via_float(A.native_group_norm) if dt == "float16" else None
        cases.append(case("aten::native_group_norm.out", T([2, 6, 4, 4], dt), T([6], dt),
                          T([6], dt), 2, 6, 16, 3, 1e-5, ref=ref, **tol(dt)))
    for shape, g, affine, cl in [([2, 6, 4, 4], 2, True, True), ([2, 4], 4, True, False),
                                 ([3, 8, 5], 1, False, False), ([0, 4, 3], 2, True, False),
                                 ([2, 6, 3, 3], 6, True, True), ([1, 4, 2, 3, 2], 2, True, False)]:
        n, c = shape[0], shape[1]
        hxw = 1
        for s in shape[2:]:
            hxw *= s
        w = T([c]) if affine else None
        b = T([c]) if affine else None
        cases.append(case("aten::native_group_norm.out", T(shape, channels_last=cl), w, b, n, c,
                          hxw, g, 1e-5, **tol("float32")))
    return cases


def group_norm_backward(shape, group, dt="float32", affine=True, cl=False, **kw):
    n, c = shape[0], shape[1]
    hxw = 1
    for d in shape[2:]:
        hxw *= d
    return case("aten::native_group_norm_backward.out", T(shape, dt, channels_last=cl),
                T(shape, dt, channels_last=cl), T([n, group], dt),
                T([n, group], dt, low=0.5, high=2.0), T([c], dt) if affine else None, n, c, hxw,
                group, [True, affine, affine], **kw)


def contiguous_group_norm_backward(*args):
    """torch 1.13's CPU group_norm_backward is wrong for channels-last
    input (its dx, dweight and dbias differ from the same values stored
    contiguously), so the reference gets contiguous copies."""
    return A.native_group_norm_backward(
        *[a.contiguous() if isinstance(a, torch.Tensor) else a for a in args])


def group_norm_backward_cases():
    cases = []
    for dt in FLOATS + ["float16"]:
        # torch rounds bfloat16 intermediates; the runtime computes in float.
        ref = (half_via_float(A.native_group_norm_backward, DTYPES_BY_NAME[dt])
               if dt in ("float16", "bfloat16") else None)
        cases.append(group_norm_backward([2, 6, 4, 4], 3, dt, ref=ref, **tol(dt)))
    for shape, g, affine, cl in [([2, 6, 4, 4], 2, True, True), ([2, 4], 4, True, False),
                                 ([3, 8, 5], 1, False, False), ([0, 4, 3], 2, True, False),
                                 ([2, 6, 3, 3], 6, True, True), ([1, 4, 2, 3, 2], 2, True, False),
                                 ([2, 4, 0], 2, True, False)]:
        cases.append(group_norm_backward(shape, g, affine=affine, cl=cl,
                                         ref=contiguous_group_norm_backward if cl else None,
                                         **tol("float32")))
    return cases


def upsample_cases():
    cases = []
    for dt in FLOATS + ["uint8", "float16"]:
        ref = (half_via_float(lambda x, s, h=None, w=None: A.upsample_nearest2d(x, s, h, w))
               if dt == "float16" else None)
        cases.append(case("aten::upsample_nearest2d.out", T([2, 3, 4, 5], dt), [8, 10], ref=ref))
    for args in [([7, 3], None, None), ([5, 4], 1.7, 1.3), ([3, 3], None, None), ([1, 1], None, None),
                 ([4, 5], None, None)]:
        cases.append(case("aten::upsample_nearest2d.out", T([1, 2, 4, 5], channels_last=True),
                          *args))
    cases.append(case("aten::upsample_nearest2d.out", T([0, 2, 3, 3]), [6, 6]))
    for size, factors in [(None, [2.0, 2.0]), (None, [1.5, 0.5]), ([5, 7], None), (None, [0.3, 3.7])]:
        cases.append(case("aten::upsample_nearest2d.vec_out", T([2, 3, 6, 4], channels_last=True),
                          size, factors))
    for dt in FLOATS + ["float16"]:
        for align in [False, True]:
            # torch 1.13 rounds bfloat16 interpolation weights to bfloat16;
            # the runtime (and newer PyTorch) keeps them in float32.
            ref = (half_via_float(lambda x, s, a, h=None, w=None: A.upsample_bilinear2d(x, s, a, h, w),
                                  getattr(torch, dt))
                   if dt in ("float16", "bfloat16") else None)
            cases.append(case("aten::upsample_bilinear2d.out", T([2, 3, 4, 5], dt), [7, 9], align,
                              ref=ref))
    for args in [([3, 2], False, None, None), ([3, 2], True, None, None), ([9, 11], False, 2.5, 2.5),
                 ([1, 1], True, None, None), ([1, 1], False, None, None), ([4, 5], False, None, None)]:
        cases.append(case("aten::upsample_bilinear2d.out", T([1, 2, 4, 5], channels_last=True),
                          *args))
    cases.append(case("aten::upsample_bilinear2d.out", T([0, 2, 3, 3]), [6, 6], False))
    for size, align, factors in [(None, False, [2.0, 2.0]), (None, True, [1.5, 0.7]),
                                 ([5, 7], False, None), (None, False, [0.5, 0.5])]:
        cases.append(case("aten::upsample_bilinear2d.vec_out", T([2, 3, 6, 4], channels_last=True),
                          size, align, factors))
    for dt in FLOATS + ["uint8"]:
        cases.append(case("aten::upsample_nearest1d.out", T([2, 3, 5], dt), [12]))
    cases.append(case("aten::upsample_nearest1d.out", T([2, 3, 5]), [3], 0.7))
    cases.append(case("aten::upsample_nearest1d.vec_out", T([2, 3, 5]), None, [2.5]))
    cases.append(case("aten::upsample_nearest1d.vec_out", T([2, 3, 5]), [4], None))
    for dt in FLOATS:
        for align in [False, True]:
            ref = (half_via_float(lambda x, s, a, sc=None: A.upsample_linear1d(x, s, a, sc),
                                  torch.bfloat16) if dt == "bfloat16" else None)
            cases.append(case("aten::upsample_linear1d.out", T([2, 3, 5], dt), [12], align, ref=ref))
    cases.append(case("aten::upsample_linear1d.out", T([2, 3, 5]), [3], False, 0.7))
    cases.append(case("aten::upsample_linear1d.out", T([1, 1, 1]), [4], True))
    cases.append(case("aten::upsample_linear1d.vec_out", T([2, 3, 5]), None, False, [2.5]))
    cases.append(case("aten::upsample_linear1d.vec_out", T([2, 3, 5]), [8], True, None))
    return cases


def shuffle_cases():
    cases = []
    for dt in ALL:
        cases.append(case("aten::pixel_shuffle.out", T([2, 8, 3, 4], dt), 2))
        cases.append(case("aten::pixel_unshuffle.out", T([2, 2, 6, 4], dt), 2))
    for shape, r, cl in [([1, 9, 2, 2], 3, True), ([4, 3, 3], 1, False), ([2, 1, 4, 1, 1], 1, False),
                         ([0, 4, 2, 2], 2, False), ([2, 3, 4, 2, 2], 2, False)]:
        cases.append(case("aten::pixel_shuffle.out", T(shape, channels_last=cl), r))
    for shape, r, cl in [([1, 1, 6, 6], 3, True), ([2, 3, 4, 4], 2, True), ([4, 2, 2], 2, False)]:
        cases.append(case("aten::pixel_unshuffle.out", T(shape, channels_last=cl), r))
    # torch 1.13 returns an empty input unchanged ([0, 1, 2, 2]); the shape is
    # [0, 4, 1, 1] (as in PyTorch's shape functions).
    cases.append(case("aten::pixel_unshuffle.out", T([0, 1, 2, 2]), 2,
                      ref=lambda x, r: x.new_empty([0, 4, 1, 1])))
    return cases


def embedding_cases():
    cases = []
    for dt in ALL:
        cases.append(case("aten::embedding.out", T([10, 4], dt), T([3, 5], "int64", low=0, high=10)))
    for idt in ["int32", "int64"]:
        cases.append(case("aten::embedding.out", T([7, 3]), T([6], idt, low=0, high=7), 2))
    cases.append(case("aten::embedding.out", T([7, 3]), T([0], "int64", low=0, high=7)))
    cases.append(case("aten::embedding.out", T([7, 3]), T([2, 2, 2], "int64", low=0, high=7)))
    cases.append(case("aten::embedding.out", T([7, 0]), T([4], "int64", low=0, high=7)))
    cases.append(case("aten::embedding.out", T([5, 3]), T([], "int64", values=[4])))
    return cases


EMBEDDING_BAG_CHECKS = {
    # ATen leaves bag_size (sum mode) and max_indices (sum, mean) uninitialized.
    0: "values,values,shape,shape", 1: "values,values,values,shape", 2: "values"}


def embedding_bag(weight, indices, offsets, mode, psw=None, include_last=False, padding_idx=-1,
                  **kw):
    idx = T([len(indices)], kw.pop("idt", "int64"), values=indices)
    off = T([len(offsets)], kw.pop("odt", "int64"), values=offsets)
    return case("aten::_embedding_bag.out", weight, idx, off, False, mode, False, psw,
                include_last, padding_idx, check=EMBEDDING_BAG_CHECKS[mode], **kw)


def embedding_bag_cases():
    cases = []
    idx = [1, 2, 4, 5, 4, 3, 2, 9, 0]
    for dt in ["float32", "float64", "float16"]:
        for mode in [0, 1, 2]:
            # An empty bag; ATen's float max "fast path" leaves it unwritten, so not there.
            offsets = [0, 3, 5, 7] if mode == 2 and dt != "float64" else [0, 3, 3, 7]
            cases.append(embedding_bag(T([10, 5], dt), idx, offsets, mode, **tol(dt)))
    for mode in [0, 1, 2]:
        # padding_idx 4: skipped, and not counted in a bag's size; bag 2 is all padding.
        cases.append(embedding_bag(T([10, 3]), [1, 4, 5, 4, 4, 2, 9], [0, 3, 4, 5], mode,
                                   padding_idx=4, **tol("float32")))
        cases.append(embedding_bag(T([10, 3]), idx, [0, 2, 5, 9], mode, include_last=True,
                                   **tol("float32")))
    for dt in ["float32", "float64"]:
        cases.append(embedding_bag(T([10, 4], dt), idx, [0, 4, 6], 0, psw=T([9], dt), **tol(dt)))
    cases.append(embedding_bag(T([10, 4]), idx, [0, 4, 6], 1, idt="int32", odt="int32"))
    cases.append(embedding_bag(T([10, 4]), idx, [0, 4, 6], 2, idt="int32", odt="int64"))
    cases.append(embedding_bag(T([10, 4]), [], [0, 0], 1))
    cases.append(embedding_bag(T([6, 130]), [1, 5, 0, 2, 3], [0, 2], 1, **tol("float32")))
    cases.append(embedding_bag(T([6, 3]), [1, 5, 0, 2, 3], [0, 2], 1, padding_idx=-3))
    return cases


def grid_sampler_cases():
    cases = []
    # Points up to 30% beyond [-1, 1] exercise every padding mode.
    def grid(shape, dt="float32"):
        return T(shape, dt, low=-1.3, high=1.3)
    for interp in [0, 1, 2]:
        for padding in [0, 1, 2]:
            for align in [False, True]:
                cases.append(case("aten::grid_sampler_2d.out", T([2, 3, 5, 6]), grid([2, 4, 3, 2]),
                                  interp, padding, align, **tol("float32")))
    cases.append(case("aten::grid_sampler_2d.out", T([1, 2, 4, 4], "float64"),
                      grid([1, 3, 5, 2], "float64"), 0, 0, False))
    cases.append(case("aten::grid_sampler_2d.out", T([1, 2, 4, 4], "float64"),
                      grid([1, 3, 5, 2], "float64"), 2, 2, True))
    for dt in ["float16", "bfloat16"]:
        cases.append(case("aten::grid_sampler_2d.out", T([1, 2, 4, 4], dt), grid([1, 3, 5, 2], dt),
                          0, 1, False, ref=half_via_float(A.grid_sampler_2d, DTYPES_BY_NAME[dt])))
    cases.append(case("aten::grid_sampler_2d.out", T([2, 3, 5, 4], channels_last=True),
                      grid([2, 2, 3, 2]), 0, 0, False, **tol("float32")))
    cases.append(case("aten::grid_sampler_2d.out", T([1, 1, 1, 1]), grid([1, 2, 2, 2]), 2, 2, False,
                      **tol("float32")))
    cases.append(case("aten::grid_sampler_2d.out", T([0, 2, 3, 3]), grid([0, 2, 2, 2]), 0, 0, False))
    cases.append(case("aten::grid_sampler_2d.out", T([1, 2, 3, 3]), grid([1, 0, 2, 2]), 1, 0, True))
    return cases


def backward_cases():
    cases = []
    for dt in FLOATS:
        cases.append(case("aten::_adaptive_avg_pool2d_backward.out", T([2, 3, 3, 2], dt),
                          T([2, 3, 7, 5], dt)))
        cases.append(case("aten::avg_pool2d_backward.grad_input", T([2, 3, 3, 3], dt),
                          T([2, 3, 6, 6], dt), [3, 3], [2, 2], [1, 1], False, True, None))
        cases.append(case("aten::max_pool2d_with_indices_backward.grad_input", T([2, 3, 2, 3], dt),
                          T([2, 3, 4, 6], dt), [2, 2], [2, 2], [0, 0], [1, 1], False,
                          T([2, 3, 2, 3], "int64", low=0, high=20)))
        cases.append(case("aten::embedding_dense_backward.out", T([4, 5, 3], dt),
                          T([4, 5], "int64", low=0, high=6), 6, 2, False))
        cases.append(case("aten::native_layer_norm_backward.out", T([2, 3, 4], dt),
                          T([2, 3, 4], dt), [4], T([2, 3, 1], dt),
                          T([2, 3, 1], dt, low=0.5, high=2.0), T([4], dt), T([4], dt),
                          [True, True, True], **tol(dt)))
    for g, x in [([1, 2, 1, 1], [1, 2, 5, 4]), ([2, 2, 4, 4], [2, 2, 4, 4]), ([3, 2, 2], [3, 5, 7])]:
        cases.append(case("aten::_adaptive_avg_pool2d_backward.out", T(g), T(x)))
    cases.append(case("aten::_adaptive_avg_pool2d_backward.out", T([2, 3, 2, 2], channels_last=True),
                      T([2, 3, 5, 5], channels_last=True)))
    for g, x, k, st, pad, ceil, inc, div in [
            ([1, 2, 3, 3], [1, 2, 5, 5], [2, 2], [2, 2], [0, 0], True, True, None),
            ([1, 2, 3, 3], [1, 2, 5, 5], [3, 3], [2, 2], [1, 1], False, False, None),
            ([1, 2, 4, 4], [1, 2, 4, 4], [3, 3], [1, 1], [1, 1], False, True, 4),
            ([2, 2, 2], [2, 5, 4], [2, 2], [], [0, 0], False, True, None)]:
        cases.append(case("aten::avg_pool2d_backward.grad_input", T(g), T(x), k, st, pad, ceil,
                          inc, div))
    cases.append(case("aten::avg_pool2d_backward.grad_input", T([2, 3, 3, 3], channels_last=True),
                      T([2, 3, 6, 6], channels_last=True), [2, 2], [2, 2], [0, 0], False, True, None))
    cases.append(case("aten::max_pool2d_with_indices_backward.grad_input",
                      T([2, 3, 2, 2], channels_last=True), T([2, 3, 4, 4], channels_last=True),
                      [2, 2], [2, 2], [0, 0], [1, 1], False,
                      T([2, 3, 2, 2], "int64", low=0, high=16)))
    cases.append(case("aten::max_pool2d_with_indices_backward.grad_input", T([3, 2, 2]),
                      T([3, 4, 4]), [2, 2], [2, 2], [0, 0], [1, 1], False,
                      T([3, 2, 2], "int64", low=0, high=16)))
    # Integer grads: each window's share is an integer division (toward
    # zero), and scale_grad_by_freq scales by the integer 1 / count.
    for dt in ["int64"]:  # torch 1.13 has no Int kernel
        cases.append(case("aten::avg_pool2d_backward.grad_input", T([1, 2, 3, 3], dt),
                          T([1, 2, 5, 5], dt), [3, 3], [2, 2], [1, 1], False, True, None))
        cases.append(case("aten::avg_pool2d_backward.grad_input", T([1, 2, 3, 3], dt),
                          T([1, 2, 5, 5], dt), [2, 2], [2, 2], [0, 0], True, False, 3))
    for dt in ["int64", "int8", "bool"]:
        cases.append(case("aten::embedding_dense_backward.out", T([6, 3], dt),
                          T([6], "int64", values=[1, 1, 0, 3, 1, 0]), 4, -1, False))
    cases.append(case("aten::embedding_dense_backward.out", T([6, 3], "int64"),
                      T([6], "int64", values=[1, 1, 0, 3, 1, 0]), 4, 3, True))
    for idt in ["int32", "int64"]:
        cases.append(case("aten::embedding_dense_backward.out", T([7, 4]),
                          T([7], idt, low=0, high=5), 5, -1, True))
    cases.append(case("aten::embedding_dense_backward.out", T([0, 4]), T([0], "int64"), 5, -1,
                      False))
    cases.append(case("aten::embedding_dense_backward.out", T([2, 3, 4]),
                      T([2, 3], "int64", low=0, high=3), 3, 1, True))
    cases.append(case("aten::native_layer_norm_backward.out", T([2, 3, 4, 5], channels_last=True),
                      T([2, 3, 4, 5], channels_last=True), [4, 5], T([2, 3, 1, 1]),
                      T([2, 3, 1, 1], low=0.5, high=2.0), T([4, 5]), T([4, 5]),
                      [True, True, True], **tol("float32")))
    cases.append(case("aten::native_layer_norm_backward.out", T([6, 33]), T([6, 33]), [33],
                      T([6, 1]), T([6, 1], low=0.5, high=2.0), T([33]), T([33]),
                      [True, True, True], **tol("float32")))
    return cases


CASES = (batch_norm_cases() + layer_norm_cases() + group_norm_cases() + group_norm_backward_cases() +
         embedding_bag_cases() + grid_sampler_cases() + upsample_cases() +
         shuffle_cases() + embedding_cases() + backward_cases())

# Anti-aliased bilinear resizing (torchvision's resize(antialias=True)):
# shrinking (where the filter widens), growing, one output, scales given.
AA = "aten::_upsample_bilinear2d_aa.out"
CASES += [case(AA, T([2, 3, 9, 11], dt), [4, 5], align) for dt in ["float32", "float64"]
          for align in [False, True]]
CASES += [case(AA, T([1, 2, 4, 5]), [7, 9], False),
          case(AA, T([1, 2, 4, 5]), [7, 9], True),
          case(AA, T([1, 2, 16, 16]), [3, 5], False),
          case(AA, T([1, 1, 6, 6]), [1, 1], False),
          case(AA, T([1, 2, 8, 10]), [3, 4], False, 0.4, 0.4),
          case(AA, T([1, 2, 8, 10], channels_last=True), [5, 3], False),
          case(AA, T([1, 3, 32, 32]), [7, 7], False)]
