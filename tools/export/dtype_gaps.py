#!/usr/bin/env python3
"""Finds ops whose committed cases miss int64 or bool where PyTorch has them.

For each op, the first case with float32 tensor arguments is re-typed: those
arguments become int64 (or bool) tensors. When PyTorch 1.13 computes that
case, ATen defines the op for the dtype, and some case of the op must have
int64 (bool) tensors in the same argument positions. Each op missing one is
printed, and the exit status is 1.

    /usr/bin/python3 tools/export/dtype_gaps.py
"""
from __future__ import annotations

import copy
import os
import sys
import warnings
from typing import Any, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import torch  # noqa: E402

import export_ops  # noqa: E402
import oplib  # noqa: E402
from oplib import T  # noqa: E402

CHECKED = ["int64", "bool"]


def float_positions(c: oplib.Case) -> List[Any]:
    """Keys (positional index or kwarg name) of c's float32 tensor arguments."""
    keys: List[Any] = [i for i, a in enumerate(c.args) if isinstance(a, T) and a.dtype == "float32"]
    keys += [k for k, a in c.kwargs.items() if isinstance(a, T) and a.dtype == "float32"]
    return keys


def arg(c: oplib.Case, key: Any) -> Any:
    if isinstance(key, int):
        return c.args[key] if key < len(c.args) else None
    return c.kwargs.get(key)


def retyped(spec: T, dtype: str) -> T:
    t = copy.copy(spec)
    t.dtype = dtype
    if spec.values is not None:
        t.values = [bool(v) if dtype == "bool" else int(v) for v in spec.values]
    if dtype == "bool":
        t.low = t.high = None
    else:
        low = -5 if spec.low is None else int(spec.low)
        t.low, t.high = low, max(low + 1, 6 if spec.high is None else int(spec.high))
    return t


def accepts(c: oplib.Case, keys: List[Any], dtype: str) -> bool:
    trial = copy.copy(c)
    trial.args = tuple(retyped(a, dtype) if i in keys else a for i, a in enumerate(c.args))
    trial.kwargs = {k: retyped(a, dtype) if k in keys else a for k, a in c.kwargs.items()}
    trial.ref, trial.out_dtypes = None, None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            oplib.reference(trial, oplib.bind(trial, oplib.seeded(c.op, 0)))
        return True
    except Exception:  # PyTorch refused: ATen has no such kernel
        return False


def covered(cases: List[oplib.Case], keys: List[Any], dtype: str) -> bool:
    return any(all(isinstance(arg(c, k), T) and arg(c, k).dtype == dtype for k in keys)
               for c in cases)


def main() -> int:
    by_op: dict = {}
    for cases in export_ops.load_families().values():
        for c in cases:
            by_op.setdefault(c.op, []).append(c)
    gaps = []
    for op in sorted(by_op):
        first: Optional[oplib.Case] = next((c for c in by_op[op] if float_positions(c)), None)
        if first is None:
            continue
        keys = float_positions(first)
        for dtype in CHECKED:
            if not covered(by_op[op], keys, dtype) and accepts(first, keys, dtype):
                gaps.append(f"{op}: PyTorch computes it for {dtype}, no case has {dtype} there")
    for g in gaps:
        print(g, file=sys.stderr)
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())
