"""A reference kernel for XnnpackBackend DelegateCalls: reads each delegate's payload out of the
serialized program (the ``XH00`` header, the ``XN01`` XNNGraph flatbuffer, its constants from the
payload's constant-data area or the program's named data) and runs the graph with XNNPACK's
integer semantics, so that ``Replay`` checks the bytes a runtime will read, not the exporter's
weights.

Supported: the graphs ExecuTorch's XNNPACK backend writes for a dynamically quantized linear
(``export_llama --qmode 8da4w``, one delegate per linear):

* ``XNNConvert`` fp32 -> qdint8 with ``PerTokenDynamicQuant`` (``num_nonbatch_dims`` 1): each row
  (the last dim) gets XNNPACK's asymmetric parameters (``xnn_f32_qd8_asymmetric_quantization_params``:
  range widened to hold 0, ``m = 255 / (max - min)``, the zero point from the end with the smaller
  error, clamped to [-128, 127] and rounded half to even; the dequantization scale is ``1 / m`` and
  the convert multiplies by ``1 / (1 / m)``, as ``xnn_compute_f32_qd8_convert`` does), then
  ``q = round_half_even(clamp(x * m', -128 - zp, 127 - zp)) + zp``, all in float32;
* ``XNNFullyConnected`` with that qdint8 input, a qbint4 filter ``[N, K]`` (two 4-bit values per
  byte along K, element ``2j`` in the low nibble, stored ``q + 8``) with ``PerChannelGroupQuant``
  block scales (bf16 from ``scale_buffer_idx``, bf16 inline in ``scale_bf16``, or fp32 in ``scale``,
  which ExecuTorch's runtime hands XNNPACK as bf16 after scaling by 1.00389105 and truncating),
  qcint4 / qcint8 filters with ``PerChannelQuant``, an optional fp32 bias, fp32 output:
  per row r, output n: ``acc = sum over blocks b, in order, of float32(dot_b - zp_r * wsum_b) *
  scale_nb`` with ``dot_b`` the exact int32 dot product of the int8 row and the int4 block and
  ``wsum_b`` the block's weight sum, then ``acc * inv_scale_r + bias_n``, clamped to
  ``output_min_max``.

Anything else raises ``ExportError``.
"""

from __future__ import annotations

import struct
from typing import Any, Dict, List, Mapping, Sequence, Tuple

import numpy as np
import torch

from .emitter import ExportError

INVALID_ID = 0xFFFFFFFF
FLAG_EXTERNAL_INPUT = 1
FLAG_EXTERNAL_OUTPUT = 2
UINT64_MAX = (1 << 64) - 1
f32 = np.float32


def program_parts(data: bytes) -> Tuple[Dict[str, Any], Dict[str, List[bytes]], Dict[str, bytes]]:
    """(Program as flatc JSON, method name -> its delegates' processed blobs, named data key ->
    bytes), all read from the serialized ``.pte``."""
    from pte_writer import flatc_json, read_header
    program = flatc_json(bytes(data))
    ext = read_header(data)["extended"]
    base = ext["segment_base_offset"] if ext else 0
    segments = program.get("segments", [])

    def segment(i: int) -> bytes:
        s = segments[i]
        return bytes(data[base + s["offset"]:base + s["offset"] + s["size"]])

    blobs: Dict[str, List[bytes]] = {}
    for plan in program.get("execution_plan", []):
        out = blobs.setdefault(plan["name"], [])
        for d in plan.get("delegates", []):
            ref = d["processed"]
            if ref["location"] == "SEGMENT":
                out.append(segment(ref["index"]))
            else:
                out.append(bytes(program["backend_delegate_data"][ref["index"]]["data"]))
    named = {e["key"]: segment(e["segment_index"]) for e in program.get("named_data", [])}
    return program, blobs, named


def parse_payload(blob: bytes) -> Tuple[Dict[str, Any], bytes]:
    """(XNNGraph as flatc JSON, constant-data area) of a processed blob (``XH00`` header)."""
    from pte_writer import flatc_json
    from xnn_writer import default_xnn_schema_path
    if blob[4:8] != b"XH00":
        raise ExportError("XNNPACK payload without an XH00 header")
    _length, fb_off, fb_size, c_off, c_size = struct.unpack_from("<HIIIQ", blob, 8)
    fb = blob[fb_off:fb_off + fb_size]
    if fb[4:8] != b"XN01":
        raise ExportError(f"XNNGraph identifier {fb[4:8]!r}, expected b'XN01'")
    return flatc_json(fb, schema=default_xnn_schema_path()), blob[c_off:c_off + c_size]


def _dtype_name(t: Dict[str, Any]) -> str:
    d = t["datatype"]
    return d.replace("xnn_datatype_", "") if isinstance(d, str) else str(d)


def _bf16_to_f32(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def _f32_scales_as_bf16(s: np.ndarray) -> np.ndarray:
    """ExecuTorch's runtime: fp32 block scales of older payloads reach XNNPACK as bf16, scaled by
    1.00389105 and truncated."""
    bits = (s.astype(np.float32) * f32(1.00389105)).view(np.uint32) & np.uint32(0xFFFF0000)
    return bits.view(np.float32)


def qd8_rows(x: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """XNNPACK's f32 -> qdint8 convert of a [rows, K] float32 array: (int8 q, int32 zero points,
    float32 dequantization scales), one per row, computed in float32 like the C code."""
    rows = x.shape[0]
    q = np.empty(x.shape, dtype=np.int8)
    zps = np.empty(rows, dtype=np.int32)
    scales = np.empty(rows, dtype=np.float32)
    qmin, qmax = f32(-128.0), f32(127.0)
    for r in range(rows):
        row = x[r]
        rmin = min(f32(0.0), f32(row.min())) if row.size else f32(0.0)
        rmax = max(f32(0.0), f32(row.max())) if row.size else f32(0.0)
        m = f32(1.0) if rmin == rmax else f32((qmax - qmin) / f32(rmax - rmin))
        rmin_m, rmax_m = f32(rmin * m), f32(rmax * m)
        from_min, from_max = f32(qmin + rmin_m), f32(qmax + rmax_m)
        zp = f32(qmin - rmin_m) if f32(from_min + from_max) > 0 else f32(qmax - rmax_m)
        zp = min(max(zp, qmin), qmax)
        zpi = int(np.rint(zp))                     # rintf: half to even
        inv = f32(f32(1.0) / m)                    # quantization_params.inv_scale
        mq = f32(f32(1.0) / inv)                   # the convert's multiplier: 1.0f / inv_scale
        v = (row * mq).astype(np.float32)
        v = np.minimum(np.maximum(v, f32(-128 - zpi)), f32(127 - zpi))
        q[r] = (np.rint(v).astype(np.int32) + zpi).astype(np.int8)
        zps[r], scales[r] = zpi, inv
    return q, zps, scales


class XnnGraphRef:
    """One delegate's XNNGraph, its constants resolved, runnable on torch float32 inputs."""

    def __init__(self, blob: bytes, named: Mapping[str, bytes]):
        self.graph, area = parse_payload(blob)
        g = self.graph
        table = g.get("constant_data", [])

        def constant(idx: int) -> bytes:
            if idx == 0 or idx >= len(table):
                raise ExportError(f"constant_data[{idx}] does not exist ({len(table)} entries)")
            c = table[idx]
            if c.get("named_key"):
                if c["offset"] != UINT64_MAX:
                    raise ExportError(f"constant_data[{idx}]: named and at offset {c['offset']}")
                raw = named.get(c["named_key"])
                if raw is None:
                    raise ExportError(f"constant_data[{idx}]: no named data {c['named_key']!r}")
            else:
                raw = area[c["offset"]:c["offset"] + c["size"]]
            if len(raw) < c["size"]:
                raise ExportError(f"constant_data[{idx}]: {len(raw)} bytes for size {c['size']}")
            return bytes(raw[:c["size"]])

        self.values: List[Dict[str, Any]] = []
        for i, xv in enumerate(g["xvalues"]):
            body = xv["xvalue_union"]
            t = body.get("tensor_value", body)
            if t["id_out"] != i:
                raise ExportError(f"value {i} has id_out {t['id_out']}")
            v = {"dtype": _dtype_name(t), "dims": list(t["dims"]), "flags": t["flags"],
                 "external_id": t["external_id"], "quant": None, "data": None}
            if "quant_params_type" in body:
                v["quant"] = (body["quant_params_type"], body["quant_params"])
            if t["constant_buffer_idx"]:
                v["data"] = constant(t["constant_buffer_idx"])
            self.values.append(v)
        # Resolve the filters' scales now (constants).
        for v in self.values:
            if v["quant"] and v["quant"][0] == "PerChannelGroupQuant":
                p = v["quant"][1]
                n, k = v["dims"]
                g_size = p["group_size"]
                if g_size <= 0 or k % g_size or p.get("channel_dim", 0) != 0:
                    raise ExportError(f"block quantization {p} of a [{n}, {k}] filter")
                count = n * (k // g_size)
                if p.get("scale_buffer_idx", 0):
                    if p.get("num_scales", 0) not in (0, count):
                        raise ExportError(f"num_scales {p['num_scales']}, {count} blocks")
                    raw = constant(p["scale_buffer_idx"])
                    if len(raw) != 2 * count:
                        raise ExportError(f"{len(raw)} bytes of bf16 scales for {count} blocks")
                    s = _bf16_to_f32(np.frombuffer(raw, dtype="<u2"))
                elif p.get("scale_bf16"):
                    s = _bf16_to_f32(np.array(p["scale_bf16"], dtype=np.uint16))
                else:
                    s = _f32_scales_as_bf16(np.array(p["scale"], dtype=np.float32))
                if s.size != count or not np.all(s > 0) or not np.all(np.isfinite(s)):
                    raise ExportError("block scales must be positive and finite, one per block")
                v["scales"] = s.reshape(n, k // g_size)
                v["block"] = g_size
        self.inputs = sorted((v["external_id"], i) for i, v in enumerate(self.values)
                             if v["flags"] == FLAG_EXTERNAL_INPUT)
        self.outputs = sorted((v["external_id"], i) for i, v in enumerate(self.values)
                              if v["flags"] == FLAG_EXTERNAL_OUTPUT)
        if [e for e, _ in self.inputs + self.outputs] != list(range(g["num_externs"])):
            raise ExportError(f"external ids {[e for e, _ in self.inputs + self.outputs]} "
                              f"for {g['num_externs']} externs")

    # -- nodes ---------------------------------------------------------------

    def _filter(self, v: Dict[str, Any]) -> Tuple[np.ndarray, np.ndarray, int]:
        """(int32 [N, K] filter, float32 [N, blocks] scales, block size)."""
        n, k = v["dims"]
        raw = np.frombuffer(v["data"], dtype=np.uint8)
        if v["dtype"] in ("qbint4", "qcint4"):
            row_bytes = (k + 1) // 2
            if raw.size != n * row_bytes:
                raise ExportError(f"{raw.size} bytes for a [{n}, {k}] 4-bit filter")
            b = raw.reshape(n, row_bytes).astype(np.int32)
            q = np.stack([b & 15, b >> 4], axis=-1).reshape(n, 2 * row_bytes)[:, :k] - 8
        elif v["dtype"] == "qcint8":
            q = raw.view(np.int8).reshape(n, k).astype(np.int32)
        else:
            raise ExportError(f"reference: {v['dtype']} filter")
        if v["dtype"] == "qbint4":
            return q, v["scales"], v["block"]
        kind, p = v["quant"]
        if kind != "PerChannelQuant" or p.get("scale_buffer_idx", 0):
            raise ExportError(f"reference: {kind} {v['dtype']} filter")
        return q, np.array(p["scale"], dtype=np.float32).reshape(n, 1), k

    def run(self, inputs: Sequence[torch.Tensor]) -> List[torch.Tensor]:
        env: Dict[int, Any] = {}
        for (_, vid), x in zip(self.inputs, inputs):
            v = self.values[vid]
            if v["dtype"] != "fp32" or x.dtype != torch.float32 or x.dim() != len(v["dims"]):
                raise ExportError(f"input value {vid}: {x.dtype} {list(x.shape)} for {v['dtype']} {v['dims']}")
            if any(a > b for a, b in zip(x.shape, v["dims"])):
                raise ExportError(f"input value {vid}: {list(x.shape)} exceeds {v['dims']}")
            env[vid] = x.detach().contiguous().numpy().astype(np.float32)
        for node in self.graph["xnodes"]:
            kind, f = node["xnode_union_type"], node["xnode_union"]
            if kind == "XNNConvert":
                x = env[f["input_id"]]
                ov = self.values[f["output_id"]]
                quant = ov["quant"]
                if self.values[f["input_id"]]["dtype"] != "fp32" or ov["dtype"] != "qdint8" or \
                        quant is None or quant[0] != "PerTokenDynamicQuant" or \
                        quant[1]["num_nonbatch_dims"] != 1 or f["flags"] != 0:
                    raise ExportError(f"reference: XNNConvert to {ov['dtype']} {quant} flags {f['flags']}")
                q, zp, sc = qd8_rows(x.reshape(-1, x.shape[-1]))
                env[f["output_id"]] = (q.reshape(x.shape), zp, sc)
            elif kind == "XNNFullyConnected":
                if f["flags"] != 0:
                    raise ExportError(f"reference: XNNFullyConnected flags {f['flags']}")
                if self.values[f["input1_id"]]["dtype"] != "qdint8":
                    raise ExportError("reference: XNNFullyConnected on a non-qdint8 input")
                qa, zp, sc = env[f["input1_id"]]
                w, scales, block = self._filter(self.values[f["filter_id"]])
                n_out, k = w.shape
                lead = qa.shape[:-1]
                a = qa.reshape(-1, k).astype(np.int64)
                nb = k // block
                acc = np.zeros((a.shape[0], n_out), dtype=np.float32)
                for b in range(nb):
                    wb = w[:, b * block:(b + 1) * block].astype(np.int64)
                    dot = a[:, b * block:(b + 1) * block] @ wb.T                   # exact
                    dot = dot - zp.astype(np.int64)[:, None] * wb.sum(axis=1)[None, :]
                    acc = (acc + dot.astype(np.float32) * scales[None, :, b]).astype(np.float32)
                y = (acc * sc[:, None]).astype(np.float32)
                if f["bias_id"] != INVALID_ID:
                    bv = self.values[f["bias_id"]]
                    if bv["dtype"] != "fp32" or bv["data"] is None:
                        raise ExportError("reference: the bias of a dynamically quantized FC is a fp32 constant")
                    y = (y + np.frombuffer(bv["data"], dtype="<f4")[None, :]).astype(np.float32)
                mm = node.get("output_min_max")
                if mm:
                    y = np.minimum(np.maximum(y, f32(mm["output_min"])), f32(mm["output_max"]))
                env[f["output_id"]] = y.reshape(*lead, n_out)
            else:
                raise ExportError(f"reference: {kind} nodes are not supported")
        outs = []
        for _, vid in self.outputs:
            y = env.get(vid)
            if not isinstance(y, np.ndarray) or self.values[vid]["dtype"] != "fp32":
                raise ExportError(f"output value {vid} was not computed as fp32")
            outs.append(torch.from_numpy(np.ascontiguousarray(y, dtype=np.float32)))
        return outs


class XnnpackReference:
    """The ``Replay`` delegate kernel for XnnpackBackend: ``Replay(..., delegates={"XnnpackBackend":
    XnnpackReference(pte_bytes)})``. Args of a DelegateCall are the graph's externals by
    external id (inputs first)."""

    def __init__(self, data: bytes, method: str = "forward"):
        _, blobs, named = program_parts(data)
        self.graphs = [XnnGraphRef(b, named) for b in blobs.get(method, [])]
        self.calls = 0

    def __call__(self, r: Any, index: int, args: List[int], values: List[Any]) -> None:
        g = self.graphs[index]
        n_in = len(g.inputs)
        if len(args) != n_in + len(g.outputs):
            raise ExportError(f"delegate {index}: {len(args)} args for {n_in} inputs and "
                              f"{len(g.outputs)} outputs")
        for a, y in zip(args[n_in:], g.run(values[:n_in])):
            r.write(a, y)
        self.calls += 1

    def describe(self, index: int) -> Dict[str, Any]:
        g = self.graphs[index]
        return {"nodes": [n["xnode_union_type"] for n in g.graph["xnodes"]],
                "values": [{k: v[k] for k in ("dtype", "dims", "flags", "external_id")} for v in g.values]}


def bf16_round(t: torch.Tensor) -> torch.Tensor:
    """float32 -> bf16 (round to nearest even, as torch's ``.to(torch.bfloat16)``) -> float32."""
    return t.to(torch.bfloat16).to(torch.float32)


__all__ = ["XnnpackReference", "XnnGraphRef", "parse_payload", "program_parts", "qd8_rows", "bf16_round"]
