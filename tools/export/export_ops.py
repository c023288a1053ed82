#!/usr/bin/python3
"""Writes the op cases of tools/export/cases/*.py as tests/ops/cases/<op>.pte
(one method per case) and <op>.json (inputs, PyTorch's outputs, tolerances).

    /usr/bin/python3 tools/export/export_ops.py                 # every family
    /usr/bin/python3 tools/export/export_ops.py --only unary    # a family ...
    /usr/bin/python3 tools/export/export_ops.py --only aten::abs.out  # ... or ops
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from typing import Any, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tools", "pte"))

import torch  # noqa: E402

import oplib  # noqa: E402
from oplib import CaseError, T  # noqa: E402
from pte_writer import ProgramBuilder  # noqa: E402

CASES_DIR = os.path.join(HERE, "cases")
DEFAULT_OUT = os.path.join(ROOT, "tests", "ops", "cases")
# Every case is committed and runs in every `npm test`, three times.
MAX_OP_BYTES = 80 * 1024


def load_families() -> Dict[str, List[oplib.Case]]:
    families: Dict[str, List[oplib.Case]] = {}
    for fname in sorted(os.listdir(CASES_DIR)):
        if not fname.endswith(".py") or fname.startswith("_"):
            continue
        family = fname[:-3]
        spec = importlib.util.spec_from_file_location(f"cases_{family}", os.path.join(CASES_DIR, fname))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        cases = list(getattr(module, "CASES", []))
        for c in cases:
            c.source = family
        families[family] = cases
    return families


def file_stem(op: str) -> str:
    return op.replace("::", "__")


def add_argument(m: Any, arg: Any, v: Any, inputs: List[Dict[str, Any]]) -> int:
    ty = str(arg.type)
    if v is None:
        return m.null()
    if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], T):
        return add_input(m, v[0], v[1], inputs)
    if isinstance(v, list) and any(isinstance(x, tuple) for x in v):
        items = [None if x is None else add_input(m, x[0], x[1], inputs) for x in v]
        if "Optional[Tensor]" in ty:
            return m.optional_tensor_list(items)
        if None in items:
            raise CaseError(f"argument '{arg.name}' ({ty}) cannot hold None")
        return m.tensor_list(items)
    if isinstance(v, bool):
        return m.bool(v)
    if isinstance(v, int):
        return m.int(v)
    if isinstance(v, float):
        return m.double(v)
    if isinstance(v, torch.dtype):
        return m.int(oplib.SCALAR_TYPE_CODES[v])
    if isinstance(v, torch.memory_format):
        return m.int(oplib.MEMORY_FORMAT_CODES[v])
    if isinstance(v, torch.layout):
        return m.int(0)
    if isinstance(v, torch.device):
        return m.null()
    if isinstance(v, str):
        return m.string(v)
    if isinstance(v, (list, tuple)):
        if "float" in ty:
            return m.double_list([float(x) for x in v])
        if "bool" in ty:
            return m.bool_list([bool(x) for x in v])
        return m.int_list([int(x) for x in v])
    raise CaseError(f"argument '{arg.name}' ({ty}): cannot store {v!r}")


def add_input(m: Any, spec: T, t: torch.Tensor, inputs: List[Dict[str, Any]]) -> int:
    order = spec.dim_order if spec.dim_order is not None else list(range(t.dim()))
    idx = m.input(m.tensor(oplib.DTYPE_NAMES[t.dtype], list(t.shape), dim_order=order))
    entry = oplib.encode(t)
    if order != list(range(t.dim())):
        entry["dim_order"] = order
    inputs.append(entry)
    return idx


def build_case(m: Any, c: oplib.Case, index: int) -> Dict[str, Any]:
    b = oplib.bind(c, oplib.seeded(c.op, index))
    expected = oplib.reference(c, b)
    inputs: List[Dict[str, Any]] = []
    args = [add_argument(m, a, v, inputs) for a, v in b.inputs]
    out_args = [a for a in b.schema.arguments if oplib.is_out(a)]
    if not out_args:
        first = b.schema.arguments[0] if b.schema.arguments else None
        if first is not None and first.alias_info is not None and first.alias_info.is_write:
            return build_inplace_case(m, c, b, args, inputs, expected)
        return build_scalar_case(m, c, b, args, inputs)
    # Inputs the op writes in place (a KV cache: `Tensor(a!) cache`, not an
    # out): the case also outputs them, and ref= returns their values after
    # the call, in schema order, after the outs.
    mutated = [v for (a, _), v in zip(b.inputs, args)
               if not oplib.is_out(a) and a.alias_info is not None and a.alias_info.is_write]
    outs: List[int] = []
    slots: List[int] = []
    remaining = list(expected[:len(expected) - len(mutated)])
    for a in out_args:
        if str(a.type) == "List[Tensor]":
            items = [out_tensor(m, t) for t in remaining]
            remaining = []
            outs.extend(items)
            slots.append(m.tensor_list(items))
        else:
            if not remaining:
                raise CaseError(f"{c.op}: PyTorch gave fewer results than the schema's outs")
            t = remaining.pop(0)
            outs.append(out_tensor(m, t))
            slots.append(outs[-1])
    if remaining:
        raise CaseError(f"{c.op}: PyTorch gave {len(expected)} results for {len(out_args)} outs")
    # ExecuTorch's emitter (exir/emit/_emitter.py, _emit_operator) appends the
    # returned value to every out variant's call, whatever the schema returns:
    # the one out itself, or a new TensorList of the outs when there are
    # several or the one out is a Tensor[] (split_copy returns `()`).
    single = len(out_args) == 1 and str(out_args[0].type) != "List[Tensor]"
    ret = [slots[0]] if single else [m.tensor_list(outs)]
    m.kernel_call(c.op, args + slots + ret)
    for o in outs + mutated:
        m.output(o)
    rtol, atol = oplib.tolerance(c, expected)
    record = {
        "method": m.name,
        "desc": oplib.describe(c, b),
        "inputs": inputs,
        # Only "values" compares elements; other checks keep dtype and shape
        # (zeros, so that random and uninitialized results do not churn).
        "outputs": [oplib.encode(t if oplib.check_of(c.check, k) == "values" else torch.zeros_like(t))
                    for k, t in enumerate(expected)],
        "rtol": rtol,
        "atol": atol,
        "check": c.check,
        "family": c.source,
    }
    if c.max_ulps is not None:
        # Only where set, so that the other cases' files do not change.
        record["max_ulps"] = c.max_ulps
    return record


def build_inplace_case(m: Any, c: oplib.Case, b: Any, args: List[int],
                       inputs: List[Dict[str, Any]], expected: List[torch.Tensor]) -> Dict[str, Any]:
    """In-place ops (copy_, index_put_): ExecuTorch's emitter calls them with
    their schema arguments, then the returned value, a tensor of its own from
    the node's spec. The kernel writes self and makes the returned value hold
    it; the case's output is that returned value."""
    if len(expected) != 1:
        raise CaseError(f"{c.op}: an in-place op with {len(expected)} results")
    ret = out_tensor(m, expected[0])
    m.kernel_call(c.op, args + [ret])
    m.output(ret)
    rtol, atol = oplib.tolerance(c, expected)
    return {"method": m.name, "desc": oplib.describe(c, b), "inputs": inputs,
            "outputs": [oplib.encode(expected[0])], "rtol": rtol, "atol": atol,
            "check": c.check, "family": c.source}


def build_scalar_case(m: Any, c: oplib.Case, b: Any, args: List[int],
                      inputs: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Ops that return one scalar (sym_size.int, ...): ExecuTorch's prim
    layout, [*args, result], with the result an Int/Double/Bool value."""
    if len(b.schema.returns) != 1:
        raise CaseError(f"{c.op}: no out arguments and {len(b.schema.returns)} returns")
    ret_type = str(b.schema.returns[0].type)
    pos = [oplib._value(v) for a, v in b.inputs if not a.kwarg_only]
    kw = {a.name: oplib._value(v) for a, v in b.inputs if a.kwarg_only}
    if c.ref is not None:
        value = c.ref(*pos, **kw)
    else:
        ns, name, overload = oplib.split_op_name(c.op)
        value = getattr(getattr(getattr(torch.ops, ns), name), overload)(*pos, **kw)
    if isinstance(value, bool) or ret_type in ("bool", "SymBool"):
        kind, slot, text = "Bool", m.bool(False), "true" if value else "false"
    elif isinstance(value, int):
        kind, slot, text = "Int", m.int(0), str(int(value))
    elif isinstance(value, float):
        kind, slot, text = "Double", m.double(0.0), repr(float(value))
    else:
        raise CaseError(f"{c.op}: cannot compare a result of type {type(value).__name__}")
    m.kernel_call(c.op, args + [slot])
    m.output(slot)
    return {"method": m.name, "desc": oplib.describe(c, b), "inputs": inputs,
            "outputs": [{"kind": kind, "value": text}], "rtol": 0.0, "atol": 0.0,
            "check": c.check, "family": c.source}


def out_tensor(m: Any, t: torch.Tensor) -> int:
    return m.tensor(oplib.DTYPE_NAMES[t.dtype], list(t.shape), dim_order=oplib.dim_order_of(t))


def write_op(op: str, cases: List[oplib.Case], out_dir: str) -> int:
    pb = ProgramBuilder()
    records = []
    for i, c in enumerate(cases):
        m = pb.method(f"c{i}" + (f"_{c.name}" if c.name else ""))
        try:
            records.append(build_case(m, c, i))
        except (CaseError, RuntimeError, TypeError, ValueError, IndexError) as e:
            raise CaseError(f"{op} case {i} ({c.source}.py): {e}") from e
    stem = os.path.join(out_dir, file_stem(op))
    pb.write(stem + ".pte")
    with open(stem + ".json", "w") as f:
        json.dump({"op": op, "schema": str(oplib.out_schema(cases[0])), "torch": torch.__version__,
                   "cases": records}, f, separators=(",", ":"))
        f.write("\n")
    size = os.path.getsize(stem + ".json") + os.path.getsize(stem + ".pte")
    if size > MAX_OP_BYTES:
        print(f"export_ops: WARNING {op}: {size // 1024} KB of cases; the committed cases are "
              f"kept small ({MAX_OP_BYTES // 1024} KB per op): use smaller tensors", file=sys.stderr)
    return len(records)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", nargs="*", default=None, help="families or op names")
    ap.add_argument("--out", default=DEFAULT_OUT)
    args = ap.parse_args()
    torch.set_num_threads(1)
    families = load_families()
    by_op: Dict[str, List[oplib.Case]] = {}
    for family, cases in families.items():
        for c in cases:
            by_op.setdefault(c.op, []).append(c)
    selected = set(by_op)
    if args.only is not None:
        selected = {op for op, cs in by_op.items()
                    if op in args.only or any(c.source in args.only for c in cs)}
        if not selected:
            print(f"export_ops: nothing matches {args.only}", file=sys.stderr)
            return 2
    os.makedirs(args.out, exist_ok=True)
    if args.only is None:
        # A full run owns the folder: drop files of ops that have no cases now.
        keep = {file_stem(op) for op in by_op}
        for fname in os.listdir(args.out):
            stem, ext = os.path.splitext(fname)
            if ext in (".pte", ".json") and stem not in keep:
                os.remove(os.path.join(args.out, fname))
    failures = 0
    total = 0
    for op in sorted(selected):
        try:
            total += write_op(op, by_op[op], args.out)
        except CaseError as e:
            failures += 1
            print(f"export_ops: {e}", file=sys.stderr)
    print(f"export_ops: {total} cases of {len(selected) - failures} ops written to "
          f"{os.path.relpath(args.out, ROOT)}" + (f"; {failures} ops FAILED" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
