"""Lowers a PyTorch model to an ExecuTorch ``.pte`` program with torch 1.13.

Pipeline (``export_program``):

1. ``capture``: ``make_fx`` traces the model to an ATen graph, decomposing the
   non-core ops of ``op_map.decomposition_table()`` on the way; a second
   ``make_fx`` pass over ``functorch.functionalize(..., remove=
   "mutations_and_views")`` removes in-place ops and turns every view into its
   ``*_copy`` form; dead code (e.g. batch norm's unused reserve buffers) goes.
2. ``Lowering``: every ``call_function`` node becomes one ``KernelCall`` of the
   op's out variant under ExecuTorch's registry name
   (``op_map.rewrite`` + ``op_map.out_variant``), with ExecuTorch's argument
   layout (schema arguments in order, kwarg-only included, then the outs, then
   the returned value); parameters and buffers become constants in the
   constant segment; inputs and outputs are memory-planned tensors, and the
   writer (``tools/pte/pte_writer.py``) plans all activations with reuse.
3. ``replay``: a reference interpreter runs the *written* method with torch's
   out kernels over one simulated planned arena (so a wrong argument layout or
   an overlapping memory plan shows up), to compare against eager PyTorch.
"""

from __future__ import annotations

import collections
import operator
import os
import sys
from typing import Any, Dict, List, Sequence, Tuple

import torch
from torch.fx.experimental.proxy_tensor import make_fx

try:  # torch >= 2.0
    from torch.func import functionalize  # type: ignore
except ImportError:  # torch 1.13
    from functorch import functionalize  # type: ignore

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tools", "pte"))
sys.path.insert(0, HERE)

import op_map  # noqa: E402
from op_map import LoweringError  # noqa: E402
from pte_writer import Method, ProgramBuilder  # noqa: E402

DTYPE_NAME = {
    torch.uint8: "uint8", torch.int8: "int8", torch.int16: "int16", torch.int32: "int32",
    torch.int64: "int64", torch.float16: "float16", torch.float32: "float32",
    torch.float64: "float64", torch.bool: "bool", torch.bfloat16: "bfloat16",
}
#: c10::ScalarType codes, as ExecuTorch stores ScalarType arguments.
SCALAR_TYPE_CODE = {
    torch.uint8: 0, torch.int8: 1, torch.int16: 2, torch.int32: 3, torch.int64: 4,
    torch.float16: 5, torch.float32: 6, torch.float64: 7, torch.bool: 11, torch.bfloat16: 15,
}
CODE_SCALAR_TYPE = {v: k for k, v in SCALAR_TYPE_CODE.items()}
#: c10::MemoryFormat codes.
MEMORY_FORMAT_CODE = {torch.contiguous_format: 0, torch.preserve_format: 1,
                      torch.channels_last: 2, torch.channels_last_3d: 3}
CODE_MEMORY_FORMAT = {v: k for k, v in MEMORY_FORMAT_CODE.items()}


# ---------------------------------------------------------------------------
# 1. Capture

def capture(model: torch.nn.Module, example_inputs: Sequence[torch.Tensor], *,
            grad_for_tracing: bool = False) -> torch.fx.GraphModule:
    """Functional core-ATen graph of ``model`` on ``example_inputs``.

    ``grad_for_tracing``: trace with autograd enabled. nn.TransformerEncoderLayer
    in eval mode under no_grad takes PyTorch's fused fast path
    (``_transformer_encoder_layer_fwd``, not an ExecuTorch op); with grad enabled
    it runs the composite path that decomposes into core ops.
    """
    inputs = tuple(example_inputs)
    with torch.set_grad_enabled(grad_for_tracing):
        g1 = make_fx(model, decomposition_table=op_map.decomposition_table())(*inputs)
    with torch.no_grad():
        g2 = make_fx(functionalize(g1, remove="mutations_and_views"),
                     decomposition_table=op_map.decomposition_table())(*inputs)
    g2.graph.eliminate_dead_code()
    g2.recompile()
    return g2


def op_histogram(gm: torch.fx.GraphModule) -> Dict[str, int]:
    c = collections.Counter(str(n.target) for n in gm.graph.nodes
                            if n.op == "call_function" and n.target is not operator.getitem)
    return dict(sorted(c.items()))


# ---------------------------------------------------------------------------
# 2. Lowering

def _attr(gm: torch.nn.Module, target: str) -> Any:
    obj: Any = gm
    for part in target.split("."):
        obj = getattr(obj, part)
    return obj


def _tensor_bytes(t: torch.Tensor) -> bytes:
    t = t.detach().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().tobytes()
    return t.numpy().tobytes()


def folds_to_constant(node: torch.fx.Node, real: Dict[torch.fx.Node, Any], const_nodes: Any) -> bool:
    """Constant folding: an op whose tensor inputs are all constants (e.g. the
    transpose of a Linear weight) is computed at export time and its result
    stored as a constant when something uses it, unless that would store
    more bytes than its inputs."""
    deps = node.all_input_nodes
    if not deps or not all(d in const_nodes for d in deps):
        return False
    res = real[node]
    results = list(res) if isinstance(res, (tuple, list)) else [res]
    in_bytes = sum(real[d].numel() * real[d].element_size() for d in deps
                   if isinstance(real[d], torch.Tensor))
    out_bytes = sum(r.numel() * r.element_size() for r in results if isinstance(r, torch.Tensor))
    return out_bytes <= in_bytes


class Lowering:
    """Builds one method of ``pb`` from a functional ATen graph."""

    def __init__(self, gm: torch.fx.GraphModule, example_inputs: Sequence[torch.Tensor],
                 pb: ProgramBuilder, method_name: str = "forward"):
        self.gm = gm
        self.inputs = tuple(example_inputs)
        self.m: Method = pb.method(method_name)
        self.vals: Dict[torch.fx.Node, Any] = {}     # node -> value index (or list of them)
        self.real: Dict[torch.fx.Node, Any] = {}     # node -> real result (for shapes/dtypes)
        self.ops = collections.Counter()            # registry name -> count
        self.constant_bytes = 0
        self.constants: List[Dict[str, Any]] = []   # each constant's dtype and shape, in order
        self.const_nodes = set()                    # nodes computed at export time
        self.folded = collections.Counter()         # op -> count of nodes folded into constants

    # value helpers -----------------------------------------------------------

    def _new_tensor(self, t: torch.Tensor) -> int:
        if t.dtype not in DTYPE_NAME:
            raise LoweringError(f"unsupported dtype {t.dtype}")
        return self.m.tensor(DTYPE_NAME[t.dtype], list(t.shape))

    def _constant(self, t: torch.Tensor) -> int:
        raw = _tensor_bytes(t)
        self.constant_bytes += len(raw)
        self.constants.append({"dtype": DTYPE_NAME[t.dtype], "shape": list(t.shape)})
        return self.m.constant(DTYPE_NAME[t.dtype], list(t.shape), raw)

    def _tensor_arg(self, v: Any, where: str) -> int:
        if isinstance(v, torch.fx.Node):
            if v not in self.vals and v in self.const_nodes:
                self.vals[v] = self._constant(self.real[v])
            idx = self.vals[v]
            if not isinstance(idx, int):
                raise LoweringError(f"{where}: expected one tensor, got a tuple")
            return idx
        if isinstance(v, torch.Tensor):
            return self._constant(v)
        raise LoweringError(f"{where}: expected a tensor, got {type(v).__name__}")

    def _scalar(self, v: Any, where: str) -> int:
        if isinstance(v, bool):
            return self.m.bool(v)
        if isinstance(v, int):
            return self.m.int(v)
        if isinstance(v, float):
            return self.m.double(v)
        raise LoweringError(f"{where}: expected a number, got {v!r}")

    def _arg(self, arg: torch._C.Argument, v: Any, where: str) -> int:
        ty = str(arg.type)
        optional = ty.startswith("Optional[")
        base = ty[len("Optional["):-1] if optional else ty
        where = f"{where}: argument {arg.name!r} ({ty})"
        if v is None:
            if not optional and base not in ("number",):
                raise LoweringError(f"{where}: None for a non-optional argument")
            return self.m.null()
        if base == "Tensor":
            return self._tensor_arg(v, where)
        if base == "List[Tensor]":
            return self.m.tensor_list([self._tensor_arg(x, where) for x in v])
        if base == "List[Optional[Tensor]]":
            return self.m.optional_tensor_list([None if x is None else self._tensor_arg(x, where) for x in v])
        if base == "List[int]":
            if isinstance(v, int):  # int[2] given as one int
                n = int(str(arg.N)) if getattr(arg, "N", None) else 1
                v = [v] * n
            return self.m.int_list([int(x) for x in v])
        if base == "List[float]":
            return self.m.double_list([float(x) for x in v])
        if base == "List[bool]":
            return self.m.bool_list([bool(x) for x in v])
        if base == "int":
            if isinstance(v, torch.dtype):
                return self.m.int(SCALAR_TYPE_CODE[v])
            if isinstance(v, torch.memory_format):
                return self.m.int(MEMORY_FORMAT_CODE[v])
            return self.m.int(int(v))
        if base == "float":
            return self.m.double(float(v))
        if base == "bool":
            return self.m.bool(bool(v))
        if base == "number":
            return self._scalar(v, where)
        if base == "str":
            return self.m.string(str(v))
        raise LoweringError(f"{where}: argument type not supported by the lowering")

    # nodes -------------------------------------------------------------------

    def run(self) -> Method:
        env_iter = iter(self.inputs)
        graph = self.gm.graph
        outputs: List[Any] = []
        with torch.no_grad():
            for node in graph.nodes:
                if node.op == "placeholder":
                    t = next(env_iter)
                    self.real[node] = t
                    self.vals[node] = self.m.input(self._new_tensor(t))
                elif node.op == "get_attr":
                    t = _attr(self.gm, node.target)
                    self.real[node] = t
                    if isinstance(t, torch.Tensor):
                        self.const_nodes.add(node)  # a constant value is made on first use
                elif node.op == "call_function":
                    args = torch.fx.node.map_arg(node.args, lambda n: self.real[n])
                    kwargs = torch.fx.node.map_arg(node.kwargs, lambda n: self.real[n])
                    self.real[node] = node.target(*args, **kwargs)
                    self._lower_call(node)
                elif node.op == "output":
                    outputs = list(node.args[0]) if isinstance(node.args[0], (list, tuple)) else [node.args[0]]
                else:
                    raise LoweringError(f"node {node.name}: {node.op} nodes are not supported")
        input_vals = set(self.m.inputs)
        seen = set()
        for o in outputs:
            if not isinstance(o, torch.fx.Node):
                raise LoweringError(f"graph output {o!r} is not a tensor node")
            v = self.vals[o]
            kind, payload = self.m.values[v]
            # An output that is an input, a constant or already an output gets
            # its own copy (ExecuTorch outputs are distinct planned tensors).
            if v in input_vals or payload.storage == "constant" or v in seen:
                copy = self._new_tensor(self.real[o])
                self._emit(torch.ops.aten.clone.default, (o,), {}, [copy], f"output {o.name}")
                v = copy
            seen.add(v)
            self.m.output(v)
        return self.m

    def _emit(self, op: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any], outs: List[int], where: str) -> None:
        out_schema, reg_name, _ = op_map.out_variant(op)
        bound = op_map.bind(op_map.functional_schema(op), args, kwargs)
        call_args = []
        for a in op_map.in_arguments(out_schema):
            if a.name not in bound:
                raise LoweringError(f"{where}: {reg_name} has argument {a.name!r} the functional op lacks")
            call_args.append(self._arg(a, bound[a.name], f"{where} ({reg_name})"))
        n_out = len(op_map.out_arguments(out_schema))
        if n_out != len(outs):
            raise LoweringError(f"{where}: {reg_name} has {n_out} outs, the node gives {len(outs)}")
        self.m.kernel(reg_name, call_args, outs if len(outs) > 1 else outs[0])
        self.ops[reg_name] += 1

    def _is_noop_clone(self, node: torch.fx.Node) -> bool:
        """After functionalization nothing is mutated, and every tensor of the
        program is stored contiguously (default dim order, whatever strides
        torch's eager kernels picked), so a contiguous clone (from
        ``.contiguous()``) is a plain copy: its input's value stands for it."""
        if node.target is not torch.ops.aten.clone.default:
            return False
        fmt = node.kwargs.get("memory_format", node.args[1] if len(node.args) > 1 else None)
        return fmt in (None, torch.contiguous_format, torch.preserve_format)

    def _lower_call(self, node: torch.fx.Node) -> None:
        target = node.target
        where = f"node {node.name} ({target})"
        if target is operator.getitem:
            src, i = node.args
            if src in self.const_nodes:
                self.const_nodes.add(node)
            else:
                self.vals[node] = self.vals[src][i]
            return
        if folds_to_constant(node, self.real, self.const_nodes):
            self.const_nodes.add(node)
            self.folded[str(target)] += 1
            return
        if target in op_map.IDENTITY_OPS or self._is_noop_clone(node):
            src = node.args[0]
            if src in self.const_nodes:
                self.const_nodes.add(node)
            else:
                self.vals[node] = self.vals[src]
            return
        if not isinstance(target, torch._ops.OpOverload):
            raise LoweringError(f"{where}: not an ATen op")
        op, args, kwargs = op_map.rewrite(target, node.args, node.kwargs)
        op = op_map.view_to_copy(op)
        res = self.real[node]
        results = list(res) if isinstance(res, (tuple, list)) else [res]
        if not all(isinstance(r, torch.Tensor) for r in results):
            raise LoweringError(f"{where}: returns non-tensors ({type(res).__name__})")
        if isinstance(op, op_map.ExtraOp) and op is op_map.NATIVE_BATCH_NORM_LEGIT_NO_TRAINING:
            # ExecuTorch's kernel resizes save_mean/save_invstd to [0].
            results = [results[0], results[0].new_zeros((0,)), results[0].new_zeros((0,))]
        outs = [self._new_tensor(r) for r in results]
        self._emit(op, args, kwargs, outs, where)
        self.vals[node] = outs if isinstance(res, (tuple, list)) else outs[0]


# ---------------------------------------------------------------------------
# 3. Replay of the written method (reference interpreter)

def _resolve_kernel(reg_name: str):
    if reg_name in op_map.EXTRA_OPS:
        extra = op_map.EXTRA_OPS[reg_name]
        return extra.out, extra
    name, _, overload = reg_name.partition(".")
    ns, _, opname = name.partition("::")
    op = getattr(getattr(getattr(torch.ops, ns), opname), overload)
    return op._schema, op


def replay(pb: ProgramBuilder, method: Method, inputs: Sequence[torch.Tensor]) -> List[torch.Tensor]:
    """Runs ``method`` as written (value table, KernelCalls, memory plan) with
    torch's out kernels; returns copies of the outputs."""
    total = method.plan_memory()
    arena = torch.zeros(max(total, 1), dtype=torch.uint8)
    tensors: Dict[int, torch.Tensor] = {}

    def tensor_of(i: int) -> torch.Tensor:
        if i in tensors:
            return tensors[i]
        kind, t = method.values[i]
        assert kind == "Tensor", (i, kind)
        dtype = next(k for k, v in DTYPE_NAME.items() if v == t.dtype.numpy)
        n = 1
        for s in t.sizes:
            n *= s
        nbytes = n * t.dtype.itemsize
        if t.storage == "constant":
            raw = bytearray(pb._constants[t.data_buffer_idx - 1])
            buf = torch.frombuffer(raw, dtype=torch.uint8) if raw else torch.zeros(0, dtype=torch.uint8)
        else:
            mem_id, off = t.allocation
            assert mem_id == 1
            buf = arena[off:off + nbytes]
        val = buf.view(dtype).view(t.sizes) if nbytes else torch.zeros(t.sizes, dtype=dtype)
        tensors[i] = val
        return val

    def value(i: int) -> Any:
        kind, p = method.values[i]
        if kind == "Tensor":
            return tensor_of(i)
        if kind in ("Int", "Double", "Bool", "String"):
            return p
        if kind == "Null":
            return None
        if kind == "IntList":
            return [method.values[j][1] for j in p]
        if kind in ("DoubleList", "BoolList"):
            return list(p)
        if kind == "TensorList":
            return [tensor_of(j) for j in p]
        if kind == "OptionalTensorList":
            return [None if j < 0 else tensor_of(j) for j in p]
        raise LoweringError(f"replay: value kind {kind}")

    for i, x in zip(method.inputs, inputs):
        tensor_of(i).copy_(x)
    for k, (kind, body) in enumerate(method.instructions):
        if kind != "KernelCall":
            raise LoweringError(f"replay: instruction {k} is a {kind}")
        name, overload = method.operators[body["op_index"]]
        reg_name = f"{name}.{overload}"
        schema, fn = _resolve_kernel(reg_name)
        ins = op_map.in_arguments(schema)
        outs = op_map.out_arguments(schema)
        args = body["args"]
        if len(args) != len(ins) + len(outs) + 1:
            raise LoweringError(f"replay: instruction {k} ({reg_name}) has {len(args)} args, "
                                f"schema wants {len(ins)} + {len(outs)} outs + 1 return")
        vals = [value(a) for a in args]
        pos, kw = [], {}
        for a, v in zip(ins, vals):
            if str(a.type) == "Optional[int]" and a.name == "dtype" and v is not None:
                v = CODE_SCALAR_TYPE[v]
            if str(a.type) == "Optional[int]" and a.name == "memory_format" and v is not None:
                v = CODE_MEMORY_FORMAT[v]
            if a.kwarg_only:
                kw[a.name] = v
            else:
                pos.append(v)
        out_vals = vals[len(ins):len(ins) + len(outs)]
        if isinstance(fn, op_map.ExtraOp):
            res = fn.ref(*pos, **kw)
            res = res if isinstance(res, tuple) else (res,)
            for o, r in zip(out_vals, res):
                if o.shape != r.shape:
                    raise LoweringError(f"replay: {reg_name}: out shape {list(o.shape)} != {list(r.shape)}")
                o.copy_(r)
        else:
            # Compute into fresh tensors, then copy into the planned slots:
            # torch's out kernels would otherwise resize a wrong-sized slot.
            fresh = [torch.empty_like(o) for o in out_vals]
            for a, o in zip(outs, fresh):
                kw[a.name] = o
            fn(*pos, **kw)
            for o, f in zip(out_vals, fresh):
                if o.shape != f.shape:
                    raise LoweringError(f"replay: {reg_name}: out shape {list(o.shape)} != {list(f.shape)}")
                o.copy_(f)
    return [tensor_of(i).clone() for i in method.outputs]


# ---------------------------------------------------------------------------

def export_program(model: torch.nn.Module, example_inputs: Sequence[torch.Tensor], *,
                   grad_for_tracing: bool = False) -> Tuple[ProgramBuilder, Lowering, torch.fx.GraphModule]:
    gm = capture(model, example_inputs, grad_for_tracing=grad_for_tracing)
    pb = ProgramBuilder()
    low = Lowering(gm, example_inputs, pb)
    low.run()
    return pb, low, gm
