#!/usr/bin/env python3
"""Compares Trident's XNNGraph payloads with real ExecuTorch exports, field by
field: rebuilds each real payload's graph with tools/pte/xnn_writer.py from
what the real one declares, then checks the header fields, the flatbuffer's
identifier and every value and node field, the constant table (offsets,
sizes, named keys = sha256 of the named data's bytes) and finally the bytes.

    python3 tools/export/xnnpack/compare_payload.py ../shared/corpus/pte/<file>.pte ...

Prints one line per difference and a summary per delegate; exit 1 if any
field differs.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from typing import Any, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "pte"))

from delegate_blobs import blobs  # noqa: E402
from pte_writer import _run_flatc, _flatc_path, _standard_json, flatc_json, read_header  # noqa: E402
from xnn_writer import XnnGraph, default_xnn_schema_path, parse_payload  # noqa: E402


def graph_json(flatbuffer: bytes) -> Dict[str, Any]:
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "graph.bin")
        with open(src, "wb") as f:
            f.write(flatbuffer)
        _run_flatc([_flatc_path(), "--json", "--strict-json", "--raw-binary", "--defaults-json", "-o", tmp,
                    default_xnn_schema_path(), "--", src])
        with open(os.path.join(tmp, "graph.json")) as f:
            return json.loads(_standard_json(f.read()))


def named_data(path: str) -> Dict[str, bytes]:
    with open(path, "rb") as f:
        data = f.read()
    program = flatc_json(data)
    ext = read_header(data)["extended"]
    base = ext["segment_base_offset"] if ext else 0
    out = {}
    for entry in program.get("named_data", []):
        s = program["segments"][entry["segment_index"]]
        out[entry["key"]] = data[base + s["offset"]:base + s["offset"] + s["size"]]
    return out


def rebuild(real: Dict[str, Any], named: Dict[str, bytes], area: bytes) -> bytes:
    """The real graph's values and nodes, written by xnn_writer."""
    g = XnnGraph()
    table = real.get("constant_data", [])
    inline = any("named_key" not in c or not c["named_key"] for c in table[1:])
    for v in real["xvalues"]:
        body = v["xvalue_union"]
        t = body.get("tensor_value", body)
        dtype = {1: "fp32", 3: "qint8", 4: "quint8", 5: "qint32", 6: "qcint8", 7: "qcint32",
                 8: "qcint4", 9: "qdint8", 10: "qbint4"}[t["datatype"] if isinstance(t["datatype"], int)
                                                        else ["", "fp32", "fp16", "qint8", "quint8", "qint32",
                                                              "qcint8", "qcint32", "qcint4", "qdint8",
                                                              "qbint4"].index(t["datatype"].replace("xnn_datatype_", ""))]
        constant = None
        if t["constant_buffer_idx"]:
            entry = table[t["constant_buffer_idx"]]
            if entry.get("named_key"):
                constant = named[entry["named_key"]]
            else:
                constant = area[entry["offset"]:entry["offset"] + entry["size"]]
        quant = None
        if "quant_params_type" in body:
            quant = {body["quant_params_type"]: body["quant_params"]}
        kwargs: Dict[str, Any] = {}
        if t["flags"] == 1:
            kwargs["external_input"] = t["external_id"]
        elif t["flags"] == 2:
            kwargs["external_output"] = t["external_id"]
        g.value(dtype, t["dims"], constant=constant, quant=quant, **kwargs)
    for n in real["xnodes"]:
        mm = n.get("output_min_max")
        g.node(n["xnode_union_type"], n["xnode_union"],
               output_min_max=(mm["output_min"], mm["output_max"]) if mm else None,
               debug_handle=n.get("debug_handle", 0))
    g.num_externs = real["num_externs"]
    return g.payload(constants="inline" if inline else "named", named_data=lambda k, b: None)


def diff(path: str, a: Any, b: Any, out: List[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            diff(f"{path}.{k}", a.get(k), b.get(k), out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} entries vs {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(f"{path}[{i}]", x, y, out)
    elif a != b:
        out.append(f"{path}: {a!r} vs {b!r}")


def compare(path: str) -> int:
    named = named_data(path)
    bad = 0
    for method, index, blob in blobs(path):
        real = parse_payload(blob)
        real_graph = graph_json(real["flatbuffer"])
        ours_blob = rebuild(real_graph, named, real["constant_data"])
        ours = parse_payload(ours_blob)
        ours_graph = graph_json(ours["flatbuffer"])
        out: List[str] = []
        for field in ("header_length", "flatbuffer_offset", "flatbuffer_size", "constant_data_offset",
                      "constant_data_size"):
            if real[field] != ours[field]:
                out.append(f"header.{field}: {real[field]} vs {ours[field]}")
        if real["flatbuffer"][4:8] != ours["flatbuffer"][4:8]:
            out.append(f"identifier: {real['flatbuffer'][4:8]!r} vs {ours['flatbuffer'][4:8]!r}")
        diff("graph", real_graph, ours_graph, out)
        for i, c in enumerate(real_graph.get("constant_data", [])[1:], 1):
            key = c.get("named_key")
            if key and hashlib.sha256(named[key]).hexdigest() != key:
                out.append(f"constant_data[{i}]: key is not the sha256 of its bytes")
        same_bytes = blob == ours_blob
        print(f"{os.path.basename(path)} {method} delegate {index}: {len(real_graph['xvalues'])} values, "
              f"{len(real_graph['xnodes'])} nodes, {len(real_graph.get('constant_data', [])) - 1} constants: "
              f"{'all fields equal' if not out else f'{len(out)} differences'}, "
              f"bytes {'identical' if same_bytes else 'differ (flatbuffer table layout)'}")
        for line in out:
            print("  " + line)
        bad += len(out)
    return bad


def main(argv: List[str]) -> int:
    return 1 if sum(compare(p) for p in argv) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
