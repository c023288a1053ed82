"""One method's value table and instructions, written with pte_writer in ExecuTorch's layouts,
with the record that memory planning and the replay need."""

from __future__ import annotations

import collections
import dataclasses
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import torch

if TYPE_CHECKING:
    from pte_writer import Method

Size = Union[int, str]   # a str names a symbolic dim of the exported graph (e.g. "T")

TORCH_DTYPES = {"float32": torch.float32, "int64": torch.int64, "uint8": torch.uint8}
_DTYPE_NAMES = {t: name for name, t in TORCH_DTYPES.items()}


class ExportError(Exception):
    """A program the exporter cannot write, or one that fails a check."""


def numel(sizes: Sequence[int]) -> int:
    n = 1
    for s in sizes:
        n *= s
    return n


def concrete(sizes: Sequence[Size], dims: Mapping[str, int]) -> List[int]:
    """``sizes`` with every symbolic dim replaced by its value in ``dims``."""
    return [dims[s] if isinstance(s, str) else int(s) for s in sizes]


class Sym:
    """An Int value written at run time (a SymInt of the exported graph)."""

    def __init__(self, value: int):
        self.value = value


@dataclasses.dataclass
class TensorInfo:
    dtype: str
    sizes: List[Size]             # a str where the graph has a symbolic dim
    dynamic: bool                 # DYNAMIC_BOUND
    storage: str                  # "planned" | "constant"
    data: Optional[torch.Tensor] = None

    def sizes_at(self, dims: Mapping[str, int]) -> List[int]:
        return concrete(self.sizes, dims)

    def nbytes(self, dims: Mapping[str, int]) -> int:
        return numel(self.sizes_at(dims)) * torch.empty((), dtype=TORCH_DTYPES[self.dtype]).element_size()


class Emitter:
    """Builds one method with pte_writer, keeping what the planner and the replay need: every
    tensor's dtype and sizes, each instruction's tensors, views' bases, and the mutable buffers.
    ``plan`` (value index -> (memory_id, offset)) pins the allocations of a second, identical
    pass (see memory_plan.build_planned).

    ``bounds``: the upper bound of each symbolic dim. A tensor's sizes in the file are its sizes
    at the bounds, as ExecuTorch's memory planning sees them; a tensor with a symbolic dim is
    DYNAMIC_BOUND unless told otherwise.

    A SymInt result (``sym_size``, ``item``, ``sym_add``) is an Int value that the kernel
    overwrites at run time. ExecuTorch's emitter (``_get_sym_ret``) emits it after the op's
    arguments as ``Int(0)``, the defaults here; ``sym_value`` and ``sym_before_args`` give
    another value table with the same instructions."""

    def __init__(self, m: "Method", plan: Optional[Dict[int, Tuple[int, int]]] = None, *,
                 bounds: Optional[Mapping[str, int]] = None, sym_value: int = 0,
                 sym_before_args: bool = False):
        self.m = m
        self.plan = plan
        self.bounds: Dict[str, int] = dict(bounds or {})
        self.sym_value = sym_value
        self.sym_before_args = sym_before_args
        self.info: Dict[int, TensorInfo] = {}
        self.refs: List[List[int]] = []
        self.root: Dict[int, int] = {}
        self.mutable_buffers: List[int] = []
        self.ops: "collections.Counter[str]" = collections.Counter()
        # DelegateCalls: backend id -> count (``ops`` counts the KernelCalls' operators)
        self.delegate_calls: "collections.Counter[str]" = collections.Counter()

    # -- values --
    def tensor(self, dtype: str, sizes: Sequence[Size], dynamic: Optional[bool] = None) -> int:
        i = len(self.m.values)
        sizes = list(sizes)
        if dynamic is None:
            dynamic = any(isinstance(s, str) for s in sizes)
        alloc = self.plan.get(i) if self.plan is not None else None
        v = self.m.tensor(dtype, concrete(sizes, self.bounds),
                          dynamism="DYNAMIC_BOUND" if dynamic else "STATIC", allocation=alloc)
        assert v == i
        self.info[v] = TensorInfo(dtype, sizes, dynamic, "planned")
        return v

    def mutable_buffer(self, dtype: str, sizes: Sequence[Size]) -> int:
        """A planned tensor that is neither an input nor a constant, which ops write in place:
        the planner keeps it live for the whole method."""
        v = self.tensor(dtype, sizes)
        self.mutable_buffers.append(v)
        return v

    def constant(self, t: torch.Tensor, dtype: Optional[str] = None) -> int:
        """A constant holding ``t`` (stored as ``dtype``, which must be t's own: default t's)."""
        t = t.detach().contiguous()
        dtype = dtype or _DTYPE_NAMES[t.dtype]
        if t.dtype != TORCH_DTYPES[dtype]:
            raise ExportError(f"constant of {t.dtype} stored as {dtype}")
        v = self.m.constant(dtype, list(t.shape), t.numpy().tobytes())
        self.info[v] = TensorInfo(dtype, list(t.shape), False, "constant", t)
        return v

    def int_list(self, items: Sequence[Union[int, Sym]]) -> int:
        return self.m.int_list_of_values([it.value if isinstance(it, Sym) else self.m.int(it)
                                          for it in items])

    def sym(self) -> Sym:
        return Sym(self.m.int(self.sym_value))

    # -- instructions --
    def _record(self, op: str, args: Sequence[int]) -> None:
        self._record_refs(args)
        self.ops[op] += 1

    def _record_refs(self, args: Sequence[int]) -> None:
        refs = []
        for a in args:
            kind, payload = self.m.values[a]
            if kind == "Tensor":
                refs.append(a)
            elif kind in ("TensorList", "OptionalTensorList"):
                refs.extend(j for j in payload if j >= 0)
        self.refs.append(refs)

    def kernel(self, op: str, args: Sequence[int], out: Union[int, Sequence[int]]) -> Any:
        """An out-variant op (pte_writer's Method.kernel: args, outs, then the returned value)."""
        self.m.kernel(op, args, out)
        outs = [out] if isinstance(out, int) else list(out)
        self._record(op, list(args) + outs)
        return out

    def raw(self, op: str, args: Sequence[int]) -> None:
        self.m.kernel_call(op, args)
        self._record(op, args)

    def delegate(self, backend_id: str, processed: bytes, inputs: Sequence[int],
                 outputs: Sequence[int], *, location: str = "segment") -> int:
        """A lowered submodule: a BackendDelegate of its own (``processed`` stored as a segment,
        as current exports do, or inline) and a DelegateCall whose args are the submodule's
        inputs then its outputs, as ExecuTorch's emitter writes ``executorch_call_delegate``.
        Returns the delegate index."""
        d = self.m.delegate(backend_id, processed, location=location)
        args = list(inputs) + list(outputs)
        self.m.delegate_call(d, args)
        self._record_refs(args)
        self.delegate_calls[backend_id] += 1
        return d

    # -- ops with their ExecuTorch argument layouts --
    def sym_size(self, t: int, dim: int) -> Sym:
        if self.sym_before_args:
            s = self.sym()
            d = self.m.int(dim)
        else:
            d = self.m.int(dim)
            s = self.sym()
        self.raw("aten::sym_size.int", [t, d, s.value])
        return s

    def item(self, t: int) -> Sym:
        s = self.sym()
        self.raw("aten::_local_scalar_dense", [t, s.value])
        return s

    def sym_add(self, a: Sym, b: Sym) -> Sym:
        s = self.sym()
        self.raw("executorch_prim::add.Scalar", [a.value, b.value, s.value])
        return s

    def view(self, base: int, size: Sequence[Union[int, Sym]], out_sizes: Sequence[Size],
             dynamic: Optional[bool] = None) -> int:
        """to_executorch turns view_copy into memory.view (ReplaceViewCopyWithViewPass), emitted
        as executorch_prim::et_view.default(self, size, out): out is a view of the base's memory
        (the base of a view of a view is the first base), planned where it is (_ViewSpec)."""
        root = self.root.get(base, base)
        root_sizes = self.info[root].sizes
        for dims in ({k: 1 for k in self.bounds}, {k: 7 for k in self.bounds}, self.bounds):
            if numel(concrete(out_sizes, dims)) != numel(concrete(root_sizes, dims)):
                raise ExportError(f"view {list(out_sizes)} of {root_sizes} changes numel at {dims}")
        out = self.tensor(self.info[root].dtype, out_sizes, dynamic)
        self.root[out] = root
        self.raw("executorch_prim::et_view.default", [root, self.int_list(size), out])
        return out
