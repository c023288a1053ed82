"""Replay: an Emitter's method run as written, by a small interpreter with torch for the kernels."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional

import torch
import torch.nn.functional as F

from .emitter import TORCH_DTYPES, Emitter, ExportError, numel
from .memory_plan import MemoryPlan

# A kernel gets the replay, the instruction's value indices and their values.
Kernel = Callable[["Replay", List[int], List[Any]], None]
# A delegate kernel gets the replay, the delegate's index in the method, and the DelegateCall's
# value indices (the submodule's inputs then its outputs) and their values.
DelegateKernel = Callable[["Replay", int, List[int], List[Any]], None]


class Replay:
    """Runs the method as written: its value table, its instructions in ExecuTorch's argument
    layouts, views as aliases, and a memory plan as one arena.

    The arena is ``torch.empty``: a run commits only the pages it touches, so a plan at the
    bound costs what the run uses. It persists across runs, as planned memory is not
    reinitialized between calls in ExecuTorch (mutable buffers keep what the last run wrote);
    ``reset`` zeroes it. A DYNAMIC_BOUND tensor may take any shape of its rank whose elements
    fit its sizes at ``plan.dims``.

    ``kernels``: ops beyond ``KERNELS`` (or other kernels for them). ``delegates``: backend id ->
    the kernel that runs that backend's DelegateCalls (none by default: a method with
    DelegateCalls needs one, e.g. ``xnnpack_ref.XnnpackReference``)."""

    def __init__(self, e: Emitter, plan: MemoryPlan, kernels: Optional[Mapping[str, Kernel]] = None,
                 delegates: Optional[Mapping[str, DelegateKernel]] = None):
        self.e, self.m = e, e.m
        self.kernels: Dict[str, Kernel] = {**KERNELS, **(kernels or {})}
        self.delegates: Dict[str, DelegateKernel] = dict(delegates or {})
        self.total = plan.total
        self.arena = torch.empty(max(plan.total, 1), dtype=torch.uint8)
        self.offset = {i: a[1] for i, a in plan.offsets.items()}
        self.capacity = {i: info.sizes_at(plan.dims) for i, info in e.info.items()}
        self.shape: Dict[int, List[int]] = {}
        self.ints: Dict[int, int] = {}

    def reset(self) -> None:
        self.arena.zero_()

    def tensor(self, i: int) -> torch.Tensor:
        info = self.e.info[i]
        if info.storage == "constant":
            return info.data
        shape = self.shape.get(i, self.capacity[i])
        dt = TORCH_DTYPES[info.dtype]
        size = numel(shape) * torch.empty((), dtype=dt).element_size()
        off = self.offset[i]
        if off + size > self.total:
            raise ExportError(f"value {i} at {off} + {size} is outside the {self.total}-byte arena")
        return self.arena[off:off + size].view(dt).view(shape)

    def write(self, i: int, value: torch.Tensor) -> None:
        info, cap = self.e.info[i], self.capacity[i]
        if value.dtype != TORCH_DTYPES[info.dtype]:
            raise ExportError(f"value {i}: {value.dtype} written into a {info.dtype} tensor")
        if value.dim() != len(cap) or value.numel() > numel(cap):
            raise ExportError(f"value {i}: shape {list(value.shape)} does not fit {cap}")
        if not info.dynamic and list(value.shape) != cap:
            raise ExportError(f"value {i}: static {cap} resized to {list(value.shape)}")
        self.shape[i] = list(value.shape)
        self.tensor(i).copy_(value)

    def view(self, out: int, base: int, shape: List[int]) -> None:
        cap = self.capacity[out]
        if len(shape) != len(cap) or numel(shape) > numel(cap):
            raise ExportError(f"et_view {out}: {shape} does not fit {cap}")
        self.offset[out] = self.offset[base]
        self.shape[out] = shape

    def set_int(self, i: int, value: int) -> None:
        self.ints[i] = value

    def value(self, i: int) -> Any:
        kind, payload = self.m.values[i]
        if kind == "Tensor":
            return self.tensor(i)
        if kind == "Int":
            return self.ints.get(i, payload)
        if kind in ("Double", "Bool", "String"):
            return payload
        if kind == "Null":
            return None
        if kind == "IntList":
            return [self.value(j) for j in payload]
        if kind in ("TensorList", "OptionalTensorList"):
            return [None if j < 0 else self.tensor(j) for j in payload]
        raise ExportError(f"replay: value kind {kind}")

    def run(self, *inputs: torch.Tensor) -> List[torch.Tensor]:
        """One call of the method: its inputs in order; returns copies of its outputs."""
        self.shape.clear()
        self.ints.clear()
        if len(inputs) != len(self.m.inputs):
            raise ExportError(f"replay: {len(inputs)} inputs for {len(self.m.inputs)}")
        for i, x in zip(self.m.inputs, inputs):
            self.write(i, x)
        for kind, body in self.m.instructions:
            if kind == "DelegateCall":
                self.call_delegate(body["delegate_index"], body["args"])
                continue
            if kind != "KernelCall":
                raise ExportError(f"replay: {kind}")
            name, overload = self.m.operators[body["op_index"]]
            self.call(f"{name}.{overload}" if overload else name, body["args"])
        return [self.tensor(o).clone() for o in self.m.outputs]

    def call_delegate(self, index: int, args: List[int]) -> None:
        backend = self.m.delegates[index]["id"]
        kernel = self.delegates.get(backend)
        if kernel is None:
            raise ExportError(f"replay: no kernel for {backend} delegates")
        kernel(self, index, args, [self.value(a) for a in args])

    def call(self, op: str, args: List[int]) -> None:
        kernel = self.kernels.get(op)
        if kernel is None:
            raise ExportError(f"replay: no kernel for {op}")
        kernel(self, args, [self.value(a) for a in args])


def _slice_copy(r: Replay, a: List[int], v: List[Any]) -> None:
    x, dim, start, end, step = v[:5]
    assert step == 1
    r.write(a[5], x.narrow(dim, start, end - start).clone())


def _mean(r: Replay, a: List[int], v: List[Any]) -> None:
    x, dims, keep, dtype = v[:4]
    assert dtype is None
    r.write(a[4], x.mean(dim=dims, keepdim=keep))


def _native_layer_norm(r: Replay, a: List[int], v: List[Any]) -> None:
    x, shape, w, b, eps = v[:5]
    if r.m.values[a[8]] != ("TensorList", a[5:8]):
        raise ExportError("native_layer_norm.out: the returned value is not [out0, out1, out2]")
    for o, t in zip(a[5:8], torch.native_layer_norm(x, shape, w, b, eps)):
        r.write(o, t.contiguous())


# Out-variant kernels write their out (the argument after the schema's own); SymInt ops set
# their result Int.
KERNELS: Dict[str, Kernel] = {
    "aten::sym_size.int": lambda r, a, v: r.set_int(a[2], int(v[0].shape[v[1]])),
    "aten::_local_scalar_dense": lambda r, a, v: r.set_int(a[1], int(v[0].reshape(-1)[0])),
    "executorch_prim::add.Scalar": lambda r, a, v: r.set_int(a[2], v[0] + v[1]),
    "executorch_prim::et_view.default": lambda r, a, v: r.view(a[2], a[0], list(v[0].reshape(v[1]).shape)),
    "aten::select_copy.int_out": lambda r, a, v: r.write(a[3], v[0].select(v[1], v[2]).clone()),
    "aten::slice_copy.Tensor_out": _slice_copy,
    "aten::index.Tensor_out": lambda r, a, v: r.write(a[2], v[0][tuple(v[1])].clone()),
    "aten::unsqueeze_copy.out": lambda r, a, v: r.write(a[2], v[0].unsqueeze(v[1]).clone()),
    "aten::permute_copy.out": lambda r, a, v: r.write(a[2], v[0].permute(v[1]).contiguous()),
    "aten::cat.out": lambda r, a, v: r.write(a[2], torch.cat(v[0], dim=v[1])),
    "aten::mul.out": lambda r, a, v: r.write(a[2], v[0] * v[1]),
    "aten::add.out": lambda r, a, v: r.write(a[3], v[0] + v[2] * v[1]),
    "aten::sub.out": lambda r, a, v: r.write(a[3], v[0] - v[2] * v[1]),
    "aten::mean.out": _mean,
    "aten::rsqrt.out": lambda r, a, v: r.write(a[1], torch.rsqrt(v[0])),
    "aten::silu.out": lambda r, a, v: r.write(a[1], F.silu(v[0])),
    "aten::gelu.out": lambda r, a, v: r.write(a[2], F.gelu(v[0], approximate=v[1])),
    "aten::linear.out": lambda r, a, v: r.write(a[3], F.linear(v[0], v[1], v[2])),
    "aten::bmm.out": lambda r, a, v: r.write(a[2], torch.bmm(v[0], v[1])),
    "aten::_softmax.out": lambda r, a, v: r.write(a[3], torch._softmax(v[0], v[1], v[2])),
    "aten::native_layer_norm.out": _native_layer_norm,
}
