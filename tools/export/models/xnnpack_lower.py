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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import lower  # noqa: E402  (puts tools/pte on sys.path)
import op_map  # noqa: E402
from op_map import LoweringError  # noqa: E402
from torch.fx.experimental.proxy_tensor import make_fx  # noqa: E402

from pte_writer import ProgramBuilder  # noqa: E402
from xnnpack_emit import PartitionBuilder  # noqa: E402
# Re-exported: the quantized lowering and the exporter use them from here.
from xnnpack_graph import (FLAG_KEEP_DIMS, NCHW, NHWC, GraphBuilder, physical)  # noqa: E402,F401
from xnnpack_plan import Partition, Plan, _bound, _op_name, _pair  # noqa: E402,F401

aten = torch.ops.aten

BACKEND_ID = "XnnpackBackend"

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
