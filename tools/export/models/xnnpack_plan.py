"""Which nodes of a captured graph go to XNNPACK: per-node support checks
(``Plan.check_<rule>``), partitions (maximal runs of supported nodes in graph
order), activation fusion and the aliases that stand for other values."""

from __future__ import annotations

import collections
import operator
import os
import sys
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import lower  # noqa: E402  (puts tools/pte on sys.path)
import op_map  # noqa: E402
from op_map import LoweringError  # noqa: E402
from xnnpack_graph import FLAG_ALIGN_CORNERS, FLAG_KEEP_DIMS, INF, MAX_DIMS, NCHW, NHWC  # noqa: E402,F401

aten = torch.ops.aten


def _op_name(node: torch.fx.Node) -> str:
    t = node.target
    return t._schema.name if isinstance(t, torch._ops.OpOverload) else ""


def _bound(node: torch.fx.Node) -> Dict[str, Any]:
    """The node's arguments by schema name, defaults filled in."""
    return op_map.bind(node.target._schema, node.args, node.kwargs)


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


