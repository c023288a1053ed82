"""Ops that ExecuTorch's LLM exports write (export_llama, optimum-executorch) and the
rest of kernels/quantized/quantized.yaml: quantized_decomposed::embedding_{byte,2bit,4bit},
mixed_mm, mixed_linear, add, and llama::sdpa_with_kv_cache, custom_sdpa,
custom_quantized_sdpa, update_cache, update_cache_with_indices.

torch 1.13 has none of them: every case gives the schema (ExecuTorch's) and a
reference in plain torch written from the public semantics (see
/tmp/s33/llm_ops_spec.md when it is around):

- embedding_*: row `indices[i]` of the unpacked weight, (w - zp) * scale in
  float32, then rounded once to the out dtype. Packing: byte = the int8/uint8
  value itself; 4bit = high nibble first, value = nibble - 8; 2bit = lowest
  crumb first, value = crumb - 2. Scales [V] (one per row) or [V, G] (G groups
  of D / G consecutive columns). Zero points: same shape as the scales, of the
  out dtype (ExecuTorch reads them as the scales' type, so the cases with zero
  points have scales, zero points and out of one dtype).
- mixed_mm: out[i, j] = sum_k x[i, k] * w[k, j] * s[k] (scales per weight row).
- mixed_linear: out[i, j] = sum_k x[i, k] * w[j, k] * s[j, k // g], g = ceil(n / G).
- add: dequantize both (float32), add, requantize (round half to even).
- sdpa: layout [B, S, H, D]; keys 0 .. start_pos + S - 1 without a mask (row r
  sees keys <= start_pos + r when causal); with a float mask [S, L] the whole
  cache of length L, scores * scale + mask. GQA: query head h uses kv head
  h // (Hq / Hkv). Dropout ignored. scale=None is 1 / sqrt(D).
- update_cache*: the op writes into its `cache` input and returns a
  placeholder out it never writes; the harness compares only outs, so these
  cases check dtype and shape of the placeholder (check="shape").
"""
import math

import torch

from oplib import T, case

QD = "quantized_decomposed::"
LL = "llama::"

EMB_ARGS = ("Tensor weight, Tensor weight_scales, Tensor? weight_zero_points, "
            "int weight_quant_min, int weight_quant_max, Tensor indices")
EMB_OUT = "(" + EMB_ARGS + ", *, Tensor(a!) out) -> Tensor(a!)"
# embedding_byte.dtype_out declares dtype kwarg-only; ExecuTorch's quantized.yaml
# declares embedding_4bit.dtype_out's dtype positional (the Python library
# definition: kwarg-only). The emitted call is the same either way:
# (weight, scales, zps, qmin, qmax, indices, dtype, out, out).
EMB_DTYPE_OUT = "(" + EMB_ARGS + ", *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)"
EMB_SCHEMAS = {
    8: (QD + "embedding_byte.out" + EMB_OUT, QD + "embedding_byte.dtype_out" + EMB_DTYPE_OUT),
    4: (QD + "embedding_4bit.out" + EMB_OUT, QD + "embedding_4bit.dtype_out" + EMB_DTYPE_OUT),
    2: (QD + "embedding_2bit.out" + EMB_OUT, QD + "embedding_2bit.dtype_out" + EMB_DTYPE_OUT),
}
EMB_OPS = {8: "embedding_byte", 4: "embedding_4bit", 2: "embedding_2bit"}
QRANGE = {8: (-128, 127), 4: (-8, 7), 2: (-2, 1)}

MIXED_MM = (QD + "mixed_mm.out(Tensor input, Tensor weight, Tensor weight_scales, "
            "Tensor? weight_zero_points, *, Tensor(a!) out) -> Tensor(a!)")
MIXED_LINEAR = (QD + "mixed_linear.out(Tensor input, Tensor weight, Tensor weight_scales, "
                "Tensor? weight_zero_points, ScalarType? dtype=None, *, Tensor(a!) out) "
                "-> Tensor(a!)")
QADD = (QD + "add.out(Tensor a, float a_scale, int a_zero_point, int a_quant_min, "
        "int a_quant_max, Tensor b, float b_scale, int b_zero_point, int b_quant_min, "
        "int b_quant_max, float out_scale, int out_zero_point, int out_quant_min, "
        "int out_quant_max, *, Tensor(a!) out) -> Tensor(a!)")

SDPA_KV = (LL + "sdpa_with_kv_cache.out(Tensor query, Tensor key, Tensor value, "
           "Tensor(a!) key_cache, Tensor(b!) value_cache, SymInt start_pos, SymInt seq_len, "
           "Tensor? attn_mask=None, float drpout_p=0.0, bool is_causal=False, "
           "float? scale=None, *, Tensor(c!) out) -> Tensor(c!)")
CUSTOM_SDPA = (LL + "custom_sdpa.out(Tensor query, Tensor key, Tensor value, SymInt start_pos, "
               "Tensor? attn_mask=None, float drpout_p=0.0, bool is_causal=False, "
               "float? scale=None, *, Tensor(a!) out) -> Tensor(a!)")
CUSTOM_QSDPA = (LL + "custom_quantized_sdpa.out(Tensor query, Tensor key, Tensor value, "
                "SymInt start_pos, Tensor? attn_mask=None, float drpout_p=0.0, "
                "bool is_causal=False, float? scale=None, Tensor? q_zero_points=None, "
                "Tensor? q_scales=None, Tensor? k_zero_points=None, Tensor? k_scales=None, "
                "Tensor? v_zero_points=None, Tensor? v_scales=None, bool is_seq_at_dim_2=False, "
                "*, Tensor(a!) out) -> Tensor(a!)")
UPDATE_CACHE = (LL + "update_cache.out(Tensor value, Tensor(a!) cache, SymInt start_pos, *, "
                "Tensor(b!) out) -> Tensor(b!)")
UPDATE_CACHE_IDX = (LL + "update_cache_with_indices.out(Tensor value, Tensor(a!) cache, "
                    "SymInt start_pos, Tensor indices, *, Tensor(b!) out) -> Tensor(b!)")


# -- embeddings ----------------------------------------------------------------

def unpack(weight, nbit):
    """[V, packed] -> [V, D] int64 quantized values."""
    w = weight.to(torch.int64)
    if nbit == 8:
        return w
    if nbit == 4:
        parts = [(w >> 4) & 15, w & 15]          # element 2j: high nibble, 2j+1: low
        off = 8
    else:
        parts = [(w >> s) & 3 for s in (0, 2, 4, 6)]  # element 4j+t: bits 2t..2t+1
        off = 2
    return torch.stack(parts, dim=-1).reshape(w.shape[0], -1) - off


def emb_ref(nbit):
    def ref(weight, scales, zps, qmin, qmax, indices, dtype=None):
        w = unpack(weight, nbit)
        rows, dim = w.shape
        groups = scales.shape[1] if scales.dim() == 2 else 1
        size = dim // groups

        def per_col(p):
            return p.reshape(rows, groups).to(torch.float32).repeat_interleave(size, dim=1)
        deq = w.to(torch.float32)
        if zps is not None:
            deq = deq - per_col(zps)
        deq = deq * per_col(scales)
        out_dtype = dtype if dtype is not None else scales.dtype
        return deq[indices.to(torch.int64)].to(out_dtype)
    return ref


def packed(rows, dim, nbit):
    """Random packed weight of `rows` x `dim` values."""
    if nbit == 8:
        return T([rows, dim], "int8", low=-128, high=128)
    return T([rows, dim * nbit // 8], "uint8", low=0, high=256)


def emb_cases(nbit):
    out_op, dtype_op = (QD + EMB_OPS[nbit] + ".out", QD + EMB_OPS[nbit] + ".dtype_out")
    s_out, s_dtype = EMB_SCHEMAS[nbit]
    qmin, qmax = QRANGE[nbit]
    ref = emb_ref(nbit)
    f32, f16 = "float32", "float16"

    def scales(rows, groups, dt):
        return T([rows] if groups is None else [rows, groups], dt, low=0.005, high=0.05)

    def zps(rows, groups, dt):
        return T([rows] if groups is None else [rows, groups], dt, low=-4, high=4)

    def idx(shape, rows, dt="int64"):
        return T(shape, dt, low=0, high=rows)

    d8 = {8: 12, 4: 12, 2: 12}[nbit]       # embedding dim (a multiple of 4)
    odd = {8: 15, 4: 10, 2: 12}[nbit]      # odd groups: 15 = 3 x 5, 10 = 2 x 5, 12 = 4 x 3
    odd_groups = {8: 3, 4: 2, 2: 4}[nbit]
    cs = [
        # per-row scales, no zero points
        case(out_op, packed(7, d8, nbit), scales(7, None, f32), None, qmin, qmax,
             idx([5], 7), schema=s_out, ref=ref, name="row"),
        # per-row scales with zero points
        case(out_op, packed(7, d8, nbit), scales(7, None, f32), zps(7, None, f32), qmin, qmax,
             idx([5], 7), schema=s_out, ref=ref, name="row_zp"),
        # group-wise, groups of 4 (3 groups of d8=12)
        case(out_op, packed(6, d8, nbit), scales(6, 3, f32), None, qmin, qmax,
             idx([2, 3], 6), schema=s_out, ref=ref, name="group"),
        case(out_op, packed(6, d8, nbit), scales(6, 3, f32), zps(6, 3, f32), qmin, qmax,
             idx([2, 3], 6), schema=s_out, ref=ref, name="group_zp"),
        # odd group size, odd row count, repeated indices, first and last row
        case(out_op, packed(5, odd, nbit), scales(5, odd_groups, f32),
             zps(5, odd_groups, f32), qmin, qmax,
             T([6], "int64", values=[4, 0, 4, 2, 0, 1]), schema=s_out, ref=ref, name="odd"),
        # 2-D scales with one group (= per row)
        case(out_op, packed(4, d8, nbit), scales(4, 1, f32), zps(4, 1, f32), qmin, qmax,
             idx([3], 4), schema=s_out, ref=ref, name="one_group"),
        # no indices, and a 0-d index
        case(out_op, packed(4, d8, nbit), scales(4, None, f32), None, qmin, qmax,
             T([0], "int64"), schema=s_out, ref=ref, name="empty"),
        case(out_op, packed(4, d8, nbit), scales(4, 2, f32), None, qmin, qmax,
             T([], "int64", values=[3]), schema=s_out, ref=ref, name="scalar_index"),
        # float16 scales (and zero points): float16 out
        case(out_op, packed(6, d8, nbit), scales(6, 3, f16), zps(6, 3, f16), qmin, qmax,
             idx([4], 6), schema=s_out, ref=ref, name="f16"),
        case(out_op, packed(6, d8, nbit), scales(6, None, f16), None, qmin, qmax,
             idx([2, 2], 6), schema=s_out, ref=ref, name="f16_row"),
        # dtype_out: the dtype argument picks the out dtype
        case(dtype_op, packed(6, d8, nbit), scales(6, 3, f16), None, qmin, qmax,
             idx([4], 6), dtype=torch.float32, schema=s_dtype, ref=ref, name="f16_to_f32"),
        case(dtype_op, packed(6, d8, nbit), scales(6, 3, f32), None, qmin, qmax,
             idx([4], 6), dtype=torch.float16, schema=s_dtype, ref=ref, name="f32_to_f16"),
        case(dtype_op, packed(6, d8, nbit), scales(6, None, f32), zps(6, None, f32), qmin, qmax,
             idx([2, 3], 6), dtype=torch.float32, schema=s_dtype, ref=ref, name="f32_zp"),
        case(dtype_op, packed(6, d8, nbit), scales(6, 3, f16), zps(6, 3, f16), qmin, qmax,
             idx([5], 6), dtype=torch.float16, schema=s_dtype, ref=ref, name="f16_zp"),
        case(dtype_op, packed(5, odd, nbit), scales(5, odd_groups, f32), None, qmin, qmax,
             idx([3], 5), dtype=None, schema=s_dtype, ref=ref, name="dtype_none"),
        case(dtype_op, packed(4, d8, nbit), scales(4, None, f32), None, qmin, qmax,
             T([0, 2], "int64"), dtype=torch.float32, schema=s_dtype, ref=ref, name="empty"),
    ]
    if nbit == 8:
        # uint8 weights are used as they are (no offset)
        cs.append(case(out_op, T([5, 8], "uint8", low=0, high=256), scales(5, 2, f32),
                       zps(5, 2, f32), 0, 255, idx([4], 5), schema=s_out, ref=ref,
                       name="uint8"))
        cs.append(case(dtype_op, T([5, 8], "uint8", low=0, high=256), scales(5, None, f16),
                       None, 0, 255, idx([3], 5), dtype=torch.float32, schema=s_dtype,
                       ref=ref, name="uint8"))
    else:
        # sub-byte embeddings also take int32 indices
        cs.append(case(out_op, packed(6, d8, nbit), scales(6, 3, f32), zps(6, 3, f32), qmin,
                       qmax, idx([4], 6, "int32"), schema=s_out, ref=ref, name="int32_indices"))
        cs.append(case(dtype_op, packed(6, d8, nbit), scales(6, 3, f32), None, qmin, qmax,
                       idx([2, 2], 6, "int32"), dtype=torch.float16, schema=s_dtype, ref=ref,
                       name="int32_indices"))
    # every packed value, in order: row r holds bytes r*step .. so that each
    # nibble / crumb position sees every value
    if nbit == 4:
        allw = T([16, 4], "uint8", values=[(17 * i + 3 * (i // 16)) % 256 for i in range(64)])
        cs.append(case(out_op, allw, T([16], f32, values=[1.0] * 16), None, qmin, qmax,
                       T([16], "int64", values=list(range(16))), schema=s_out, ref=ref,
                       name="all_nibbles"))
    elif nbit == 2:
        allw = T([16, 4], "uint8", values=[(37 * i + 11) % 256 for i in range(64)])
        cs.append(case(out_op, allw, T([16], f32, values=[1.0] * 16), None, qmin, qmax,
                       T([16], "int64", values=list(range(16))), schema=s_out, ref=ref,
                       name="all_crumbs"))
    else:
        allw = T([4, 64], "int8", values=[i - 128 for i in range(256)])
        cs.append(case(out_op, allw, T([4], f32, values=[1.0] * 4), None, qmin, qmax,
                       T([4], "int64", values=[0, 1, 2, 3]), schema=s_out, ref=ref,
                       name="all_bytes"))
    return cs


# -- mixed_mm / mixed_linear ---------------------------------------------------

def mixed_mm_ref(x, w, s, zps):
    res = x.to(torch.float64) @ (w.to(torch.float64) * s.to(torch.float64)[:, None])
    return res.to(x.dtype)


def mixed_linear_ref(x, w, s, zps, dtype=None):
    m, n = x.shape
    p = w.shape[0]
    if s.dim() == 2:
        g = -(-n // s.shape[1])         # ExecuTorch's group size: ceil(n / G)
    else:
        g = n
    per_row = -(-n // g)
    flat = s.reshape(-1).to(torch.float64)
    cols = torch.arange(n) // g
    sfull = torch.stack([flat[j * per_row + cols] for j in range(p)])   # [p, n]
    res = x.to(torch.float64) @ (w.to(torch.float64) * sfull).t()
    return res.to(dtype if dtype is not None else x.dtype)


def mm_case(x, w, s, **kw):
    return case(QD + "mixed_mm.out", x, w, s, None, schema=MIXED_MM, ref=mixed_mm_ref, **kw)


def lin_case(x, w, s, *rest, **kw):
    return case(QD + "mixed_linear.out", x, w, s, None, *rest, schema=MIXED_LINEAR,
                ref=mixed_linear_ref, **kw)


def i8(shape):
    return T(shape, "int8", low=-128, high=128)


def sc(shape, dt="float32"):
    return T(shape, dt, low=0.002, high=0.02)


# half: ExecuTorch accumulates in the half type (each product and sum rounded to
# half); the reference sums exactly, so half cases get a tolerance of a few
# percent of the row's magnitude (kept small by small inputs).
HALF_TOL = dict(rtol=2e-2, atol=2e-2)
F32_TOL = dict(rtol=1e-5, atol=2e-5)

MIXED_CASES = [
    mm_case(T([3, 5]), i8([5, 4]), sc([5]), name="basic", **F32_TOL),
    mm_case(T([1, 16]), i8([16, 7]), sc([16]), name="vec", **F32_TOL),
    mm_case(T([4, 1]), i8([1, 3]), sc([1]), name="k1", **F32_TOL),
    mm_case(T([0, 6]), i8([6, 3]), sc([6]), name="empty", **F32_TOL),
    mm_case(T([2, 8], "float16", low=-1, high=1), i8([8, 3]), sc([8], "float16"),
            name="f16", **HALF_TOL),
    lin_case(T([2, 9]), i8([5, 9]), sc([5]), name="row", **F32_TOL),
    lin_case(T([3, 12]), i8([4, 12]), sc([4, 3]), name="group4", **F32_TOL),
    lin_case(T([1, 3]), i8([2, 3]), sc([2, 2]), name="partial_group", **F32_TOL),
    lin_case(T([2, 10]), i8([3, 10]), sc([3, 4]), name="partial_group10", **F32_TOL),
    lin_case(T([2, 8]), i8([3, 8]), sc([3, 1]), name="one_group", **F32_TOL),
    lin_case(T([3, 8]), i8([4, 8]), sc([4, 2]), torch.float32, name="dtype_f32", **F32_TOL),
    lin_case(T([2, 8], low=-1, high=1), i8([3, 8]), sc([3, 2]), torch.float16,
             name="f32_to_f16", **HALF_TOL),
    lin_case(T([2, 8], "float16", low=-1, high=1), i8([3, 8]), sc([3, 2], "float16"),
             name="f16", **HALF_TOL),
    lin_case(T([2, 8], "float16", low=-1, high=1), i8([3, 8]), sc([3], "float16"),
             torch.float32, name="f16_to_f32", **HALF_TOL),
    lin_case(T([0, 8]), i8([3, 8]), sc([3]), name="empty", **F32_TOL),
]


# -- quantized add -------------------------------------------------------------

def qadd_ref(a, a_scale, a_zp, a_min, a_max, b, b_scale, b_zp, b_min, b_max,
             o_scale, o_zp, o_min, o_max):
    f32 = torch.float32
    dqa = (a.to(torch.int64) - a_zp).to(f32) * torch.tensor(a_scale, dtype=f32)
    dqb = (b.to(torch.int64) - b_zp).to(f32) * torch.tensor(b_scale, dtype=f32)
    inv = torch.tensor(1.0, dtype=f32) / torch.tensor(o_scale, dtype=f32)
    q = torch.round(inv * (dqa + dqb)) + o_zp          # round half to even
    return q.clamp(o_min, o_max).to(a.dtype)


def u8(shape, **kw):
    return T(shape, "uint8", low=0, high=256, **kw)


def qadd(a, b, params, **kw):
    (asc, azp, amin, amax), (bsc, bzp, bmin, bmax), (osc, ozp, omin, omax) = params
    return case(QD + "add.out", a, asc, azp, amin, amax, b, bsc, bzp, bmin, bmax, osc, ozp,
                omin, omax, schema=QADD, ref=qadd_ref, **kw)


FULL = (0, 255)
QADD_CASES = [
    qadd(u8([3, 5]), u8([3, 5]), ((0.02, 128, *FULL), (0.03, 100, *FULL), (0.05, 120, *FULL)),
         name="basic"),
    # ties: dequantized values are multiples of 0.25, out scale 0.5 -> x.5 steps
    qadd(u8([4, 8]), u8([4, 8]), ((0.5, 128, *FULL), (0.25, 128, *FULL), (0.5, 128, *FULL)),
         name="ties"),
    # saturation at both ends, narrow out range
    qadd(u8([2, 16]), u8([2, 16]), ((0.1, 0, *FULL), (0.1, 0, *FULL), (0.05, 10, 5, 250)),
         name="clamp"),
    qadd(u8([1, 7]), u8([1, 7]), ((0.0123, 3, *FULL), (0.0456, 250, *FULL),
                                                        (0.0789, 0, *FULL)), name="odd"),
    qadd(u8([2, 3, 2, 2]), u8([2, 3, 2, 2]), ((0.01, 0, *FULL), (0.01, 0, *FULL),
                                              (0.02, 0, *FULL)), name="rank4"),
    qadd(u8([0, 3]), u8([0, 3]), ((0.1, 0, *FULL), (0.1, 0, *FULL), (0.1, 0, *FULL)),
         name="empty"),
]


# -- attention -----------------------------------------------------------------

def attend(q, kc, vc, start_pos, mask, is_causal, scale, seq_dim_2=False):
    """q [B, S, Hq, D], caches [B, L, Hkv, D] (or [B, H, S, D] with seq_dim_2)."""
    if seq_dim_2:
        q, kc, vc = q.transpose(1, 2), kc.transpose(1, 2), vc.transpose(1, 2)
    seq = q.shape[1]
    keys = kc.shape[1] if mask is not None else start_pos + seq
    k = kc[:, :keys].to(torch.float64)
    v = vc[:, :keys].to(torch.float64)
    reps = q.shape[2] // k.shape[2]
    k = k.repeat_interleave(reps, dim=2)
    v = v.repeat_interleave(reps, dim=2)
    scale = 1.0 / math.sqrt(q.shape[3]) if scale is None else scale
    scores = torch.einsum("bshd,bthd->bhst", q.to(torch.float64), k) * scale
    if mask is not None:
        scores = scores + mask.to(torch.float64)
    if is_causal:
        rows = torch.arange(seq)[:, None] + start_pos
        cols = torch.arange(keys)[None, :]
        scores = scores.masked_fill(cols > rows, float("-inf"))
    out = torch.einsum("bhst,bthd->bshd", torch.softmax(scores, dim=-1), v)
    if seq_dim_2:
        out = out.transpose(1, 2)
    # A fresh row-major tensor: .contiguous() keeps odd strides on size-1
    # dims, which would read as another dim order.
    return torch.empty(out.shape, dtype=torch.float32).copy_(out)


def sdpa_kv_ref(q, k, v, kc, vc, start_pos, seq_len, attn_mask=None, drop=0.0,
                is_causal=False, scale=None):
    kc, vc = kc.clone(), vc.clone()
    kc[:, start_pos:start_pos + seq_len] = k
    vc[:, start_pos:start_pos + seq_len] = v
    # The out, then the caches the op writes in place (the harness outputs
    # mutated inputs after the outs).
    return attend(q, kc, vc, start_pos, attn_mask, is_causal, scale).to(q.dtype), kc, vc


def custom_sdpa_ref(q, kc, vc, start_pos, attn_mask=None, drop=0.0, is_causal=False,
                    scale=None):
    return attend(q, kc, vc, start_pos, attn_mask, is_causal, scale).to(q.dtype)


def custom_qsdpa_ref(q, k, v, start_pos, attn_mask=None, drop=0.0, is_causal=False,
                     scale=None, qzp=None, qs=None, kzp=None, ks=None, vzp=None, vs=None,
                     seq_dim_2=False):
    def deq(x, zp, s):
        return (x.to(torch.float64) - zp.to(torch.float64)) * s.to(torch.float64)
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[3])
    return attend(deq(q, qzp, qs), deq(k, kzp, ks), deq(v, vzp, vs), start_pos, attn_mask,
                  is_causal, scale, seq_dim_2)


def mask_values(rows, cols, start_pos, window=None, bias=False):
    """A float mask [rows, cols]: 0 where row r (position start_pos + r) may see
    column c (causal, within `window` positions), -inf elsewhere; with `bias`
    the visible entries get small finite values instead of 0."""
    vals = []
    for r in range(rows):
        pos = start_pos + r
        for c in range(cols):
            ok = c <= pos and (window is None or pos - c < window)
            vals.append(((r * 7 + c * 3) % 5 - 2) * 0.25 if (ok and bias) else
                        (0.0 if ok else float("-inf")))
    return T([rows, cols], values=vals)


SDPA_TOL = dict(rtol=1e-5, atol=1e-5)


def kv_case(b, s, hq, hkv, d, cache_len, start_pos, *rest, name, **kw):
    return case(LL + "sdpa_with_kv_cache.out", T([b, s, hq, d]), T([b, s, hkv, d]),
                T([b, s, hkv, d]), T([b, cache_len, hkv, d]), T([b, cache_len, hkv, d]),
                start_pos, s, *rest, schema=SDPA_KV, ref=sdpa_kv_ref, name=name,
                **SDPA_TOL, **kw)


def cs_case(b, s, hq, hkv, d, cache_len, start_pos, *rest, name, **kw):
    return case(LL + "custom_sdpa.out", T([b, s, hq, d]), T([b, cache_len, hkv, d]),
                T([b, cache_len, hkv, d]), start_pos, *rest, schema=CUSTOM_SDPA,
                ref=custom_sdpa_ref, name=name, **SDPA_TOL, **kw)


SDPA_CASES = [
    # decode (S = 1): causal or not is the same (keys 0 .. start_pos)
    kv_case(1, 1, 2, 2, 8, 8, 0, None, 0.0, True, name="decode_pos0"),
    kv_case(1, 1, 2, 2, 8, 8, 3, None, 0.0, True, name="decode_pos3"),
    kv_case(1, 1, 2, 2, 8, 8, 7, None, 0.0, False, name="decode_last"),
    kv_case(1, 1, 4, 2, 8, 10, 5, None, 0.0, True, name="decode_gqa"),
    kv_case(1, 1, 6, 1, 4, 6, 2, None, 0.0, True, name="decode_mqa"),
    # prefill
    kv_case(1, 4, 2, 2, 8, 8, 0, None, 0.0, True, name="prefill_causal"),
    kv_case(1, 3, 4, 2, 8, 10, 4, None, 0.0, True, name="chunk_causal_gqa"),
    kv_case(1, 3, 2, 2, 8, 8, 2, None, 0.0, False, name="chunk_noncausal"),
    kv_case(2, 2, 4, 1, 4, 6, 1, None, 0.0, True, name="batch2_mqa"),
    kv_case(1, 5, 2, 2, 8, 5, 0, None, 0.0, True, name="fill_cache"),
    # explicit scale, ignored dropout
    kv_case(1, 2, 2, 2, 8, 8, 3, None, 0.0, True, 0.3, name="scale"),
    kv_case(1, 2, 2, 2, 8, 8, 3, None, 0.5, True, name="dropout_ignored"),
    # float mask over the whole cache ([S, L]); L = start_pos + S here, where
    # every ExecuTorch version agrees on the mask width
    kv_case(1, 3, 2, 2, 8, 5, 2, mask_values(3, 5, 2), 0.0, False, name="mask"),
    kv_case(1, 2, 4, 2, 8, 6, 4, mask_values(2, 6, 4, window=3, bias=True), 0.0, False,
            name="mask_window_gqa"),
    # custom_sdpa: the caches as they are (positions >= start_pos + S hold
    # garbage that must be ignored without a mask)
    cs_case(1, 1, 2, 2, 8, 8, 0, None, 0.0, True, name="decode_pos0"),
    cs_case(1, 1, 2, 2, 8, 8, 4, None, 0.0, True, name="decode_pos4"),
    cs_case(1, 1, 4, 1, 8, 9, 8, None, 0.0, True, name="decode_last_mqa"),
    cs_case(1, 4, 4, 2, 8, 10, 0, None, 0.0, True, name="prefill_gqa"),
    cs_case(1, 3, 2, 2, 8, 10, 5, None, 0.0, True, name="chunk_causal"),
    cs_case(1, 3, 2, 2, 8, 10, 5, None, 0.0, False, name="chunk_noncausal"),
    cs_case(2, 2, 2, 1, 4, 6, 2, None, 0.0, True, 0.25, name="batch2_scale"),
    cs_case(1, 2, 2, 2, 8, 8, 1, None, 0.7, False, name="dropout_ignored"),
    cs_case(1, 3, 2, 2, 8, 6, 3, mask_values(3, 6, 3), 0.0, False, name="mask"),
    # mask as wide as the cache, beyond start_pos + S (current ExecuTorch:
    # the mask covers all L cache positions; cache positions it leaves finite
    # take part)
    cs_case(1, 2, 2, 2, 8, 8, 2, mask_values(2, 8, 2, window=2, bias=True), 0.0, False,
            name="mask_full_cache"),
    cs_case(1, 1, 4, 2, 8, 7, 0, T([1, 7], low=-1, high=1), 0.0, False,
            name="mask_finite"),
]


def qsdpa_case(b, s, hq, hkv, d, cache_len, start_pos, mask, causal, scale, dim2, name):
    def q8(shape):
        return T(shape, "int8", low=-128, high=128)

    def zp(shape):
        return T(shape, "int8", low=-20, high=20)

    def qs(shape):
        return T(shape, low=0.005, high=0.02)

    if dim2:
        qshape, kshape = [b, hq, s, d], [b, hkv, cache_len, d]
    else:
        qshape, kshape = [b, s, hq, d], [b, cache_len, hkv, d]
    qp, kp = qshape[:3] + [1], kshape[:3] + [1]
    return case(LL + "custom_quantized_sdpa.out", q8(qshape), q8(kshape), q8(kshape),
                start_pos, mask, 0.0, causal, scale, zp(qp), qs(qp), zp(kp), qs(kp),
                zp(kp), qs(kp), dim2, schema=CUSTOM_QSDPA, ref=custom_qsdpa_ref, name=name,
                rtol=1e-4, atol=1e-4)


QSDPA_CASES = [
    qsdpa_case(1, 1, 2, 2, 8, 8, 3, None, True, None, False, "decode"),
    qsdpa_case(1, 3, 4, 2, 8, 8, 2, None, True, None, False, "prefill_gqa"),
    qsdpa_case(1, 2, 2, 2, 8, 6, 1, None, False, 0.2, False, "noncausal_scale"),
    qsdpa_case(1, 2, 2, 2, 8, 6, 4, mask_values(2, 6, 4), False, None, False, "mask"),
    qsdpa_case(1, 1, 2, 2, 8, 8, 5, None, True, None, True, "decode_seq_dim2"),
    qsdpa_case(1, 3, 4, 2, 8, 8, 0, None, True, None, True, "prefill_seq_dim2_gqa"),
]


# update_cache writes `value` into its `cache` input at positions
# start_pos .. start_pos + S - 1 (dim 1) and returns its out untouched: the
# out is checked by shape, the cache (output after it) by value.
def placeholder(value, cache, start_pos, indices=None):
    cache = cache.clone()
    for b in range(value.shape[0]):
        for s_ in range(value.shape[1]):
            row = start_pos + s_ if indices is None else int(indices[b, s_])
            cache[b, row] = value[b, s_]
    return torch.empty([1], dtype=value.dtype), cache


UPDATE_CASES = [
    case(LL + "update_cache.out", T([1, 1, 2, 4]), T([1, 6, 2, 4]), 3, schema=UPDATE_CACHE,
         ref=placeholder, check="shape,values", name="decode"),
    case(LL + "update_cache.out", T([2, 3, 2, 4]), T([2, 6, 2, 4]), 0, schema=UPDATE_CACHE,
         ref=placeholder, check="shape,values", name="prefill"),
    case(LL + "update_cache.out", T([1, 2, 1, 4]), T([1, 6, 1, 4]), 4, schema=UPDATE_CACHE,
         ref=placeholder, check="shape,values", name="end"),
    case(LL + "update_cache_with_indices.out", T([1, 3, 2, 4]), T([1, 6, 2, 4]), 0,
         T([1, 3], "int64", values=[5, 0, 2]), schema=UPDATE_CACHE_IDX, ref=placeholder,
         check="shape,values", name="scatter"),
    case(LL + "update_cache_with_indices.out", T([2, 1, 2, 4]), T([2, 6, 2, 4]), 0,
         T([2, 1], "int64", values=[3, 1]), schema=UPDATE_CACHE_IDX, ref=placeholder,
         check="shape,values", name="batch2"),
]


CASES = (emb_cases(8) + emb_cases(4) + emb_cases(2) + MIXED_CASES + QADD_CASES + SDPA_CASES
         + QSDPA_CASES + UPDATE_CASES)
