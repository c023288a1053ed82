"""The op-case format: `case(...)` and `T(...)` (see README.md), and how a
case becomes one method of a `.pte` plus its expected outputs.

A case is materialized with a generator seeded from the op name and the case's
position, so re-running the exporter reproduces the committed files.
"""
from __future__ import annotations

import base64
import re
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch

# ExecuTorch's ScalarType numbering (c10's), for dtypes stored in a program.
SCALAR_TYPE_CODES = {
    torch.uint8: 0, torch.int8: 1, torch.int16: 2, torch.int32: 3, torch.int64: 4,
    torch.float16: 5, torch.float32: 6, torch.float64: 7, torch.bool: 11,
    torch.bfloat16: 15,
}
DTYPE_NAMES = {
    torch.uint8: "uint8", torch.int8: "int8", torch.int16: "int16", torch.int32: "int32",
    torch.int64: "int64", torch.float16: "float16", torch.float32: "float32",
    torch.float64: "float64", torch.bool: "bool", torch.bfloat16: "bfloat16",
}
DTYPES_BY_NAME = {v: k for k, v in DTYPE_NAMES.items()}
MEMORY_FORMAT_CODES = {
    torch.contiguous_format: 0, torch.preserve_format: 1, torch.channels_last: 2,
    torch.channels_last_3d: 3,
}
# Default tolerances by output dtype: float16/bfloat16 are computed in float32
# and rounded, so they may differ from PyTorch by one unit in the last place.
DEFAULT_TOLERANCE = {
    torch.float32: (1e-5, 1e-6), torch.float64: (1e-10, 1e-12),
    torch.float16: (2e-3, 1e-3), torch.bfloat16: (1.6e-2, 1e-2),
}
# The spacing of float16/bfloat16 values in [1, 2) and below the smallest
# normal: one ulp of a value in the binade [2^e, 2^(e+1)) is 2^e times the first.
HALF_ULPS = {torch.float16: (2.0 ** -10, 2.0 ** -24), torch.bfloat16: (2.0 ** -7, 2.0 ** -133)}


class CaseError(Exception):
    pass


@dataclass
class T:
    """An input tensor of a case (see README.md)."""
    shape: Sequence[int]
    dtype: str = "float32"
    low: Optional[float] = None
    high: Optional[float] = None
    values: Optional[Sequence[Any]] = None
    channels_last: bool = False
    dim_order: Optional[Sequence[int]] = None
    unique: bool = False

    def __init__(self, shape: Sequence[int], dtype: str = "float32", *, low=None, high=None,
                 values=None, channels_last=False, dim_order=None, unique=False):
        self.shape = list(shape)
        self.dtype = dtype
        self.low, self.high, self.values = low, high, values
        self.channels_last, self.unique = channels_last, unique
        if channels_last:
            if len(self.shape) != 4:
                raise CaseError(f"channels_last needs a 4-D shape, not {self.shape}")
            dim_order = [0, 2, 3, 1]
        self.dim_order = list(dim_order) if dim_order is not None else None

    def describe(self) -> str:
        s = f"{self.dtype}{self.shape}"
        if self.dim_order is not None and self.dim_order != sorted(self.dim_order):
            s += " cl" if self.channels_last else f" dim_order={self.dim_order}"
        return s

    def materialize(self, gen: torch.Generator) -> torch.Tensor:
        dt = DTYPES_BY_NAME.get(self.dtype)
        if dt is None:
            raise CaseError(f"unknown dtype {self.dtype!r}")
        n = 1
        for s in self.shape:
            n *= s
        if self.values is not None:
            t = torch.tensor(list(self.values), dtype=torch.float64 if dt.is_floating_point
                             else torch.int64).to(dt).reshape(self.shape)
        elif self.unique:
            perm = torch.randperm(max(n, 1), generator=gen)[:n]
            if dt.is_floating_point:
                t = (perm.to(torch.float64) - n / 2) / 4
            elif dt == torch.bool:
                raise CaseError("unique bool tensors do not exist")
            else:
                lo = 0 if dt == torch.uint8 else -(n // 2)
                t = perm + lo
            t = t.to(dt).reshape(self.shape)
        elif dt.is_floating_point:
            t = torch.randn(self.shape, generator=gen, dtype=torch.float64)
            if self.low is not None or self.high is not None:
                lo = -1.0 if self.low is None else float(self.low)
                hi = 1.0 if self.high is None else float(self.high)
                t = torch.rand(self.shape, generator=gen, dtype=torch.float64) * (hi - lo) + lo
            t = t.to(dt)
        elif dt == torch.bool:
            t = torch.randint(0, 2, self.shape, generator=gen).to(torch.bool)
        else:
            lo = int(self.low) if self.low is not None else (0 if dt == torch.uint8 else -10)
            hi = int(self.high) if self.high is not None else (20 if dt == torch.uint8 else 10)
            t = torch.randint(lo, hi, self.shape, generator=gen).to(dt)
        if self.dim_order is not None:
            order = list(self.dim_order)
            if sorted(order) != list(range(len(self.shape))):
                raise CaseError(f"dim_order {order} does not fit shape {self.shape}")
            # Same values, stored in `order`: permute to storage order, make
            # that contiguous, and permute back.
            inverse = [order.index(d) for d in range(len(order))]
            t = t.permute(order).contiguous().permute(inverse)
        return t


@dataclass
class Case:
    op: str
    args: Tuple[Any, ...]
    kwargs: Dict[str, Any]
    out_dtypes: Optional[List[str]] = None
    schema: Optional[str] = None
    ref: Optional[Callable[..., Any]] = None
    rtol: Optional[float] = None
    atol: Optional[float] = None
    check: str = "values"
    name: str = ""
    source: str = ""  # the family file
    max_ulps: Optional[int] = None


def case(op: str, *args: Any, out_dtype: Optional[str] = None,
         out_dtypes: Optional[Sequence[str]] = None, schema: Optional[str] = None,
         ref: Optional[Callable[..., Any]] = None, rtol: Optional[float] = None,
         atol: Optional[float] = None, check: str = "values", name: str = "",
         max_ulps: Optional[int] = None, **kwargs: Any) -> Case:
    if out_dtype is not None and out_dtypes is not None:
        raise CaseError("give out_dtype or out_dtypes, not both")
    if max_ulps is not None and (rtol is not None or atol is not None):
        raise CaseError("give max_ulps or rtol/atol, not both")
    dts = [out_dtype] if out_dtype is not None else (list(out_dtypes) if out_dtypes else None)
    return Case(op, tuple(args), dict(kwargs), dts, schema, ref, rtol, atol, check, name,
                max_ulps=max_ulps)


def check_of(check: str, k: int) -> str:
    """The check of output k: `check` is one check for every output, or a
    comma-separated list with one per output."""
    parts = check.split(",")
    return parts[k] if len(parts) > 1 else parts[0]


# -- schemas -------------------------------------------------------------------

def split_op_name(op: str) -> Tuple[str, str, str]:
    m = re.fullmatch(r"(\w+)::(\w+)(?:\.(\w+))?", op)
    if not m:
        raise CaseError(f"op name {op!r} is not 'namespace::name.overload'")
    return m.group(1), m.group(2), m.group(3) or "default"


def out_schema(c: Case) -> Any:
    if c.schema is not None:
        text = c.schema if "::" in c.schema.split("(")[0] else "aten::" + c.schema
        return torch._C.parse_schema(text)
    ns, name, overload = split_op_name(c.op)
    try:
        return getattr(getattr(getattr(torch.ops, ns), name), overload)._schema
    except (AttributeError, RuntimeError):
        raise CaseError(f"torch {torch.__version__} has no {c.op}; give schema= and ref=") from None


def is_out(arg: Any) -> bool:
    return bool(getattr(arg, "is_out", False)) or (
        arg.kwarg_only and arg.alias_info is not None and arg.alias_info.is_write)


def functional_overload(c: Case, schema: Any) -> Optional[Any]:
    """The overload of the same op with the out schema's inputs and no outs
    (add.out -> add.Tensor): PyTorch's own result is the reference."""
    ns, name, _ = split_op_name(c.op)
    packet = getattr(getattr(torch.ops, ns), name, None)
    if packet is None:
        return None
    want = [(a.name, str(a.type)) for a in schema.arguments if not is_out(a)]
    for ov in packet.overloads():
        fn = getattr(packet, ov)
        args = fn._schema.arguments
        if any(is_out(a) for a in args):
            continue
        if [(a.name, str(a.type)) for a in args] == want:
            return fn
    return None


# -- materializing a case -------------------------------------------------------

@dataclass
class Bound:
    """A case with its arguments materialized, in schema order."""
    schema: Any
    inputs: List[Tuple[Any, Any]] = field(default_factory=list)  # (argument, value)
    tensor_inputs: List[torch.Tensor] = field(default_factory=list)
    specs: Dict[int, T] = field(default_factory=dict)


def seeded(op: str, index: int) -> torch.Generator:
    g = torch.Generator()
    g.manual_seed(zlib.crc32(f"{op}#{index}".encode()))
    return g


def bind(c: Case, gen: torch.Generator) -> Bound:
    schema = out_schema(c)
    ins = [a for a in schema.arguments if not is_out(a)]
    positional = [a for a in ins if not a.kwarg_only]
    if len(c.args) > len(positional):
        raise CaseError(f"{c.op}: {len(c.args)} positional arguments, the schema has "
                        f"{len(positional)}: {schema}")
    unknown = set(c.kwargs) - {a.name for a in ins}
    if unknown:
        raise CaseError(f"{c.op}: no arguments named {sorted(unknown)} in {schema}")
    b = Bound(schema)
    for i, a in enumerate(ins):
        if not a.kwarg_only and i < len(c.args):
            v = c.args[i]
        elif a.name in c.kwargs:
            v = c.kwargs[a.name]
        elif a.default_value is not None or a.type.kind() == "OptionalType":
            v = a.default_value
        else:
            raise CaseError(f"{c.op}: argument '{a.name}' has no value and no default")
        b.inputs.append((a, _materialize(v, gen)))
    return b


def _materialize(v: Any, gen: torch.Generator) -> Any:
    if isinstance(v, T):
        return (v, v.materialize(gen))
    if isinstance(v, (list, tuple)) and any(isinstance(x, T) for x in v):
        return [None if x is None else (x, x.materialize(gen)) for x in v]
    return v


def _value(v: Any) -> Any:
    """A materialized argument as PyTorch takes it."""
    if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], T):
        return v[1]
    if isinstance(v, list) and any(isinstance(x, tuple) for x in v):
        return [None if x is None else x[1] for x in v]
    return v


def reference(c: Case, b: Bound) -> List[torch.Tensor]:
    """PyTorch's outputs, as a flat list of tensors."""
    pos = [_value(v) for a, v in b.inputs if not a.kwarg_only]
    kw = {a.name: _value(v) for a, v in b.inputs if a.kwarg_only}
    # Kernels under test must not see PyTorch's in-place changes: clone.
    pos = [x.clone() if isinstance(x, torch.Tensor) else x for x in pos]
    if c.ref is not None:
        result = c.ref(*pos, **kw)
    else:
        fn = functional_overload(c, b.schema) if c.out_dtypes is None else None
        if fn is not None:
            result = fn(*pos, **kw)
        else:
            outs = [a for a in b.schema.arguments if is_out(a)]
            dts = c.out_dtypes or [_first_tensor_dtype(b)] * len(outs)
            if len(dts) != len(outs):
                raise CaseError(f"{c.op}: {len(outs)} outs, {len(dts)} out dtypes")
            out_kw = {a.name: torch.empty(0, dtype=DTYPES_BY_NAME[d]) for a, d in zip(outs, dts)}
            ns, name, overload = split_op_name(c.op)
            fn = getattr(getattr(getattr(torch.ops, ns), name), overload)
            fn(*pos, **kw, **out_kw)
            result = tuple(out_kw[a.name] for a in outs)
    if isinstance(result, (list, tuple)) and any(r is None for r in result):
        # Outs that an output_mask turns off come back undefined; the kernel
        # leaves such an out alone, so the case gives it no elements.
        empty = torch.empty(0, dtype=DTYPES_BY_NAME[_first_tensor_dtype(b)])
        result = tuple(empty if r is None else r for r in result)
    return _flatten(result)


def _first_tensor_dtype(b: Bound) -> str:
    for _, v in b.inputs:
        if isinstance(v, tuple) and isinstance(v[0], T):
            return DTYPE_NAMES[v[1].dtype]
    return "float32"


def _flatten(r: Any) -> List[torch.Tensor]:
    if isinstance(r, torch.Tensor):
        return [r]
    if isinstance(r, (list, tuple)):
        out: List[torch.Tensor] = []
        for x in r:
            out.extend(_flatten(x))
        return out
    if isinstance(r, (int, float, bool)):
        return [torch.tensor(r)]
    raise CaseError(f"cannot use a result of type {type(r).__name__}")


def dim_order_of(t: torch.Tensor) -> List[int]:
    """The dim order of a strided tensor: dims from outermost to innermost
    (ties, from size-1 dims, keep their logical order)."""
    return sorted(range(t.dim()), key=lambda d: (-t.stride(d), d))


def encode(t: torch.Tensor) -> Dict[str, Any]:
    """Row-major little-endian bytes in base64, with dtype and shape."""
    flat = t.detach().contiguous().reshape(-1)
    raw = flat.view(torch.uint8).numpy().tobytes() if flat.numel() else b""
    return {"dtype": DTYPE_NAMES[t.dtype], "shape": list(t.shape),
            "data": base64.b64encode(raw).decode("ascii")}


def tolerance(c: Case, outs: Sequence[torch.Tensor]) -> Tuple[float, float]:
    """rtol and atol of a case. With max_ulps, float16/bfloat16 outputs get an
    rtol/atol that every value within max_ulps steps passes (n steps from v
    span at most n * rel * |v|, or n subnormal steps), for runners that read
    only rtol/atol (tests/cpp/ops)."""
    rtol, atol = 0.0, 0.0
    for o in outs:
        if c.max_ulps is not None and o.dtype in HALF_ULPS:
            r, a = (c.max_ulps * u for u in HALF_ULPS[o.dtype])
        else:
            r, a = DEFAULT_TOLERANCE.get(o.dtype, (0.0, 0.0))
        rtol, atol = max(rtol, r), max(atol, a)
    return (c.rtol if c.rtol is not None else rtol, c.atol if c.atol is not None else atol)


def describe(c: Case, b: Bound) -> str:
    parts = []
    for a, v in b.inputs:
        if isinstance(v, tuple) and isinstance(v[0], T):
            parts.append(v[0].describe())
        elif isinstance(v, list) and any(isinstance(x, tuple) for x in v):
            parts.append("[" + ", ".join("None" if x is None else x[0].describe() for x in v) + "]")
        elif v is None and a.default_value is None:
            continue
        elif isinstance(v, torch.dtype):
            parts.append(f"{a.name}={DTYPE_NAMES.get(v, str(v))}")
        else:
            parts.append(f"{a.name}={v!r}")
    if c.out_dtypes:
        parts.append("out=" + ",".join(c.out_dtypes))
    return ", ".join(parts)
