#!/usr/bin/env python3
"""Lists the KernelCall argument layouts that real ExecuTorch programs use:
every operator called in the .pte/.bpte files of ../shared/corpus/pte, with
the number of arguments its calls pass. The kernel tables must agree with
them (tests/ops/corpus-layouts.test.ts); docs/ops.md marks these operators
as checked against real programs.

    python3 tools/export/corpus_ops.py            # writes tools/export/corpus_ops.txt
    python3 tools/export/corpus_ops.py --check    # fails if the file is stale

Needs flatc and the corpus beside the checkout. Standard library only.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from typing import Dict, Set, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "pte")
OUT = os.path.join(HERE, "corpus_ops.txt")
SCHEMA_DIR = os.path.join(ROOT, "cpp", "formats", "pte", "schema")
HEADER = """\
# Operators that the programs of ../shared/corpus/pte call, with the number
# of arguments each call passes (ExecuTorch's emitter: schema arguments, outs,
# then the returned value) and how many files call them. Written by
# tools/export/corpus_ops.py; do not edit by hand.
#
# Format: operator TAB argument counts (comma-separated) TAB files
"""


def dump(path: str, schema: str, tmp: str) -> dict:
    out = os.path.join(tmp, "json")
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(out):
        os.remove(os.path.join(out, name))
    proc = subprocess.run(["flatc", "--json", "--strict-json", "--raw-binary", "-o", out, schema,
                           "--", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    files = os.listdir(out)
    if proc.returncode != 0 or len(files) != 1:
        raise RuntimeError(f"flatc cannot read {path}")
    with open(os.path.join(out, files[0])) as f:
        return json.load(f)


def program_of(path: str, tmp: str) -> dict:
    if path.endswith(".bpte"):
        bundle = dump(path, os.path.join(SCHEMA_DIR, "bundled_program.fbs"), tmp)
        inner = os.path.join(tmp, "inner.pte")
        with open(inner, "wb") as f:
            f.write(bytes(bundle["program"]))
        return dump(inner, os.path.join(SCHEMA_DIR, "program.fbs"), tmp)
    return dump(path, os.path.join(SCHEMA_DIR, "program.fbs"), tmp)


def collect() -> Dict[str, Tuple[Set[int], Set[str]]]:
    seen: Dict[str, Tuple[Set[int], Set[str]]] = defaultdict(lambda: (set(), set()))
    with tempfile.TemporaryDirectory(prefix="corpus_ops_") as tmp:
        for dirpath, _, names in sorted(os.walk(CORPUS)):
            for name in sorted(names):
                if not name.endswith((".pte", ".bpte")):
                    continue
                path = os.path.join(dirpath, name)
                try:
                    program = program_of(path, tmp)
                except RuntimeError:
                    continue  # the corpus keeps a deliberately corrupt file
                rel = os.path.relpath(path, CORPUS)
                for plan in program.get("execution_plan", []):
                    ops = plan.get("operators", [])
                    for chain in plan.get("chains", []):
                        for ins in chain.get("instructions", []):
                            if ins.get("instr_args_type") != "KernelCall":
                                continue
                            call = ins["instr_args"]
                            op = ops[call.get("op_index", 0)]
                            full = op["name"] + ("." + op["overload"] if op.get("overload") else "")
                            counts, files = seen[full]
                            counts.add(len(call.get("args", [])))
                            files.add(rel)
    return seen


def render(seen: Dict[str, Tuple[Set[int], Set[str]]]) -> str:
    lines = [HEADER]
    for op in sorted(seen):
        counts, files = seen[op]
        lines.append(f"{op}\t{','.join(str(c) for c in sorted(counts))}\t{len(files)}\n")
    return "".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if not os.path.isdir(CORPUS):
        print(f"corpus_ops: {CORPUS} is missing", file=sys.stderr)
        return 2
    text = render(collect())
    if args.check:
        current = open(OUT).read() if os.path.exists(OUT) else ""
        if current != text:
            print("tools/export/corpus_ops.txt is out of date: run python3 tools/export/corpus_ops.py",
                  file=sys.stderr)
            return 1
        return 0
    with open(OUT, "w") as f:
        f.write(text)
    print(f"corpus_ops: wrote {os.path.relpath(OUT, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
