"""Building blocks of the XNNPACK node cases (see export_xnn_cases.py).

A case is one small XNNGraph, delegated from a .pte method: the method's
float32 inputs are the graph's external inputs, its outputs the graph's
external outputs, and PyTorch computes what the outputs must be. Quantized
node types get Convert nodes around them inside the graph (as real int8
exports have: float at the delegate's edges), and their reference quantizes
and dequantizes in float the same way.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch

from xnn_writer import INVALID_ID, XnnGraph  # noqa: F401  (re-exported for case files)

#: Cases of a node type: a list, one method each.
CASES: Dict[str, List["Case"]] = {}


@dataclass
class Case:
    desc: str
    inputs: List[torch.Tensor]
    # Builds the graph: receives the graph and the external input ids,
    # returns the ids of the values that become outputs (each gets an
    # external output, copied from it by the builder when needed).
    build: Callable[[XnnGraph, List[int]], List[int]]
    ref: Callable[..., Sequence[torch.Tensor]]
    rtol: float = 1e-5
    atol: float = 1e-6


def case(node: str, desc: str, inputs: Sequence[torch.Tensor],
         build: Callable[[XnnGraph, List[int]], List[int]],
         ref: Callable[..., Sequence[torch.Tensor]], *, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    CASES.setdefault(node, []).append(Case(desc, list(inputs), build, ref, rtol, atol))


def gen(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def randn(*shape: int, seed: int, scale: float = 1.0) -> torch.Tensor:
    return torch.randn(tuple(shape), generator=gen(seed)) * scale


def f32(t: torch.Tensor) -> bytes:
    return t.detach().contiguous().to(torch.float32).numpy().tobytes()


# ---------------------------------------------------------------------------
# graph helpers

def shape_of(g: XnnGraph, vid: int) -> List[int]:
    v = g.values[vid]["xvalue_union"]
    t = v.get("tensor_value", v)
    return list(t["dims"])


def internal(g: XnnGraph, dims: Sequence[int], dtype: str = "fp32",
             quant: Optional[Dict[str, Any]] = None) -> int:
    return g.value(dtype, list(dims), quant=quant)


def const(g: XnnGraph, t: torch.Tensor) -> int:
    return g.value("fp32", list(t.shape), constant=f32(t))


def node_1x1(g: XnnGraph, kind: str, x: int, out_dims: Sequence[int], *, dtype: str = "fp32",
             quant: Optional[Dict[str, Any]] = None, flags: int = 0,
             output_min_max: Optional[Sequence[float]] = None) -> int:
    y = internal(g, out_dims, dtype, quant)
    g.node(kind, {"input_id": x, "output_id": y, "flags": flags}, output_min_max=output_min_max)
    return y


def node_2x1(g: XnnGraph, kind: str, a: int, b: int, out_dims: Sequence[int], *,
             dtype: str = "fp32", quant: Optional[Dict[str, Any]] = None, flags: int = 0,
             output_min_max: Optional[Sequence[float]] = None) -> int:
    y = internal(g, out_dims, dtype, quant)
    g.node(kind, {"input1_id": a, "input2_id": b, "output_id": y, "flags": flags},
           output_min_max=output_min_max)
    return y


# ---------------------------------------------------------------------------
# quantization (XNNPACK's arithmetic, in float64 then rounded to float32)

def per_tensor(scale: float, zero_point: int) -> Dict[str, Any]:
    return {"PerTensorQuant": {"scale": float(struct.unpack("<f", struct.pack("<f", scale))[0]),
                               "zero_point": int(zero_point)}}


def qparams_for(t: torch.Tensor, dtype: str = "qint8") -> Tuple[float, int]:
    """Affine parameters covering t's range (and 0), as an observer would."""
    lo = min(0.0, float(t.min()))
    hi = max(0.0, float(t.max()))
    qmin, qmax = (-128, 127) if dtype == "qint8" else (0, 255)
    scale = (hi - lo) / (qmax - qmin) if hi > lo else 1.0
    scale = float(torch.tensor(scale, dtype=torch.float32))
    zp = int(round(qmin - lo / scale))
    return scale, max(qmin, min(qmax, zp))


def fake_quant(t: torch.Tensor, scale: float, zp: int, dtype: str = "qint8") -> torch.Tensor:
    """Quantize (round half to even, clamp) then dequantize, in float32."""
    qmin, qmax = (-128, 127) if dtype == "qint8" else (0, 255)
    q = torch.clamp(torch.round(t / torch.tensor(scale, dtype=torch.float32)) + zp, qmin, qmax)
    return (q - zp) * torch.tensor(scale, dtype=torch.float32)


def quantize_in(g: XnnGraph, x: int, scale: float, zp: int, dtype: str = "qint8") -> int:
    """A Convert node fp32 -> q8 on external input x."""
    return node_1x1(g, "XNNConvert", x, shape_of(g, x), dtype=dtype, quant=per_tensor(scale, zp))


def dequantize_out(g: XnnGraph, q: int) -> int:
    return node_1x1(g, "XNNConvert", q, shape_of(g, q))


def nchw(t: torch.Tensor) -> torch.Tensor:
    return t.permute(0, 3, 1, 2)


def nhwc(t: torch.Tensor) -> torch.Tensor:
    return t.permute(0, 2, 3, 1).contiguous()


def round_f32(x: float) -> float:
    return float(torch.tensor(x, dtype=torch.float32))


INF = math.inf
