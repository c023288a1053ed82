#!/usr/bin/env python3
"""Trident's writer for XnnpackBackend payloads (``XNNGraph`` flatbuffers).

Builds the ``processed`` blob that ExecuTorch's XNNPACK partitioner puts in a
``DelegateCall``, laid out as ExecuTorch's serializer lays it out (checked
field by field against the real exports in ``../shared/corpus/pte``, see
``tools/export/models/README.md``):

* a 30-byte ``XH00`` header (4 zero bytes, ``XH00``, little-endian u16 header
  length 30, u32 flatbuffer offset, u32 flatbuffer size, u32 constant-data
  offset, u64 constant-data size), zero-padded to 32 bytes;
* the ``XNNGraph`` flatbuffer (identifier ``XN01``; schema
  ``cpp/delegates/xnnpack/schema/xnnpack_graph.fbs``), produced by ``flatc
  --binary`` from JSON as ExecuTorch does, zero-padded to 16 bytes;
* the constant-data area: empty when weights go to the program's named data
  (``constants="named"``, current exports: ``constant_data[i]`` is
  ``(offset 2^64-1, size, named_key = sha256 hex of the bytes)``), or the
  weights themselves, each 16-aligned (``constants="inline"``, exports before
  2025: ``constant_data[i] = (offset, size)``).

``constant_data[0]`` is the ``(0, 0)`` placeholder that non-constant values
point at; value ids are assigned in definition order; external inputs get
external ids 0..n-1 and flag 1, outputs n.. and flag 2 (the delegate call
passes its arguments in that order).

Example::

    g = XnnGraph()
    x = g.value("fp32", [1, 3], external_input=0)
    w = g.value("fp32", [4, 3], constant=pack("<12f", *weights))
    y = g.value("fp32", [1, 4], external_output=1)
    g.node("XNNFullyConnected", {"input1_id": x, "filter_id": w, "bias_id": INVALID_ID,
                                  "output_id": y})
    blob = g.payload(named_data=program_builder.named_data)
"""

from __future__ import annotations

import hashlib
import os
import struct
from typing import Any, Callable, Dict, List, Optional, Sequence

from pte_writer import PteWriterError, _json, _repo_root, flatbuffer_from_json

__all__ = ["XnnGraph", "INVALID_ID", "DTYPES", "default_xnn_schema_path", "parse_payload"]

INVALID_ID = 0xFFFFFFFF
HEADER_MAGIC = b"XH00"
HEADER_LENGTH = 30
HEADER_SPACE = 32
CONSTANT_ALIGNMENT = 16
UINT64_MAX = (1 << 64) - 1

#: XNNDatatype numbers (the schema's enum).
DTYPES = {
    "fp32": 1, "fp16": 2, "qint8": 3, "quint8": 4, "qint32": 5, "qcint8": 6, "qcint32": 7,
    "qcint4": 8, "qdint8": 9, "qbint4": 10,
}

FLAG_EXTERNAL_INPUT = 1
FLAG_EXTERNAL_OUTPUT = 2


def default_xnn_schema_path() -> str:
    return os.path.join(_repo_root(), "cpp", "delegates", "xnnpack", "schema", "xnnpack_graph.fbs")


def _align(n: int, a: int) -> int:
    return (n + a - 1) // a * a


class XnnGraph:
    """One XNNGraph: values (tensors), nodes, constants."""

    def __init__(self) -> None:
        self.values: List[Dict[str, Any]] = []
        self.nodes: List[Dict[str, Any]] = []
        self.constants: List[bytes] = []  # index i+1 in constant_data
        self.input_ids: List[int] = []
        self.output_ids: List[int] = []
        self.num_externs = 0

    # -- values ------------------------------------------------------------

    def value(self, dtype: str, dims: Sequence[int], *, constant: Optional[bytes] = None,
              external_input: Optional[int] = None, external_output: Optional[int] = None,
              quant: Optional[Dict[str, Any]] = None) -> int:
        """Defines a tensor value; returns its id.

        ``quant``: ``{"PerTensorQuant": {"scale", "zero_point"}}``,
        ``{"PerChannelQuant": {"scale": [...], "channel_dim"}}``,
        ``{"PerTokenDynamicQuant": {"num_nonbatch_dims"}}`` or
        ``{"PerChannelGroupQuant": {"scale": [...], "channel_dim", "group_size"}}``;
        quantized dtypes need it, fp32 must not have it.
        """
        if dtype not in DTYPES:
            raise PteWriterError(f"unknown XNNPACK datatype {dtype!r}")
        if (dtype == "fp32") != (quant is None):
            raise PteWriterError(f"{dtype} value {'with' if quant else 'without'} quantization")
        vid = len(self.values)
        flags = 0
        external_id = INVALID_ID
        if external_input is not None:
            flags, external_id = FLAG_EXTERNAL_INPUT, external_input
            self.input_ids.append(vid)
        elif external_output is not None:
            flags, external_id = FLAG_EXTERNAL_OUTPUT, external_output
            self.output_ids.append(vid)
        if flags:
            self.num_externs = max(self.num_externs, external_id + 1)
        constant_idx = 0
        if constant is not None:
            self.constants.append(bytes(constant))
            constant_idx = len(self.constants)
        tensor = {"datatype": DTYPES[dtype], "num_dims": len(dims), "dims": [int(d) for d in dims],
                  "constant_buffer_idx": constant_idx, "external_id": external_id,
                  "flags": flags, "id_out": vid}
        if quant is None:
            self.values.append({"xvalue_union_type": "XNNTensorValue", "xvalue_union": tensor})
        else:
            (kind, params), = quant.items()
            self.values.append({"xvalue_union_type": "XNNQuantizedTensorValue",
                                "xvalue_union": {"tensor_value": tensor,
                                                 "quant_params_type": kind,
                                                 "quant_params": dict(params)}})
        return vid

    # -- nodes ---------------------------------------------------------------

    def node(self, kind: str, fields: Dict[str, Any], *, output_min_max: Optional[Sequence[float]] = None,
             debug_handle: Optional[int] = None) -> int:
        """Appends a node (``kind`` is the XNodeUnion member, e.g. "XNNConv2d")."""
        node: Dict[str, Any] = {"xnode_union_type": kind, "xnode_union": dict(fields),
                                "debug_handle": len(self.nodes) + 1 if debug_handle is None else debug_handle}
        if output_min_max is not None:
            node["output_min_max"] = {"output_min": float(output_min_max[0]),
                                      "output_max": float(output_min_max[1])}
        self.nodes.append(node)
        return len(self.nodes) - 1

    # -- serialization ---------------------------------------------------------

    def graph_json(self, *, constants: str, named_data: Optional[Callable[[str, bytes], None]]
                   ) -> tuple:
        """(XNNGraph as a flatc-JSON dict, constant-data area bytes)."""
        table = [{"offset": 0, "size": 0, "named_key": ""}]
        area = bytearray()
        for raw in self.constants:
            if constants == "named":
                key = hashlib.sha256(raw).hexdigest()
                if named_data is None:
                    raise PteWriterError("constants='named' needs a named_data callback")
                named_data(key, raw)
                table.append({"offset": UINT64_MAX, "size": len(raw), "named_key": key})
            elif constants == "inline":
                start = _align(len(area), CONSTANT_ALIGNMENT)
                area.extend(b"\0" * (start - len(area)))
                table.append({"offset": start, "size": len(raw)})
                area.extend(raw)
            else:
                raise PteWriterError(f"constants must be 'named' or 'inline', not {constants!r}")
        if constants == "inline":
            table[0] = {"offset": 0, "size": 0}
            area.extend(b"\0" * (_align(len(area), CONSTANT_ALIGNMENT) - len(area)))
        graph = {"version": "0", "xnodes": self.nodes, "xvalues": self.values,
                 "num_externs": self.num_externs, "input_ids": self.input_ids,
                 "output_ids": self.output_ids, "constant_data": table}
        return graph, bytes(area)

    def payload(self, *, constants: str = "named",
                named_data: Optional[Callable[[str, bytes], None]] = None,
                schema: Optional[str] = None) -> bytes:
        """The ``processed`` blob: header, flatbuffer, constant-data area."""
        graph, area = self.graph_json(constants=constants, named_data=named_data)
        fb = flatbuffer_from_json(_json(graph), schema=schema or default_xnn_schema_path())
        if fb[4:8] != b"XN01":
            raise PteWriterError(f"flatc wrote identifier {fb[4:8]!r}, expected b'XN01'")
        fb_padded = fb + b"\0" * (_align(len(fb), CONSTANT_ALIGNMENT) - len(fb))
        constant_offset = HEADER_SPACE + len(fb_padded)
        header = (b"\0\0\0\0" + HEADER_MAGIC +
                  struct.pack("<HIIIQ", HEADER_LENGTH, HEADER_SPACE, len(fb), constant_offset, len(area)))
        header += b"\0" * (HEADER_SPACE - len(header))
        return header + fb_padded + area


def parse_payload(blob: bytes) -> Dict[str, Any]:
    """The header fields and the flatbuffer of a payload (for comparisons)."""
    if blob[4:8] != HEADER_MAGIC:
        raise PteWriterError("no XH00 header")
    length, fb_off, fb_size, c_off, c_size = struct.unpack_from("<HIIIQ", blob, 8)
    return {"header_length": length, "flatbuffer_offset": fb_off, "flatbuffer_size": fb_size,
            "constant_data_offset": c_off, "constant_data_size": c_size,
            "flatbuffer": blob[fb_off:fb_off + fb_size],
            "constant_data": blob[c_off:c_off + c_size]}
