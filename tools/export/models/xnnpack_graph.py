"""An XNNGraph under construction for the XNNPACK lowering: values named by
FX nodes, each with its logical (PyTorch) shape, stored in NCHW or NHWC and
transposed (XNNStaticTranspose, once per value) where a consumer needs the
other layout."""

from __future__ import annotations

import collections
import operator
import os
import sys
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import lower  # noqa: E402  (puts tools/pte on sys.path)
import op_map  # noqa: E402
from op_map import LoweringError  # noqa: E402
from xnn_writer import XnnGraph  # noqa: E402

NCHW, NHWC = "nchw", "nhwc"
#: Physical dim i of an NHWC tensor is logical (NCHW) dim TO_NHWC[i]; also
#: the StaticTranspose perm into NHWC.
TO_NHWC = [0, 2, 3, 1]
#: Logical dim d of an NHWC tensor sits at physical dim TO_NCHW[d]; also the
#: StaticTranspose perm back to NCHW.
TO_NCHW = [0, 3, 1, 2]
FLAG_ALIGN_CORNERS = 0x8
FLAG_KEEP_DIMS = 0x40
INF = float("inf")
#: XNNPACK tensors have at most 6 dims.
MAX_DIMS = 6


def physical(shape: Sequence[int], layout: str) -> List[int]:
    """Dims of a logical (NCHW-order) shape stored in ``layout``."""
    return [int(shape[i]) for i in TO_NHWC] if layout == NHWC else [int(s) for s in shape]


class _Value:
    __slots__ = ("shape", "dtype", "quant", "native", "ids")

    def __init__(self, shape, dtype, quant, native, ids):
        self.shape, self.dtype, self.quant, self.native, self.ids = shape, dtype, quant, native, ids


class GraphBuilder:
    """An XNNGraph under construction. Values are named by keys (FX nodes);
    each has a logical (PyTorch) shape and exists in its native layout and,
    after a transpose, the other one."""

    def __init__(self) -> None:
        self.g = XnnGraph()
        self.vals: Dict[Any, _Value] = {}
        self.outputs: Dict[Any, int] = {}  # key -> external id
        self.counts: collections.Counter = collections.Counter()

    def input(self, key: Any, shape: Sequence[int], external_id: int, *, dtype: str = "fp32",
              quant: Optional[Dict[str, Any]] = None) -> int:
        vid = self.g.value(dtype, list(shape), external_input=external_id, quant=quant)
        self.vals[key] = _Value(list(shape), dtype, quant, NCHW, {NCHW: vid})
        return vid

    def declare_output(self, key: Any, external_id: int) -> None:
        """``key``'s NCHW value will be external output ``external_id``."""
        self.outputs[key] = external_id

    def define(self, key: Any, shape: Sequence[int], layout: str, *, dtype: str = "fp32",
               quant: Optional[Dict[str, Any]] = None) -> int:
        """A node's output value for ``key`` in ``layout``."""
        if layout == NHWC and len(shape) != 4:
            raise LoweringError(f"a rank-{len(shape)} value cannot be NHWC")
        ext = self.outputs.get(key) if layout == NCHW else None
        vid = self.g.value(dtype, physical(shape, layout), external_output=ext, quant=quant)
        if key in self.vals:
            self.vals[key].ids[layout] = vid
        else:
            self.vals[key] = _Value(list(shape), dtype, quant, layout, {layout: vid})
        return vid

    def layout(self, key: Any) -> str:
        return self.vals[key].native

    def shape(self, key: Any) -> List[int]:
        return self.vals[key].shape

    def get(self, key: Any, layout: str) -> int:
        """``key``'s value in ``layout``, transposed (once) if needed."""
        v = self.vals[key]
        if layout in v.ids:
            return v.ids[layout]
        src = v.ids[v.native]
        out = self.define(key, v.shape, layout, dtype=v.dtype, quant=v.quant)
        self.node("XNNStaticTranspose", {"num_dims": 4, "perm": TO_NHWC if layout == NHWC else TO_NCHW,
                                         "input_id": src, "output_id": out, "flags": 0})
        return out

    def constant(self, array: np.ndarray, *, dtype: str = "fp32",
                 quant: Optional[Dict[str, Any]] = None) -> int:
        array = np.ascontiguousarray(array)
        return self.g.value(dtype, list(array.shape) or [1], constant=array.tobytes(), quant=quant)

    def per_channel_constant(self, array: np.ndarray, dtype: str, scales: np.ndarray,
                             channel_dim: int) -> int:
        """A per-channel quantized constant (qcint8 weights, qcint32 bias).
        As current ExecuTorch writes them, the scales are a constant of their
        own (float32, named data) right after the data's entry, referenced by
        ``scale_buffer_idx`` with ``num_scales``; the inline ``scale`` is empty."""
        scales = np.ascontiguousarray(scales, dtype="<f4")
        scale_index = len(self.g.constants) + 2  # the data takes +1
        quant = {"PerChannelQuant": {"scale": [], "channel_dim": channel_dim,
                                     "scale_buffer_idx": scale_index, "num_scales": int(scales.size)}}
        vid = self.constant(array, dtype=dtype, quant=quant)
        self.g.constants.append(scales.tobytes())
        if len(self.g.constants) != scale_index:
            raise LoweringError("constant_data indices out of step")
        return vid

    def node(self, kind: str, fields: Dict[str, Any],
             output_min_max: Optional[Tuple[float, float]] = None) -> None:
        self.counts[kind[len("XNN"):]] += 1
        self.g.node(kind, fields, output_min_max=output_min_max)

    def finish(self) -> Dict[str, int]:
        """Makes every declared output exist (NCHW); returns node counts."""
        for key in self.outputs:
            if key not in self.vals:
                raise LoweringError(f"partition output {key} was never computed")
            self.get(key, NCHW)
        return dict(sorted(self.counts.items()))

