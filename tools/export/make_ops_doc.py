#!/usr/bin/env python3
"""Generates docs/ops.md from the kernel tables (cpp/kernels/tables/*.inc),
the op cases (tests/ops/cases/*.json) and PyTorch's core ATen list
(core_aten_ops.txt). Standard library only, so any python3 runs it.

    python3 tools/export/make_ops_doc.py            # writes docs/ops.md
    python3 tools/export/make_ops_doc.py --check    # fails if it is stale
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import sys
from typing import Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DOC = os.path.join(ROOT, "docs", "ops.md")
DTYPE_ORDER = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
               "uint8", "bool"]
SHORT = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16", "int8": "i8",
         "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8", "bool": "bool"}


def read_tables() -> List[Tuple[str, str, bool]]:
    """(registry name, family, has SIMD) for every kernel."""
    kernels = []
    for path in sorted(glob.glob(os.path.join(ROOT, "cpp", "kernels", "tables", "*.inc"))):
        family = os.path.splitext(os.path.basename(path))[0]
        for line in open(path):
            m = re.match(r'\s*TRI_KERNEL\("([^"]+)"', line)
            if m:
                kernels.append((m.group(1), family, bool(re.search(r"//\s*simd\b", line))))
    return kernels


def read_cases() -> Dict[str, dict]:
    cases = {}
    for path in glob.glob(os.path.join(ROOT, "tests", "ops", "cases", "*.json")):
        with open(path) as f:
            data = json.load(f)
        cases[data["op"]] = data
    return cases


def read_core() -> List[Tuple[str, str]]:
    core = []
    for line in open(os.path.join(HERE, "core_aten_ops.txt")):
        if line.startswith("#") or not line.strip():
            continue
        name, schema = line.rstrip("\n").split("\t", 1)
        core.append((name, schema))
    return core


def read_portable() -> List[Tuple[str, str]]:
    """(registry name, why it cannot run or "") of ExecuTorch's portable ops."""
    ops = []
    for line in open(os.path.join(HERE, "executorch_portable_ops.txt")):
        if line.startswith("#") or not line.strip():
            continue
        name, _, why = line.rstrip("\n").partition("\t")
        ops.append((name, why))
    return ops


def read_corpus_ops() -> Dict[str, str]:
    """Operator -> argument counts of its calls in the corpus programs."""
    ops = {}
    for line in open(os.path.join(HERE, "corpus_ops.txt")):
        if line.startswith("#") or not line.strip():
            continue
        name, counts, _ = line.rstrip("\n").split("\t")
        ops[name] = counts
    return ops


def split_arguments(schema: str) -> List[str]:
    inner = schema[schema.index("(") + 1:schema.rindex("->")]
    inner = inner[:inner.rindex(")")]
    parts, depth, cur = [], 0, ""
    for ch in inner:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip() and p.strip() != "*"]


def typed_arguments(schema: str) -> List[Tuple[str, str]]:
    """(type, name) of a schema's inputs (outs, whose type has '!', left
    out), with types normalized across PyTorch versions (SymInt is int,
    Scalar is int, fixed list sizes and alias annotations dropped)."""
    out = []
    for p in split_arguments(schema):
        if "!" in p:
            continue
        decl = p.split("=")[0].split()
        ty = re.sub(r"\([^)]*\)", "", " ".join(decl[:-1]))
        # var.correction's `correction` was an int and is a Scalar now.
        ty = ty.replace("SymInt", "int").replace("Scalar", "int")
        ty = re.sub(r"\[\d+\]", "[]", ty).replace(" ", "")
        out.append((ty, decl[-1]))
    return out


# Out overloads drop the TensorOptions arguments of factory ops (the out
# tensor carries dtype and device): full.out has no `dtype`.
TENSOR_OPTIONS = {"dtype", "layout", "device", "pin_memory"}


def match_kernel(core_name: str, core_schema: str, registered: Dict[str, str],
                 cases: Dict[str, dict]) -> Optional[str]:
    if core_name in registered:
        return core_name
    if core_name.endswith(".default") and core_name[:-len(".default")] in registered:
        return core_name[:-len(".default")]  # prim layout: "aten::sym_numel"
    ns, rest = core_name.split("::")
    name, overload = rest.split(".", 1)
    want = [a for a in typed_arguments(core_schema) if a[1] not in TENSOR_OPTIONS]
    for base in (name, name + "_copy"):
        for k in registered:
            if not k.startswith(f"{ns}::{base}."):
                continue
            schema = cases.get(k, {}).get("schema")
            if schema and [a for a in typed_arguments(schema) if a[1] not in TENSOR_OPTIONS] == want:
                return k
    guesses = []
    for base in (name, name + "_copy"):
        if overload in ("default", "Tensor"):
            guesses.append(f"{ns}::{base}.out")
        guesses.append(f"{ns}::{base}.{overload}_out")
    for g in guesses:
        if g in registered and not cases.get(g, {}).get("schema"):
            return g
    return None


def dtypes_of(case_file: dict) -> List[str]:
    seen = set()
    for c in case_file["cases"]:
        for t in c["inputs"] + c["outputs"]:
            if "dtype" in t:
                seen.add(t["dtype"])
    return [d for d in DTYPE_ORDER if d in seen]


def features_of(case_file: dict) -> str:
    feats = set()
    for c in case_file["cases"]:
        if any("dim_order" in t for t in c["inputs"]):
            feats.add("channels-last")
        if any(0 in t.get("shape", [1]) for t in c["inputs"] + c["outputs"]):
            feats.add("size 0")
        if any(t["shape"] == [] for t in c["inputs"]):
            feats.add("0-dim")
        for check in set(c.get("check", "values").split(",")) - {"values"}:
            # Per-output lists name the outputs ATen leaves unspecified.
            feats.add(f"checked by {check.split(':')[0]}" if "," not in c["check"]
                      else f"some outputs checked by {check.split(':')[0]}")
    return ", ".join(sorted(feats))


def row(kernel: str, simd: bool, cases: Dict[str, dict]) -> str:
    cf = cases.get(kernel)
    if cf is None:
        # ExecuTorch's own ops have no PyTorch twin to compare with.
        status = "C++ units" if kernel.startswith("executorch_prim::") else "not yet"
        return f"`{kernel}` | {status} | | | {'yes' if simd else ''} |"
    dts = " ".join(SHORT[d] for d in dtypes_of(cf))
    return f"`{kernel}` | {len(cf['cases'])} | {dts} | {features_of(cf)} | {'yes' if simd else ''} |"


def generate() -> str:
    kernels = read_tables()
    registered = {k: fam for k, fam, _ in kernels}
    simd = {k: s for k, _, s in kernels}
    cases = read_cases()
    core = read_core()
    matched: Dict[str, Optional[str]] = {c: match_kernel(c, s, registered, cases) for c, s in core}
    verified = [c for c, k in matched.items() if k and k in cases]
    verified_f32 = [c for c in verified if "float32" in dtypes_of(cases[matched[c]])]
    lines = [
        "# Operators",
        "",
        "Generated by `tools/export/make_ops_doc.py` from the kernel tables",
        "(`cpp/kernels/tables/*.inc`), the op cases (`tests/ops/cases/`, written by",
        "`tools/export/export_ops.py` with PyTorch " + _torch_version(cases) + "'s outputs) and PyTorch's",
        "core ATen list (`tools/export/core_aten_ops.txt`), ExecuTorch's portable operator",
        "list (`tools/export/executorch_portable_ops.txt`) and the operators real programs",
        "call (`tools/export/corpus_ops.txt`). Do not edit by hand.",
        "",
        "Every case runs in `npm test`: natively (`ops_test`) and through the wasm build in",
        "Node with the SIMD paths on and off (`tests/ops/op-cases.test.ts`). *Cases* counts",
        "the cases checked against PyTorch; *dtypes* lists the dtypes they cover (inputs and",
        "outputs); *SIMD* marks a wasm SIMD128 path beside the scalar reference.",
        "",
        f"- Kernels registered: {len(kernels)}.",
        f"- Core ATen overloads: {len(core)}; with a kernel: {sum(1 for k in matched.values() if k)}; "
        f"verified against PyTorch: {len(verified)} ({len(verified_f32)} in float32; the others, "
        f"such as the bitwise ops, have no float32 form).",
        f"- Op cases: {sum(len(c['cases']) for c in cases.values())} over {len(cases)} kernels.",
        "",
        "## Core ATen operators",
        "",
        "| core overload | kernel | cases | dtypes | also covered | SIMD |",
        "|---|---|---|---|---|---|",
    ]
    for c, _ in core:
        k = matched[c]
        if k:
            lines.append(f"| `{c}` | " + row(k, simd[k], cases))
    lines += portable_section(read_portable(), registered, simd, cases, read_corpus_ops())
    lines += ["", "## Core ATen operators without a kernel", ""]
    missing = [c for c, _ in core if not matched[c]]
    lines.append(", ".join(f"`{c}`" for c in missing) if missing else "None.")
    used = {k for k in matched.values() if k}
    lines += ["", "## Other kernels", "",
              "ExecuTorch's extra portable ops, other overloads, and its own namespaces.", "",
              "| kernel | cases | dtypes | also covered | SIMD |", "|---|---|---|---|---|"]
    for k, _, s in sorted(kernels):
        if k not in used:
            lines.append("| " + row(k, s, cases))
    return "\n".join(lines) + "\n"


def portable_section(portable: List[Tuple[str, str]], registered: Dict[str, str],
                     simd: Dict[str, bool], cases: Dict[str, dict],
                     corpus: Dict[str, str]) -> List[str]:
    runnable = [n for n, why in portable if not why]
    verified = [n for n in runnable if n in registered and n in cases]
    missing = [n for n in runnable if n not in registered or n not in cases]
    in_corpus = [n for n, _ in portable if n in corpus]
    lines = ["", "## ExecuTorch's portable operators", "",
             "Every operator of ExecuTorch's `kernels/portable/functions.yaml`, by its registry name.",
             "Each kernel takes the arguments ExecuTorch's emitter writes: the schema's arguments",
             "(kwarg-only ones included), the outs, then the returned value, which an op returning",
             "`()` with a `Tensor[]` out still gets (a second list of the outs). *Corpus* gives the",
             "argument count of the operator's calls in the corpus programs, checked against the",
             "kernel table by `tests/ops/corpus-layouts.test.ts`.", "",
             f"- Operators: {len(portable)}; implemented and verified against PyTorch: {len(verified)}; "
             f"without a kernel or cases: {len(missing)}"
             + (f" ({', '.join('`' + n + '`' for n in missing)})" if missing else "")
             + f"; cannot run: {len(portable) - len(runnable)}.",
             f"- Called by corpus programs, so checked against real argument layouts: {len(in_corpus)}.",
             "", "| operator | cases | dtypes | also covered | SIMD | corpus |", "|---|---|---|---|---|---|"]
    for name, why in portable:
        if why:
            lines.append(f"| `{name}` | cannot run: {why} | | | | |")
            continue
        layout = corpus.get(name, "")
        if name in registered:
            lines.append("| " + row(name, simd[name], cases) + f" {layout} |")
        else:
            lines.append(f"| `{name}` | no kernel | | | | {layout} |")
    return lines


def _torch_version(cases: Dict[str, dict]) -> str:
    versions = sorted({c.get("torch", "?").split("a")[0].split("+")[0] for c in cases.values()})
    return "/".join(versions) if versions else "(none yet)"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    text = generate()
    if args.check:
        current = open(DOC).read() if os.path.exists(DOC) else ""
        if current != text:
            print("docs/ops.md is out of date: run python3 tools/export/make_ops_doc.py", file=sys.stderr)
            return 1
        return 0
    with open(DOC, "w") as f:
        f.write(text)
    print(f"make_ops_doc: wrote {os.path.relpath(DOC, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
