#!/usr/bin/python3
"""Writes the XNNPACK node cases as tests/ops/xnnpack_cases/<node>.pte (one
method per case, each a DelegateCall to XnnpackBackend over a small XNNGraph)
and <node>.json (inputs and PyTorch's outputs), in the op-case format that
tests/ops/op-cases.test.ts and the native ops_test run.

    /usr/bin/python3 tools/export/xnnpack/export_xnn_cases.py [--only Conv2d ...]

The cases are in cases_float.py and cases_quantized.py.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tools", "export"))
sys.path.insert(0, os.path.join(ROOT, "tools", "pte"))

import torch  # noqa: E402

import oplib  # noqa: E402
import xnn_case_lib as lib  # noqa: E402
from pte_writer import ProgramBuilder  # noqa: E402
from xnn_writer import XnnGraph  # noqa: E402

import cases_float  # noqa: E402,F401  (registers cases)
import cases_quantized  # noqa: E402,F401

DEFAULT_OUT = os.path.join(ROOT, "tests", "ops", "xnnpack_cases")
MAX_NODE_BYTES = 96 * 1024


def build_case(pb: ProgramBuilder, name: str, c: lib.Case, inline: bool) -> Dict[str, Any]:
    m = pb.method(name)
    g = XnnGraph()
    ext_in = [g.value("fp32", list(t.shape), external_input=i) for i, t in enumerate(c.inputs)]
    results = c.build(g, ext_in)
    expected = [t.to(torch.float32).contiguous() for t in c.ref(*c.inputs)]
    if len(expected) != len(results):
        raise SystemExit(f"{name}: the graph gives {len(results)} outputs, the reference {len(expected)}")
    ext_out = []
    for k, (vid, want) in enumerate(zip(results, expected)):
        # The result becomes an external output: re-flag the value itself
        # (outputs are never inputs or constants here).
        v = g.values[vid]["xvalue_union"]
        t = v.get("tensor_value", v)
        if list(t["dims"]) != list(want.shape):
            raise SystemExit(f"{name}: output {k} is declared {t['dims']}, PyTorch gives {list(want.shape)}")
        t["flags"] = 2
        t["external_id"] = len(ext_in) + k
        g.output_ids.append(vid)
        ext_out.append(vid)
    g.num_externs = len(ext_in) + len(ext_out)
    # Both placements of real exports: current ones put the payload in a
    # segment and its weights in the program's named data; those of early
    # 2025 kept the payload inline in the program, weights in its own
    # constant-data area.
    blob = g.payload(constants="inline" if inline else "named", named_data=pb.named_data)
    args = [m.input(m.tensor("float32", list(t.shape))) for t in c.inputs]
    outs = [m.tensor("float32", list(t.shape)) for t in expected]
    d = m.delegate("XnnpackBackend", blob, location="inline" if inline else "segment")
    m.delegate_call(d, args + outs)
    for o in outs:
        m.output(o)
    return {"method": name, "desc": c.desc, "inputs": [oplib.encode(t.to(torch.float32)) for t in c.inputs],
            "outputs": [oplib.encode(t) for t in expected], "rtol": c.rtol, "atol": c.atol,
            "check": "values", "family": "xnnpack"}


def write_node(node: str, cases: List[lib.Case], out_dir: str) -> int:
    pb = ProgramBuilder()
    # Every third case uses the older placement.
    records = [build_case(pb, f"c{i}", c, inline=i % 3 == 2) for i, c in enumerate(cases)]
    stem = os.path.join(out_dir, f"xnnpack__{node}")
    pb.write(stem + ".pte")
    with open(stem + ".json", "w") as f:
        json.dump({"op": f"xnnpack::{node}", "schema": f"XNNGraph node {node}",
                   "torch": torch.__version__, "cases": records}, f, separators=(",", ":"))
        f.write("\n")
    size = os.path.getsize(stem + ".json") + os.path.getsize(stem + ".pte")
    if size > MAX_NODE_BYTES:
        print(f"export_xnn_cases: WARNING {node}: {size // 1024} KB of cases", file=sys.stderr)
    return len(records)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--out", default=DEFAULT_OUT)
    args = ap.parse_args()
    torch.set_num_threads(1)
    os.makedirs(args.out, exist_ok=True)
    selected = sorted(lib.CASES) if args.only is None else args.only
    if args.only is None:
        keep = {f"xnnpack__{n}" for n in lib.CASES}
        for fname in os.listdir(args.out):
            stem, ext = os.path.splitext(fname)
            if ext in (".pte", ".json") and stem not in keep:
                os.remove(os.path.join(args.out, fname))
    total = 0
    for node in selected:
        total += write_node(node, lib.CASES[node], args.out)
    print(f"export_xnn_cases: {total} cases of {len(selected)} node kinds written to "
          f"{os.path.relpath(args.out, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
