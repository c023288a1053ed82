"""Lowers a captured float graph to XnnpackBackend delegates, the way
ExecuTorch's XNNPACK partitioner does, mixed with portable KernelCalls.

Pipeline (``export_program``):

1. ``capture``: ``lower.capture``'s two ``make_fx`` passes, except that ops
   XNNPACK has nodes for (``hardswish``, ``leaky_relu``, ``elu``) are kept
   whole instead of decomposed.
2. ``fold_batch_norm``: an eval batch norm that is the only user of a 2-D
   convolution with constant weights is folded into the convolution's weight
   and bias (``torch.nn.utils.fusion.fuse_conv_bn_weights``, as ExecuTorch's
   FuseBatchNormPass does); the folded convolution always has a bias.
3. ``Plan``: evaluates the graph once (shapes, constants: the same constant
   folding as ``lower.Lowering``), decides per node whether an XNNPACK node
   can do it (``Plan.check_*``), cuts maximal runs of supported nodes in
   graph order into partitions, and fuses relu/hardtanh/clamp into the
   producing convolution, fully connected, add, sub or mul when that producer
   has no other user (``output_min_max``).
4. ``XnnLowering`` (a ``lower.Lowering``): portable nodes become KernelCalls
   as before; each partition becomes one XNNGraph payload (a program segment,
   weights in the program's named data under sha256 keys) and one
   DelegateCall whose args are the partition's inputs then its outputs
   (planned method tensors).

Layout inside a partition (``GraphBuilder``): convolution, pooling, global
average pooling and bilinear resize work in NHWC; elementwise ops follow their
inputs (NHWC when mixed inputs are all 4-D); reshape, fully connected, batch
matmul and softmax need NCHW; permute, cat, slice and pad work in either with
their dims remapped. A value is transposed (XNNStaticTranspose, perm
[0,2,3,1] into NHWC, [0,3,1,2] back) only where a consumer needs the other
layout, once per value; partition inputs and outputs are NCHW (contiguous).
Every XNN value records its dims in its physical layout.
"""

from __future__ import annotations

import collections
import operator
import os
import sys
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np
import torch
from torch.fx.experimental.proxy_tensor import make_fx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import lower  # noqa: E402  (puts tools/pte on sys.path)
import op_map  # noqa: E402
from op_map import LoweringError  # noqa: E402
from pte_writer import ProgramBuilder  # noqa: E402
from xnn_writer import INVALID_ID, XnnGraph  # noqa: E402

aten = torch.ops.aten

BACKEND_ID = "XnnpackBackend"
NCHW, NHWC = "nchw", "nhwc"
#: Physical dim i of an NHWC tensor is logical (NCHW) dim TO_NHWC[i]; also
#: the StaticTranspose perm into NHWC.
TO_NHWC = [0, 2, 3, 1]
#: Logical dim d of an NHWC tensor sits at physical dim TO_NCHW[d]; also the
#: StaticTranspose perm back to NCHW.
TO_NCHW = [0, 3, 1, 2]
FLAG_ALIGN_CORNERS = 0x8
FLAG_KEEP_DIMS = 0x40
INF = float("inf")
#: XNNPACK tensors have at most 6 dims.
MAX_DIMS = 6


def physical(shape: Sequence[int], layout: str) -> List[int]:
    """Dims of a logical (NCHW-order) shape stored in ``layout``."""
    return [int(shape[i]) for i in TO_NHWC] if layout == NHWC else [int(s) for s in shape]


# ---------------------------------------------------------------------------
# 1. Capture

#: Ops op_map decomposes for the portable kernels that XNNPACK runs whole.
KEPT_WHOLE = {aten.hardswish, aten.leaky_relu, aten.elu}


def decomposition_table() -> Dict[Any, Any]:
    table = op_map.decomposition_table()
    return {op: fn for op, fn in table.items()
            if getattr(op, "overloadpacket", None) not in KEPT_WHOLE}


def capture(model: torch.nn.Module, example_inputs: Sequence[torch.Tensor], *,
            grad_for_tracing: bool = False) -> torch.fx.GraphModule:
    """``lower.capture`` with ``decomposition_table()``: a functional ATen graph."""
    inputs = tuple(example_inputs)
    table = decomposition_table()
    with torch.set_grad_enabled(grad_for_tracing):
        g1 = make_fx(model, decomposition_table=table)(*inputs)
    with torch.no_grad():
        g2 = make_fx(lower.functionalize(g1, remove="mutations_and_views"),
                     decomposition_table=table)(*inputs)
    g2.graph.eliminate_dead_code()
    g2.recompile()
    return g2


# ---------------------------------------------------------------------------
# 2. Batch norm folding

BATCH_NORMS = {"aten::native_batch_norm", "aten::_native_batch_norm_legit_no_training"}


def _op_name(node: torch.fx.Node) -> str:
    t = node.target
    return t._schema.name if isinstance(t, torch._ops.OpOverload) else ""


def _bound(node: torch.fx.Node) -> Dict[str, Any]:
    """The node's arguments by schema name, defaults filled in."""
    return op_map.bind(node.target._schema, node.args, node.kwargs)


def fold_batch_norm(gm: torch.fx.GraphModule) -> int:
    """Folds eval batch norms into the convolutions feeding them; returns how many."""
    folded = 0
    for bn in list(gm.graph.nodes):
        if bn.op != "call_function" or _op_name(bn) not in BATCH_NORMS:
            continue
        b = _bound(bn)
        if b.get("training", False):
            continue
        conv = b["input"]
        if not (isinstance(conv, torch.fx.Node) and conv.target is aten.convolution.default
                and len(conv.users) == 1):
            continue
        cb = _bound(conv)
        params = [cb["weight"], cb["bias"], b["weight"], b["bias"], b["running_mean"], b["running_var"]]
        if cb["transposed"] or not all(p is None or (isinstance(p, torch.fx.Node) and p.op == "get_attr")
                                       for p in params) or cb["weight"] is None:
            continue
        # Only the normalized output may be used (getitem 0).
        if not all(u.target is operator.getitem and u.args[1] == 0 for u in bn.users):
            continue
        attr = [None if p is None else lower._attr(gm, p.target) for p in params]
        w, bias = torch.nn.utils.fusion.fuse_conv_bn_weights(
            attr[0], attr[1], attr[4], attr[5], b["eps"], attr[2], attr[3])
        w_name, b_name = f"_xnn_bn_fused_weight_{folded}", f"_xnn_bn_fused_bias_{folded}"
        gm.register_buffer(w_name, w.detach().contiguous())
        gm.register_buffer(b_name, bias.detach().contiguous())
        with gm.graph.inserting_before(conv):
            w_node = gm.graph.get_attr(w_name)
            b_node = gm.graph.get_attr(b_name)
        args = list(conv.args)
        args[1], args[2] = w_node, b_node
        conv.args = tuple(args)
        for g in list(bn.users):
            g.replace_all_uses_with(conv)
            gm.graph.erase_node(g)
        gm.graph.erase_node(bn)
        folded += 1
    gm.graph.eliminate_dead_code()
    gm.graph.lint()
    gm.recompile()
    return folded


# ---------------------------------------------------------------------------
# 3. Plan: support, partitions, fusion

#: Node -> check/emit suffix (``Plan.check_<x>``, ``PartitionBuilder.emit_<x>``).
RULES: Dict[Any, str] = {
    aten.convolution.default: "conv",
    aten.add.Tensor: "binary", aten.sub.Tensor: "binary", aten.mul.Tensor: "binary",
    aten.div.Tensor: "binary", aten.maximum.default: "binary", aten.minimum.default: "binary",
    aten.relu.default: "clamp", aten.hardtanh.default: "clamp", aten.clamp.default: "clamp",
    aten.sigmoid.default: "unary", aten.tanh.default: "unary", aten.hardswish.default: "unary",
    aten.gelu.default: "unary", aten.leaky_relu.default: "unary", aten.elu.default: "unary",
    aten.abs.default: "unary", aten.neg.default: "unary", aten.sqrt.default: "unary",
    aten.rsqrt.default: "unary", aten.exp.default: "unary", aten.log.default: "unary",
    aten.ceil.default: "unary", aten.floor.default: "unary",
    aten.addmm.default: "addmm", aten.mm.default: "mm", aten.bmm.default: "bmm",
    aten.mean.dim: "mean",
    aten.max_pool2d_with_indices.default: "max_pool", aten.avg_pool2d.default: "avg_pool",
    aten.view_copy.default: "reshape", aten._unsafe_view.default: "reshape",
    aten.view.default: "reshape", aten.reshape.default: "reshape",
    aten.permute_copy.default: "permute", aten.permute.default: "permute",
    aten._softmax.default: "softmax",
    aten.cat.default: "cat",
    aten.slice_copy.Tensor: "slice", aten.slice.Tensor: "slice",
    aten.constant_pad_nd.default: "pad",
    aten.upsample_bilinear2d.default: "upsample", aten.upsample_bilinear2d.vec: "upsample",
}

UNARY_KINDS = {
    aten.sigmoid.default: "XNNSigmoid", aten.tanh.default: "XNNTanh",
    aten.hardswish.default: "XNNHardswish", aten.abs.default: "XNNAbs",
    aten.neg.default: "XNNNegate", aten.sqrt.default: "XNNSquareRoot",
    aten.rsqrt.default: "XNNReciprocalSquareRoot", aten.exp.default: "XNNExp",
    aten.log.default: "XNNLog", aten.ceil.default: "XNNCeiling", aten.floor.default: "XNNFloor",
}
BINARY_KINDS = {
    aten.add.Tensor: "XNNAdd", aten.sub.Tensor: "XNNSubtract", aten.mul.Tensor: "XNNMultiply",
    aten.div.Tensor: "XNNDiv", aten.maximum.default: "XNNMaximum", aten.minimum.default: "XNNMinimum",
}
#: Producers whose XNN node takes a fused output range.
FUSABLE_PRODUCERS = {aten.convolution.default, aten.addmm.default, aten.mm.default,
                     aten.add.Tensor, aten.sub.Tensor, aten.mul.Tensor}
ACTIVATIONS = {aten.relu.default, aten.hardtanh.default, aten.clamp.default}


def _pair(v: Any) -> List[int]:
    v = [int(x) for x in v] if isinstance(v, (list, tuple)) else [int(v)]
    return v * 2 if len(v) == 1 else v


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class Partition:
    """One delegate: nodes emitted in order, their aliases, the boundary."""

    def __init__(self, index: int, members: List[torch.fx.Node]):
        self.index = index
        self.members = members                  # emitted nodes, graph order
        self.aliases: List[torch.fx.Node] = []  # getitems, identities, fused activations
        self.inputs: List[torch.fx.Node] = []   # keys of values from outside (method tensors)
        self.outputs: List[torch.fx.Node] = []  # keys of values used outside
        self.node_counts: Dict[str, int] = {}

    @property
    def last(self) -> torch.fx.Node:
        return self.members[-1]


class Plan:
    """What goes to XNNPACK: per-node support, partitions, fusion, aliases."""

    def __init__(self, gm: torch.fx.GraphModule, example_inputs: Sequence[torch.Tensor]):
        self.gm = gm
        self.real: Dict[torch.fx.Node, Any] = {}
        self.const: Set[torch.fx.Node] = set()
        self.alias: Dict[torch.fx.Node, torch.fx.Node] = {}
        self.fused: Dict[torch.fx.Node, Tuple[float, float]] = {}
        self.rejected: Dict[torch.fx.Node, str] = {}
        self.parts: List[Partition] = []
        self.part_of: Dict[torch.fx.Node, Partition] = {}
        self._evaluate(example_inputs)
        self._partition()
        for p in self.parts:
            self._fuse_activations(p)
            self._boundary(p)

    # -- evaluation and constants (the same folding rule as lower.Lowering) --

    def _evaluate(self, inputs: Sequence[torch.Tensor]) -> None:
        it = iter(inputs)
        with torch.no_grad():
            for node in self.gm.graph.nodes:
                if node.op == "placeholder":
                    self.real[node] = next(it)
                elif node.op == "get_attr":
                    self.real[node] = lower._attr(self.gm, node.target)
                    if isinstance(self.real[node], torch.Tensor):
                        self.const.add(node)
                elif node.op == "call_function":
                    args = torch.fx.node.map_arg(node.args, lambda n: self.real[n])
                    kwargs = torch.fx.node.map_arg(node.kwargs, lambda n: self.real[n])
                    self.real[node] = node.target(*args, **kwargs)
                    self._classify_constant_or_alias(node)

    def _is_identity(self, node: torch.fx.Node) -> bool:
        if node.target in op_map.IDENTITY_OPS:
            return True
        if node.target is aten.clone.default:
            fmt = node.kwargs.get("memory_format", node.args[1] if len(node.args) > 1 else None)
            return fmt in (None, torch.contiguous_format, torch.preserve_format)
        return False

    def _classify_constant_or_alias(self, node: torch.fx.Node) -> None:
        if node.target is operator.getitem:
            if node.args[0] in self.const:
                self.const.add(node)
            return
        if lower.folds_to_constant(node, self.real, self.const):
            self.const.add(node)
            return
        if self._is_identity(node):
            if node.args[0] in self.const:
                self.const.add(node)
            else:
                self.alias[node] = node.args[0]

    def resolve(self, n: torch.fx.Node) -> torch.fx.Node:
        while n in self.alias:
            n = self.alias[n]
        return n

    def tensor(self, n: Any) -> Optional[torch.Tensor]:
        """The real tensor of node ``n`` (its first result for max pooling)."""
        if not isinstance(n, torch.fx.Node):
            return None
        r = self.real[self.resolve(n)]
        if isinstance(r, (tuple, list)):
            r = r[0]
        return r if isinstance(r, torch.Tensor) else None

    def is_const(self, n: Any) -> bool:
        return isinstance(n, torch.fx.Node) and n in self.const

    # -- support ---------------------------------------------------------------

    def supported(self, node: torch.fx.Node) -> bool:
        rule = RULES.get(node.target)
        if rule is None:
            self.rejected[node] = "no XNNPACK node"
            return False
        reason = self._check_tensors(node) or getattr(self, "check_" + rule)(node, _bound(node))
        if reason:
            self.rejected[node] = reason
            return False
        return True

    def _check_tensors(self, node: torch.fx.Node) -> Optional[str]:
        """Every tensor in and out is a non-empty float32 of at most 6 dims."""
        ins = [self.tensor(n) for n in node.all_input_nodes]
        res = self.real[node]
        outs = list(res[:1]) if node.target is aten.max_pool2d_with_indices.default else [res]
        for t in ins + outs:
            if not isinstance(t, torch.Tensor):
                return "a non-tensor value"
            if t.dtype != torch.float32 or t.numel() == 0 or t.dim() > MAX_DIMS:
                return f"a {t.dtype}{list(t.shape)} tensor"
        if not any(not self.is_const(n) for n in node.all_input_nodes):
            return "constant inputs only"
        return None

    def check_conv(self, node, b) -> Optional[str]:
        if not self.is_const(b["weight"]) or self.tensor(b["weight"]).dim() != 4:
            return "not a 2-D convolution with constant weights"
        if b["bias"] is not None and not self.is_const(b["bias"]):
            return "bias is not constant"
        if b["transposed"] or any(int(p) != 0 for p in b["output_padding"]):
            return "transposed convolution"
        return None

    def check_binary(self, node, b) -> Optional[str]:
        if b.get("alpha", 1) != 1:
            return "alpha != 1"
        for v in (b["self"], b["other"]):
            if not (isinstance(v, torch.fx.Node) or _is_number(v)):
                return f"operand {v!r}"
        return None

    def check_clamp(self, node, b) -> Optional[str]:
        lo, hi = self.clamp_range(node)
        return None if lo <= hi else "empty range"

    def check_unary(self, node, b) -> Optional[str]:
        if node.target is aten.gelu.default and b["approximate"] not in ("none", "tanh"):
            return f"gelu approximate={b['approximate']!r}"
        if node.target is aten.elu.default and (b["scale"] != 1 or b["input_scale"] != 1):
            return "elu with scale"
        return None

    def check_addmm(self, node, b) -> Optional[str]:
        w, bias = b["mat2"], b["self"]
        if b["beta"] != 1 or b["alpha"] != 1:
            return "beta/alpha != 1"
        if not self.is_const(w) or not self.is_const(bias) or self.is_const(b["mat1"]):
            return "weight or bias not constant"
        t = self.tensor(bias)
        if t.numel() != self.tensor(w).shape[1] or (t.dim() == 2 and t.shape[0] != 1) or t.dim() > 2:
            return f"bias of shape {list(t.shape)}"
        return None

    def check_mm(self, node, b) -> Optional[str]:
        return None if not self.is_const(b["self"]) else "constant left operand"

    def check_bmm(self, node, b) -> Optional[str]:
        return None

    def check_mean(self, node, b) -> Optional[str]:
        x = self.tensor(b["self"])
        dims = sorted(int(d) % 4 for d in (b["dim"] or []))
        if x.dim() != 4 or dims != [2, 3] or not b["keepdim"] or b["dtype"] is not None:
            return "not a keepdim mean over H and W of a 4-D tensor"
        return None

    def check_max_pool(self, node, b) -> Optional[str]:
        if self.tensor(b["self"]).dim() != 4 or b["ceil_mode"]:
            return "ceil mode or not 4-D"
        if not all(u.target is operator.getitem and u.args[1] == 0 for u in node.users):
            return "indices are used"
        return None

    def check_avg_pool(self, node, b) -> Optional[str]:
        if self.tensor(b["self"]).dim() != 4 or b["ceil_mode"] or b["divisor_override"] is not None:
            return "ceil mode, divisor override or not 4-D"
        if b["count_include_pad"] and any(int(p) != 0 for p in _pair(b["padding"])):
            return "count_include_pad with padding"
        return None

    def check_reshape(self, node, b) -> Optional[str]:
        return None if self.tensor(node).dim() >= 1 else "0-d result"

    def check_permute(self, node, b) -> Optional[str]:
        return None

    def check_softmax(self, node, b) -> Optional[str]:
        x = self.tensor(b["self"])
        if int(b["dim"]) % x.dim() != x.dim() - 1 or b["half_to_float"]:
            return "softmax over a dim that is not the last"
        return None

    def check_cat(self, node, b) -> Optional[str]:
        ts = b["tensors"]
        if not 2 <= len(ts) <= 5 or any(self.is_const(t) for t in ts):
            return f"{len(ts)} inputs (2..5 non-constant ones)"
        return None

    def check_slice(self, node, b) -> Optional[str]:
        return None if b["step"] == 1 else "step != 1"

    def check_pad(self, node, b) -> Optional[str]:
        if any(int(p) < 0 for p in b["pad"]) or not _is_number(b["value"]):
            return "negative padding"
        return None

    def check_upsample(self, node, b) -> Optional[str]:
        x, y = self.tensor(b["input"]), self.tensor(node)
        if x.dim() != 4:
            return "not 4-D"
        scales = b.get("scale_factors") or [b.get("scales_h"), b.get("scales_w")]
        for i, s in enumerate(scales or []):
            # PyTorch maps coordinates with 1/scale when a scale is given;
            # XNNPACK with in/out: the same only when out = in * scale.
            if s is not None and not b["align_corners"] and x.shape[2 + i] * float(s) != y.shape[2 + i]:
                return "a scale factor that does not divide evenly"
        return None

    def clamp_range(self, node: torch.fx.Node) -> Tuple[float, float]:
        b = _bound(node)
        if node.target is aten.relu.default:
            return 0.0, INF
        if node.target is aten.hardtanh.default:
            return float(b["min_val"]), float(b["max_val"])
        lo, hi = b["min"], b["max"]
        return (-INF if lo is None else float(lo)), (INF if hi is None else float(hi))

    # -- partitions ------------------------------------------------------------

    def _partition(self) -> None:
        run: List[torch.fx.Node] = []

        def close() -> None:
            if run:
                self.parts.append(Partition(len(self.parts), list(run)))
                run.clear()

        for node in self.gm.graph.nodes:
            if node.op != "call_function" or node in self.const or node in self.alias:
                continue
            if node.target is operator.getitem:
                continue  # follows its producer (below)
            if self.supported(node):
                run.append(node)
            else:
                close()
        close()
        for p in self.parts:
            for m in p.members:
                self.part_of[m] = p
        # The value a max pooling's getitem 0 stands for is the pooling's.
        for node in self.gm.graph.nodes:
            if node.target is operator.getitem and node.args[0] in self.part_of:
                self.alias[node] = node.args[0]

    def _fuse_activations(self, part: Partition) -> None:
        members = list(part.members)
        for act in members:
            if act.target not in ACTIVATIONS:
                continue
            src = act.args[0]
            prod = self.resolve(src)
            if self.part_of.get(prod) is not part or prod.target not in FUSABLE_PRODUCERS:
                continue
            if prod.target is aten.mm.default and not self.is_const(prod.args[1]):
                continue  # a batch matmul takes no output range
            # Everything between the producer and this activation (an
            # earlier fused activation, getitems, identities) has one user.
            chain, n = [], src
            while True:
                chain.append(n)
                if n is prod:
                    break
                n = n.args[0]
            if any(len(c.users) != 1 for c in chain):
                continue
            lo, hi = self.clamp_range(act)
            plo, phi = self.fused.get(prod, (-INF, INF))
            lo, hi = max(lo, plo), min(hi, phi)
            if lo > hi:
                continue
            self.fused[prod] = (lo, hi)
            self.alias[act] = prod
            part.members.remove(act)

    def _boundary(self, part: Partition) -> None:
        members = set(part.members)
        for node in self.gm.graph.nodes:
            if node not in members and node in self.alias and self.resolve(node) in members:
                part.aliases.append(node)
                self.part_of[node] = part
        inside = members | set(part.aliases)
        outputs, inputs = [], []
        for n in part.members + part.aliases:
            if any(u not in inside for u in n.users):
                root = self.resolve(n)
                if root not in outputs:
                    outputs.append(root)
        for m in part.members:
            for a in m.all_input_nodes:
                r = self.resolve(a)
                if r in members or self.is_const(a) or self.is_const(r):
                    continue
                if r not in inputs:
                    inputs.append(r)
        part.inputs, part.outputs = inputs, [o for o in part.members if o in outputs]


# ---------------------------------------------------------------------------
# 4. XNNGraph construction

class _Value:
    __slots__ = ("shape", "dtype", "quant", "native", "ids")

    def __init__(self, shape, dtype, quant, native, ids):
        self.shape, self.dtype, self.quant, self.native, self.ids = shape, dtype, quant, native, ids


class GraphBuilder:
    """An XNNGraph under construction. Values are named by keys (FX nodes);
    each has a logical (PyTorch) shape and exists in its native layout and,
    after a transpose, the other one."""

    def __init__(self) -> None:
        self.g = XnnGraph()
        self.vals: Dict[Any, _Value] = {}
        self.outputs: Dict[Any, int] = {}  # key -> external id
        self.counts: collections.Counter = collections.Counter()

    def input(self, key: Any, shape: Sequence[int], external_id: int, *, dtype: str = "fp32",
              quant: Optional[Dict[str, Any]] = None) -> int:
        vid = self.g.value(dtype, list(shape), external_input=external_id, quant=quant)
        self.vals[key] = _Value(list(shape), dtype, quant, NCHW, {NCHW: vid})
        return vid

    def declare_output(self, key: Any, external_id: int) -> None:
        """``key``'s NCHW value will be external output ``external_id``."""
        self.outputs[key] = external_id

    def define(self, key: Any, shape: Sequence[int], layout: str, *, dtype: str = "fp32",
               quant: Optional[Dict[str, Any]] = None) -> int:
        """A node's output value for ``key`` in ``layout``."""
        if layout == NHWC and len(shape) != 4:
            raise LoweringError(f"a rank-{len(shape)} value cannot be NHWC")
        ext = self.outputs.get(key) if layout == NCHW else None
        vid = self.g.value(dtype, physical(shape, layout), external_output=ext, quant=quant)
        if key in self.vals:
            self.vals[key].ids[layout] = vid
        else:
            self.vals[key] = _Value(list(shape), dtype, quant, layout, {layout: vid})
        return vid

    def layout(self, key: Any) -> str:
        return self.vals[key].native

    def shape(self, key: Any) -> List[int]:
        return self.vals[key].shape

    def get(self, key: Any, layout: str) -> int:
        """``key``'s value in ``layout``, transposed (once) if needed."""
        v = self.vals[key]
        if layout in v.ids:
            return v.ids[layout]
        src = v.ids[v.native]
        out = self.define(key, v.shape, layout, dtype=v.dtype, quant=v.quant)
        self.node("XNNStaticTranspose", {"num_dims": 4, "perm": TO_NHWC if layout == NHWC else TO_NCHW,
                                         "input_id": src, "output_id": out, "flags": 0})
        return out

    def constant(self, array: np.ndarray, *, dtype: str = "fp32",
                 quant: Optional[Dict[str, Any]] = None) -> int:
        array = np.ascontiguousarray(array)
        return self.g.value(dtype, list(array.shape) or [1], constant=array.tobytes(), quant=quant)

    def per_channel_constant(self, array: np.ndarray, dtype: str, scales: np.ndarray,
                             channel_dim: int) -> int:
        """A per-channel quantized constant (qcint8 weights, qcint32 bias).
        As current ExecuTorch writes them, the scales are a constant of their
        own (float32, named data) right after the data's entry, referenced by
        ``scale_buffer_idx`` with ``num_scales``; the inline ``scale`` is empty."""
        scales = np.ascontiguousarray(scales, dtype="<f4")
        scale_index = len(self.g.constants) + 2  # the data takes +1
        quant = {"PerChannelQuant": {"scale": [], "channel_dim": channel_dim,
                                     "scale_buffer_idx": scale_index, "num_scales": int(scales.size)}}
        vid = self.constant(array, dtype=dtype, quant=quant)
        self.g.constants.append(scales.tobytes())
        if len(self.g.constants) != scale_index:
            raise LoweringError("constant_data indices out of step")
        return vid

    def node(self, kind: str, fields: Dict[str, Any],
             output_min_max: Optional[Tuple[float, float]] = None) -> None:
        self.counts[kind[len("XNN"):]] += 1
        self.g.node(kind, fields, output_min_max=output_min_max)

    def finish(self) -> Dict[str, int]:
        """Makes every declared output exist (NCHW); returns node counts."""
        for key in self.outputs:
            if key not in self.vals:
                raise LoweringError(f"partition output {key} was never computed")
            self.get(key, NCHW)
        return dict(sorted(self.counts.items()))


def _f32(t: torch.Tensor) -> np.ndarray:
    return t.detach().to(torch.float32).contiguous().numpy()


class PartitionBuilder:
    """Emits one partition's nodes (``emit_<rule>``) into a GraphBuilder."""

    def __init__(self, plan: Plan, part: Partition):
        self.plan = plan
        self.part = part
        self.b = GraphBuilder()
        self._consts: Dict[Tuple[Any, str], int] = {}

    def build(self) -> GraphBuilder:
        p = self.part
        for i, key in enumerate(p.inputs):
            self.b.input(key, list(self.plan.tensor(key).shape), i)
        for j, key in enumerate(p.outputs):
            self.b.declare_output(key, len(p.inputs) + j)
        for node in p.members:
            getattr(self, "emit_" + RULES[node.target])(node, _bound(node))
        p.node_counts = self.b.finish()
        return self.b

    # -- helpers -----------------------------------------------------------------

    def shape(self, n: torch.fx.Node) -> List[int]:
        return list(self.plan.tensor(n).shape)

    def key_layout(self, n: torch.fx.Node) -> str:
        return self.b.layout(self.plan.resolve(n))

    def value(self, arg: Any, layout: str, rank: Optional[int] = None) -> int:
        """The id of an operand in ``layout``: a computed value (transposed if
        needed), a constant (broadcast-compatible in NHWC) or a number."""
        if _is_number(arg):
            return self.b.constant(np.array([arg], dtype=np.float32))
        if self.plan.is_const(arg):
            cache = (arg, layout)
            if cache not in self._consts:
                data = _f32(self.plan.tensor(arg))
                if layout == NHWC:
                    data = data.reshape((1,) * (4 - data.ndim) + data.shape).transpose(TO_NHWC)
                self._consts[cache] = self.b.constant(data if data.ndim else data.reshape(1))
            return self._consts[cache]
        return self.b.get(self.plan.resolve(arg), layout)

    def output(self, node: torch.fx.Node, layout: str) -> int:
        return self.b.define(node, self.shape(node), layout)

    def common_layout(self, args: Sequence[Any], out_rank: int) -> str:
        """Elementwise ops follow their computed inputs: NHWC when any is NHWC
        and all (and the result) are 4-D, else NCHW."""
        dyn = [a for a in args if isinstance(a, torch.fx.Node) and not self.plan.is_const(a)]
        nhwc = any(self.key_layout(a) == NHWC for a in dyn)
        if nhwc and out_rank == 4 and all(len(self.shape(a)) == 4 for a in dyn):
            return NHWC
        return NCHW

    def _io(self, x: int, y: int) -> Dict[str, int]:
        return {"input_id": x, "output_id": y, "flags": 0}

    # -- convolution and fully connected ---------------------------------------------

    def emit_conv(self, node, b) -> None:
        w = _f32(self.plan.tensor(b["weight"]))
        out_c, group_in, kh, kw = w.shape
        groups = int(b["groups"])
        stride, pad, dil = _pair(b["stride"]), _pair(b["padding"]), _pair(b["dilation"])
        x = self.value(b["input"], NHWC)
        # XNNPACK takes a convolution with one input channel per group as
        # depthwise (filter [1, kH, kW, O]); others take OHWI filters.
        depthwise = group_in == 1
        filt = w.transpose(1, 2, 3, 0) if depthwise else w.transpose(0, 2, 3, 1)
        f = self.b.constant(filt)
        y = self.output(node, NHWC)
        bias = INVALID_ID if b["bias"] is None else self.b.constant(_f32(self.plan.tensor(b["bias"])))
        fields = {
            "padding_top": pad[0], "padding_right": pad[1], "padding_bottom": pad[0],
            "padding_left": pad[1], "kernel_height": kh, "kernel_width": kw,
            "subsampling_height": stride[0], "subsampling_width": stride[1],
            "dilation_height": dil[0], "dilation_width": dil[1],
            "group_input_channels": group_in, "group_output_channels": out_c // groups,
            "groups": groups, "adjustment_height": 0, "adjustment_width": 0,
            "input1_id": x, "filter_id": f, "bias_id": bias, "output_id": y, "flags": 0,
        }
        self.b.node("XNNDepthwiseConv2d" if depthwise else "XNNConv2d", fields,
                    self.plan.fused.get(node))

    def _fully_connected(self, node, x_arg, w_kn: torch.Tensor, bias: Optional[torch.Tensor]) -> None:
        x = self.value(x_arg, NCHW)
        # PyTorch's mm takes the weight as [in, out]; XNNPACK's [out, in].
        f = self.b.constant(_f32(w_kn).T)
        bid = INVALID_ID if bias is None else self.b.constant(_f32(bias).reshape(-1))
        y = self.output(node, NCHW)
        self.b.node("XNNFullyConnected", {"input1_id": x, "filter_id": f, "bias_id": bid,
                                          "output_id": y, "flags": 0}, self.plan.fused.get(node))

    def emit_addmm(self, node, b) -> None:
        self._fully_connected(node, b["mat1"], self.plan.tensor(b["mat2"]), self.plan.tensor(b["self"]))

    def emit_mm(self, node, b) -> None:
        if self.plan.is_const(b["mat2"]):
            self._fully_connected(node, b["self"], self.plan.tensor(b["mat2"]), None)
        else:
            self.emit_bmm(node, {"self": b["self"], "mat2": b["mat2"]})

    def emit_bmm(self, node, b) -> None:
        a, c = self.value(b["self"], NCHW), self.value(b["mat2"], NCHW)
        y = self.output(node, NCHW)
        self.b.node("XNNBatchMatrixMultiply", {"input1_id": a, "input2_id": c, "output_id": y, "flags": 0})

    # -- elementwise ---------------------------------------------------------------

    def emit_binary(self, node, b) -> None:
        layout = self.common_layout([b["self"], b["other"]], len(self.shape(node)))
        a, c = self.value(b["self"], layout), self.value(b["other"], layout)
        y = self.output(node, layout)
        self.b.node(BINARY_KINDS[node.target], {"input1_id": a, "input2_id": c, "output_id": y, "flags": 0},
                    self.plan.fused.get(node))

    def emit_clamp(self, node, b) -> None:
        src = node.args[0]
        layout = self.key_layout(src)
        x = self.value(src, layout)
        y = self.output(node, layout)
        self.b.node("XNNClamp", self._io(x, y), self.plan.clamp_range(node))

    def emit_unary(self, node, b) -> None:
        src = node.args[0]
        layout = self.key_layout(src)
        x = self.value(src, layout)
        y = self.output(node, layout)
        if node.target is aten.leaky_relu.default:
            self.b.node("XNNLeakyReLU", {"negative_slope": float(b["negative_slope"]), **self._io(x, y)})
        elif node.target is aten.elu.default:
            self.b.node("XNNELU", {"alpha": float(b["alpha"]), **self._io(x, y)})
        elif node.target is aten.gelu.default:
            self.b.node("XNNGelu" if b["approximate"] == "none" else "XNNApproxGelu", self._io(x, y))
        else:
            self.b.node(UNARY_KINDS[node.target], self._io(x, y))

    def emit_softmax(self, node, b) -> None:
        x = self.value(b["self"], NCHW)
        y = self.output(node, NCHW)
        self.b.node("XNNSoftmax", self._io(x, y))

    # -- pooling and resize -----------------------------------------------------------

    def emit_mean(self, node, b) -> None:
        x = self.value(b["self"], NHWC)
        y = self.output(node, NHWC)  # [N, 1, 1, C]
        self.b.node("XNNGlobalAvgPooling2d", {"input_id": x, "output_id": y, "flags": FLAG_KEEP_DIMS})

    def _pool(self, node, b, kind: str, dilation: List[int]) -> None:
        kernel = _pair(b["kernel_size"])
        stride = _pair(b["stride"]) if b["stride"] else kernel
        pad = _pair(b["padding"])
        x = self.value(b["self"], NHWC)
        y = self.output(node, NHWC)
        self.b.node(kind, {
            "padding_top": pad[0], "padding_right": pad[1], "padding_bottom": pad[0],
            "padding_left": pad[1], "pooling_height": kernel[0], "pooling_width": kernel[1],
            "stride_height": stride[0], "stride_width": stride[1],
            "dilation_height": dilation[0], "dilation_width": dilation[1],
            "input_id": x, "output_id": y, "flags": FLAG_KEEP_DIMS})

    def emit_max_pool(self, node, b) -> None:
        self._pool(node, b, "XNNMaxPooling2d", _pair(b["dilation"]))

    def emit_avg_pool(self, node, b) -> None:
        # Average pooling has no dilation; ExecuTorch writes 0.
        self._pool(node, b, "XNNAvgPooling2d", [0, 0])

    def emit_upsample(self, node, b) -> None:
        x = self.value(b["input"], NHWC)
        y = self.output(node, NHWC)
        _, _, h, w = self.shape(node)
        self.b.node("XNNStaticResizeBilinear2D", {
            "new_height": h, "new_width": w, "input_id": x, "output_id": y,
            "flags": FLAG_ALIGN_CORNERS if b["align_corners"] else 0})

    # -- data movement ------------------------------------------------------------------

    def emit_reshape(self, node, b) -> None:
        size = [int(s) for s in (b.get("size") if "size" in b else b["shape"])]
        new_shape = self.shape(node)
        if -1 in size:  # XNNPACK infers a 0 dim
            new_shape[size.index(-1)] = 0
        x = self.value(b["self"], NCHW)
        y = self.output(node, NCHW)
        self.b.node("XNNStaticReshape", {"num_dims": len(new_shape), "new_shape": new_shape, **self._io(x, y)})

    def emit_permute(self, node, b) -> None:
        src = b["self"]
        rank = len(self.shape(src))
        perm = [int(d) % rank for d in b["dims"]]
        layout = self.key_layout(src)
        if layout == NHWC:
            # Read the logical dims where NHWC keeps them; the result is NCHW.
            perm = [TO_NCHW[d] for d in perm]
        x = self.value(src, layout)
        y = self.output(node, NCHW)
        self.b.node("XNNStaticTranspose", {"num_dims": rank, "perm": perm, **self._io(x, y)})

    def emit_cat(self, node, b) -> None:
        ts = list(b["tensors"])
        rank = len(self.shape(node))
        layout = self.common_layout(ts, rank)
        axis = int(b["dim"]) % rank
        ids = [self.value(t, layout) for t in ts]
        y = self.output(node, layout)
        fields = {"axis": TO_NCHW[axis] if layout == NHWC else axis}
        for i in range(5):
            fields[f"input{i + 1}_id"] = ids[i] if i < len(ids) else INVALID_ID
        fields.update({"output_id": y, "flags": 0})
        self.b.node(f"XNNConcatenate{len(ts)}", fields)

    def emit_slice(self, node, b) -> None:
        src = b["self"]
        shape = self.shape(src)
        dim = int(b["dim"]) % len(shape)
        start = 0 if b["start"] is None else int(b["start"])
        start = min(max(start + shape[dim] if start < 0 else start, 0), shape[dim])
        offsets = [0] * len(shape)
        offsets[dim] = start
        layout = self.key_layout(src)
        x = self.value(src, layout)
        y = self.output(node, layout)
        self.b.node("XNNStaticSlice", {"num_dims": len(shape), "offsets": physical(offsets, layout),
                                       "sizes": physical(self.shape(node), layout), **self._io(x, y)})

    def emit_pad(self, node, b) -> None:
        src = b["self"]
        rank = len(self.shape(src))
        pad = [int(p) for p in b["pad"]]
        pre, post = [0] * rank, [0] * rank
        for k in range(len(pad) // 2):  # pairs start at the last dim
            pre[rank - 1 - k], post[rank - 1 - k] = pad[2 * k], pad[2 * k + 1]
        layout = self.key_layout(src)
        x = self.value(src, layout)
        y = self.output(node, layout)
        self.b.node("XNNStaticConstantPad", {
            "pre_paddings": physical(pre, layout), "post_paddings": physical(post, layout),
            "padding_value": float(b["value"]), **self._io(x, y)})


# ---------------------------------------------------------------------------
# 5. The method: portable KernelCalls and DelegateCalls

class XnnLowering(lower.Lowering):
    """``lower.Lowering`` with each partition of ``plan`` lowered to one
    DelegateCall (emitted where its last node was)."""

    def __init__(self, gm: torch.fx.GraphModule, example_inputs: Sequence[torch.Tensor],
                 pb: ProgramBuilder, plan: Plan, method_name: str = "forward"):
        super().__init__(gm, example_inputs, pb, method_name)
        self.pb = pb
        self.plan = plan
        self.delegate_node_counts: List[Dict[str, int]] = []
        self.delegate_bytes = 0

    def _lower_call(self, node: torch.fx.Node) -> None:
        part = self.plan.part_of.get(node)
        if part is None:
            return super()._lower_call(node)
        if node is part.last:
            self._emit_partition(part)

    def _emit_partition(self, part: Partition) -> None:
        builder = PartitionBuilder(self.plan, part).build()
        blob = builder.g.payload(named_data=self.pb.named_data)
        self.delegate_bytes += len(blob)
        args = [self.vals[k] for k in part.inputs]
        outs = {}
        for key in part.outputs:
            outs[key] = self._new_tensor(self.plan.tensor(key))
        # Every node standing for an output's value reads the output tensor.
        for n in part.members + part.aliases:
            root = self.plan.resolve(n)
            if root in outs:
                self.vals[n] = outs[root]
        d = self.m.delegate(BACKEND_ID, blob)
        self.m.delegate_call(d, args + [outs[k] for k in part.outputs])
        self.delegate_node_counts.append(part.node_counts)


def export_program(model: torch.nn.Module, example_inputs: Sequence[torch.Tensor], *,
                   grad_for_tracing: bool = False
                   ) -> Tuple[ProgramBuilder, XnnLowering, torch.fx.GraphModule]:
    gm = capture(model, example_inputs, grad_for_tracing=grad_for_tracing)
    fold_batch_norm(gm)
    plan = Plan(gm, example_inputs)
    pb = ProgramBuilder()
    low = XnnLowering(gm, example_inputs, pb, plan)
    low.run()
    return pb, low, gm


def node_totals(counts: Sequence[Dict[str, int]]) -> Dict[str, int]:
    """Node counts summed over delegates."""
    total: collections.Counter = collections.Counter()
    for c in counts:
        total.update(c)
    return dict(sorted(total.items()))
