#!/usr/bin/env python3
"""Writes the ``processed`` blob of every delegate of the given ``.pte`` files
(inline or in a segment) into OUTDIR as ``<file>.<method>.<index>.bin``: the
fuzzers' seeds for backend payloads, and a way to look at one.

    python3 tools/pte/delegate_blobs.py OUTDIR FILE.pte [FILE.pte ...]
"""

from __future__ import annotations

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pte_writer import flatc_json, read_header  # noqa: E402


def blobs(path: str):
    with open(path, "rb") as f:
        data = f.read()
    program = flatc_json(data)
    ext = read_header(data)["extended"]
    base = ext["segment_base_offset"] if ext else 0
    segments = program.get("segments", [])
    inline = program.get("backend_delegate_data", [])
    for plan in program.get("execution_plan", []):
        for i, d in enumerate(plan.get("delegates", [])):
            ref = d["processed"]
            if ref["location"] == "SEGMENT":
                s = segments[ref["index"]]
                yield plan["name"], i, data[base + s["offset"]:base + s["offset"] + s["size"]]
            else:
                yield plan["name"], i, bytes(inline[ref["index"]]["data"])


def main(argv) -> int:
    out = argv[0]
    os.makedirs(out, exist_ok=True)
    n = 0
    for path in argv[1:]:
        stem = os.path.splitext(os.path.basename(path))[0]
        for method, i, blob in blobs(path):
            with open(os.path.join(out, f"{stem}.{method}.{i}.bin"), "wb") as f:
                f.write(blob)
            n += 1
    print(f"delegate_blobs: {n} blobs written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
