"""Writes ``.pt2`` archives (what ``torch.export.save`` writes) of the exporter's models.

    /usr/bin/python3 tools/export/pt2/export_pt2.py --out build/pt2 [--only NAME ...] [--run]

For mobilenet_v2, resnet18, transformer_encoder, transformer_layer (the benchmark's
size) and mlp_tiny (model, seeded weights and input
from tools/export/models/export_models.py):

* ``NAME.core.{A22,A,B,C}.pt2``: the core-ATen graph (tools/export/models/lower.py's
  ``capture`` of a ``functional_call`` of the model, so parameters and buffers are lifted
  placeholders as in torch.export; ``*_copy`` view ops mapped back to the view ops
  ``run_decompositions()`` writes; eval ``native_batch_norm`` written as
  ``_native_batch_norm_legit_no_training``), in the four container eras (archive.py);
* ``NAME.training.C.pt2``: the training IR torch.export.export writes by default
  (``conv2d``, ``linear``, ``batch_norm`` / ``_native_batch_norm_legit_no_training``,
  ``hardtanh``, ``relu``, ``max_pool2d``, ``adaptive_avg_pool2d``, ``flatten``, ``dropout``,
  ``view``, ``softmax``, ...) from ``torch.fx.symbolic_trace`` with the modules mapped to ATen
  overloads by hand; the transformer's is hand-written, with
  ``aten.scaled_dot_product_attention`` (an entry whose graph needs an op the runtime
  lacks would be listed on its own with ``expects_unsupported``);
* ``NAME.input.npy``, ``NAME.expected.npy`` (eager PyTorch, float32).

Plus two small models: ``buffer_mutation`` (running-mean and step-counter buffers updated in
forward: ``buffer_mutation`` output specs) and ``shared_storage`` (two buffers viewing one
storage at offsets/strides, a transposed parameter), in every layout.

``index.json`` = {"models": {NAME: {files, input, expected, tolerance_rel_to_max_ref, ops,
file_info}}}.

Every written archive is read back by an independent interpreter (zipfile + json +
torch.load / numpy for the payloads, ``torch.ops.aten`` for the nodes) and compared with
eager PyTorch: max abs error <= 1e-4 * max(1, max|ref|); any failure exits non-zero.
``--run`` also runs each archive through the wasm runtime (``node bin/trident.mjs run``) and
reports (does not fail on) its result.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import math
import operator
import os
import subprocess
import sys
import time
import zipfile
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch
import torch.fx

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "tools", "export", "models"))

import archive  # noqa: E402
import program_json as pj  # noqa: E402
from program_json import InputSpec, OutputSpec, Program  # noqa: E402

TOL_REL = 1e-4
aten = torch.ops.aten
MODELS = ["mobilenet_v2", "resnet18", "transformer_encoder", "transformer_layer", "mlp_tiny"]
SMALL = ["buffer_mutation", "shared_storage"]


def _em():
    import export_models  # noqa: E402  (tools/export/models; imports lower, torchvision, ...)
    return export_models


# ---------------------------------------------------------------------------
# core ATen graph (lower.capture of a functional_call)

_VIEW_FROM_COPY = {
    aten.view_copy.default: aten.view.default,
    aten.permute_copy.default: aten.permute.default,
    aten.slice_copy.Tensor: aten.slice.Tensor,
    aten.expand_copy.default: aten.expand.default,
    aten.unsqueeze_copy.default: aten.unsqueeze.default,
    aten.squeeze_copy.dim: aten.squeeze.dim,
    aten.select_copy.int: aten.select.int,
    aten.transpose_copy.int: aten.transpose.int,
    aten.alias_copy.default: aten.alias.default,
}


def _state(model: torch.nn.Module):
    params = list(model.named_parameters())
    bufs = list(model.named_buffers())
    nonpersistent = set()
    for mname, mod in model.named_modules():
        for b in getattr(mod, "_non_persistent_buffers_set", ()):
            nonpersistent.add(f"{mname}.{b}" if mname else b)
    return params, bufs, nonpersistent


def _functional(model: torch.nn.Module, names: List[str]) -> Callable[..., Any]:
    from torch.nn.utils import stateless
    n = len(names)

    def f(*args):
        return stateless.functional_call(model, dict(zip(names, args[:n])), tuple(args[n:]))
    return f


def _capture_keep_mutations(f, inputs) -> torch.fx.GraphModule:
    """lower.capture, but keeps the ``copy_`` into mutated inputs that functionalize emits."""
    import op_map
    from torch.fx.experimental.proxy_tensor import make_fx
    from functorch import functionalize
    inputs = [t.clone() for t in inputs]
    with torch.no_grad():
        g1 = make_fx(f, decomposition_table=op_map.decomposition_table())(*[t.clone() for t in inputs])
        g2 = make_fx(functionalize(g1, remove="mutations_and_views"),
                     decomposition_table=op_map.decomposition_table())(*[t.clone() for t in inputs])
    return g2


def core_program(model: torch.nn.Module, inputs: Tuple[torch.Tensor, ...], *,
                 grad_for_tracing: bool = False, mutations: bool = False) -> Program:
    import lower
    params, bufs, nonpersistent = _state(model)
    names = [k for k, _ in params] + [k for k, _ in bufs]
    state = [t for _, t in params] + [t for _, t in bufs]
    f = _functional(model, names)
    if mutations:
        gm = _capture_keep_mutations(f, state + list(inputs))
    else:
        gm = lower.capture(f, state + list(inputs), grad_for_tracing=grad_for_tracing)
    g = gm.graph

    placeholders = [n for n in g.nodes if n.op == "placeholder"]
    specs: List[InputSpec] = []
    for i, ph in enumerate(placeholders):
        if i < len(params):
            specs.append(InputSpec("parameter", ph, names[i]))
        elif i < len(names):
            specs.append(InputSpec("buffer", ph, names[i], names[i] not in nonpersistent))
        else:
            specs.append(InputSpec("user_input", ph))
    # input mutations (functionalize's trailing copy_) -> buffer_mutation outputs
    mutated: List[Tuple[InputSpec, torch.fx.Node]] = []
    spec_of = {s.node: s for s in specs}
    for n in list(g.nodes):
        if n.op == "call_function" and n.target is aten.copy_.default and n.args[0] in spec_of:
            s = spec_of[n.args[0]]
            if s.kind != "buffer":
                raise SystemExit(f"mutation of a {s.kind} is not supported")
            mutated.append((s, n.args[1]))
            g.erase_node(n)
    # view ops back from their *_copy forms; eval batch norm as torch 2.x writes it
    for n in list(g.nodes):
        if n.op != "call_function":
            continue
        if n.target in _VIEW_FROM_COPY:
            n.target = _VIEW_FROM_COPY[n.target]
        elif n.target is aten.native_batch_norm.default and n.args[5] is False:
            a = list(n.args)
            n.target = pj.NATIVE_BATCH_NORM_LEGIT_NO_TRAINING
            n.args = tuple(a[:5] + a[6:])
    out_node = next(n for n in g.nodes if n.op == "output")
    user_outs = out_node.args[0]
    user_outs = list(user_outs) if isinstance(user_outs, (list, tuple)) else [user_outs]
    out_node.args = (tuple([v for _, v in mutated] + user_outs),)
    g.eliminate_dead_code()
    # names as torch.export gives them
    for s in specs:
        if s.kind == "user_input":
            s.node.name = "x"
        else:
            s.node.name = ("p_" if s.kind == "parameter" else "b_") + s.target.replace(".", "_")
    pj.rename_nodes(g)
    outs = [OutputSpec("buffer_mutation", v, s.target) for s, v in mutated]
    outs += [OutputSpec("user_output", v) for v in user_outs]
    state_dict = {k: t for k, t in params}
    state_dict.update({k: t for k, t in bufs if k not in nonpersistent})
    constants = {k: t for k, t in bufs if k in nonpersistent}
    p = Program(g, specs, outs, state_dict, constants, tuple(inputs), verifier="ATEN",
                submodules=[k for k, _ in model.named_modules() if k])
    return p


# ---------------------------------------------------------------------------
# training IR (what torch.export.export writes by default)

class _Builder:
    """Builds a training-IR graph: lifted state placeholders first, then the user input."""

    def __init__(self, model: torch.nn.Module):
        self.model = model
        self.g = torch.fx.Graph()
        self.params, self.bufs, self.nonpersistent = _state(model)
        self.ph: Dict[str, torch.fx.Node] = {}
        self.specs: List[InputSpec] = []
        for k, _ in self.params:
            n = self.g.placeholder("p_" + k.replace(".", "_"))
            self.ph[k] = n
            self.specs.append(InputSpec("parameter", n, k))
        for k, _ in self.bufs:
            n = self.g.placeholder("b_" + k.replace(".", "_"))
            self.ph[k] = n
            self.specs.append(InputSpec("buffer", n, k, k not in self.nonpersistent))
        self.x = self.g.placeholder("x")
        self.specs.append(InputSpec("user_input", self.x))

    def call(self, op, *args, fqn: Optional[str] = None, **kwargs) -> torch.fx.Node:
        n = self.g.call_function(op, tuple(args), kwargs)
        if fqn is not None:
            n.meta["export_metadata"] = {"nn_module_stack": f"L__self__{fqn},{fqn}"}
        return n

    def attr(self, fqn: str) -> Optional[torch.fx.Node]:
        return self.ph.get(fqn)

    def finish(self, outs: Sequence[torch.fx.Node], inputs) -> Program:
        self.g.output(tuple(outs) if len(outs) > 1 else outs[0])
        pj.rename_nodes(self.g)
        sd = {k: t for k, t in self.params}
        sd.update({k: t for k, t in self.bufs if k not in self.nonpersistent})
        consts = {k: t for k, t in self.bufs if k in self.nonpersistent}
        return Program(self.g, self.specs, [OutputSpec("user_output", o) for o in outs], sd, consts,
                       tuple(inputs), verifier="TRAINING",
                       submodules=[k for k, _ in self.model.named_modules() if k])


def _pair(v):
    return list(v) if isinstance(v, (tuple, list)) else [v, v]


def training_program(model: torch.nn.Module, inputs: Tuple[torch.Tensor, ...], *,
                     bn_op: str = "batch_norm") -> Program:
    """torch.fx.symbolic_trace, then each call_module / call_function / call_method mapped to
    the ATen overload torch.export's training IR shows. Non-tensor values (shapes) are
    evaluated with the real input."""
    nn = torch.nn
    traced = torch.fx.symbolic_trace(model)
    b = _Builder(model)
    real: Dict[torch.fx.Node, Any] = {}
    env: Dict[torch.fx.Node, Any] = {}
    modules = dict(model.named_modules())
    it = iter(inputs)

    def lookup(a):
        return torch.fx.node.map_arg(a, lambda n: env[n])

    for n in traced.graph.nodes:
        if n.op == "placeholder":
            real[n] = next(it)
            env[n] = b.x
            continue
        if n.op == "output":
            out = env[n.args[0]]
            return b.finish([out], inputs)
        rargs = torch.fx.node.map_arg(n.args, lambda m: real[m])
        rkwargs = torch.fx.node.map_arg(n.kwargs, lambda m: real[m])
        if n.op == "call_module":
            mod = modules[n.target]
            real[n] = mod(*rargs, **rkwargs)
        elif n.op == "call_function":
            real[n] = n.target(*rargs, **rkwargs)
        elif n.op == "call_method":
            real[n] = getattr(rargs[0], n.target)(*rargs[1:], **rkwargs)
        elif n.op == "get_attr":
            raise SystemExit(f"get_attr {n.target} not supported")
        if not isinstance(real[n], torch.Tensor):  # shapes and ints: constants
            env[n] = real[n]
            continue
        a = lookup(n.args)
        kw = lookup(n.kwargs)
        fq = n.target if n.op == "call_module" else None
        if n.op == "call_module":
            mod = modules[n.target]
            x = a[0]
            if isinstance(mod, nn.Conv2d):
                assert mod.padding_mode == "zeros" and not isinstance(mod.padding, str)
                args = [x, b.attr(f"{fq}.weight"), b.attr(f"{fq}.bias") if mod.bias is not None else None,
                        _pair(mod.stride), _pair(mod.padding), _pair(mod.dilation), mod.groups]
                env[n] = b.call(aten.conv2d.default, *args, fqn=fq)
            elif isinstance(mod, nn.BatchNorm2d):
                assert not mod.training
                w, bb = b.attr(f"{fq}.weight"), b.attr(f"{fq}.bias")
                rm, rv = b.attr(f"{fq}.running_mean"), b.attr(f"{fq}.running_var")
                if bn_op == "batch_norm":
                    env[n] = b.call(aten.batch_norm.default, x, w, bb, rm, rv, False, mod.momentum,
                                    mod.eps, True, fqn=fq)
                else:
                    t = b.call(pj.NATIVE_BATCH_NORM_LEGIT_NO_TRAINING, x, w, bb, rm, rv, mod.momentum,
                               mod.eps, fqn=fq)
                    env[n] = b.call(operator.getitem, t, 0)
            elif isinstance(mod, nn.ReLU6):
                env[n] = b.call(aten.hardtanh.default, x, 0.0, 6.0, fqn=fq)
            elif isinstance(mod, nn.ReLU):
                env[n] = b.call(aten.relu.default, x, fqn=fq)
            elif isinstance(mod, nn.Tanh):
                env[n] = b.call(aten.tanh.default, x, fqn=fq)
            elif isinstance(mod, nn.MaxPool2d):
                env[n] = b.call(aten.max_pool2d.default, x, _pair(mod.kernel_size),
                                _pair(mod.stride), _pair(mod.padding), _pair(mod.dilation),
                                mod.ceil_mode, fqn=fq)
            elif isinstance(mod, nn.AdaptiveAvgPool2d):
                env[n] = b.call(aten.adaptive_avg_pool2d.default, x, _pair(mod.output_size), fqn=fq)
            elif isinstance(mod, nn.Dropout):
                env[n] = b.call(aten.dropout.default, x, mod.p, False, fqn=fq)
            elif isinstance(mod, nn.Linear):
                env[n] = b.call(aten.linear.default, x, b.attr(f"{fq}.weight"),
                                b.attr(f"{fq}.bias") if mod.bias is not None else None, fqn=fq)
            else:
                raise SystemExit(f"training IR: module {type(mod).__name__} not mapped")
        elif n.op == "call_function":
            t = n.target
            if t in (operator.add, operator.iadd, torch.add):
                env[n] = b.call(aten.add.Tensor, a[0], a[1])
            elif t is torch.nn.functional.adaptive_avg_pool2d:
                env[n] = b.call(aten.adaptive_avg_pool2d.default, a[0], _pair(a[1]))
            elif t is torch.flatten:
                env[n] = b.call(aten.flatten.using_ints, a[0], *a[1:])
            elif t is torch.tanh:
                env[n] = b.call(aten.tanh.default, a[0])
            elif t is torch.softmax or t is torch.nn.functional.softmax:
                dim = kw.get("dim", a[1] if len(a) > 1 else None)
                env[n] = b.call(aten.softmax.int, a[0], dim)
            else:
                raise SystemExit(f"training IR: function {t} not mapped")
        else:  # call_method
            m = n.target
            if m in ("reshape", "view"):
                shape = a[1] if len(a) == 2 and isinstance(a[1], (list, tuple)) else a[1:]
                env[n] = b.call(aten.view.default, a[0], [int(s) for s in shape])
            elif m == "mean":
                dim = kw.get("dim", a[1] if len(a) > 1 else None)
                env[n] = b.call(aten.mean.dim, a[0], [dim] if isinstance(dim, int) else list(dim))
            elif m == "flatten":
                env[n] = b.call(aten.flatten.using_ints, a[0], *a[1:])
            else:
                raise SystemExit(f"training IR: method {m} not mapped")
    raise SystemExit("traced graph has no output")


def transformer_training_program(model: torch.nn.TransformerEncoderLayer,
                                 inputs: Tuple[torch.Tensor, ...]) -> Program:
    """nn.TransformerEncoderLayer(batch_first=True, eval) as torch.export's training IR
    writes it (F.multi_head_attention_forward's path, aten.scaled_dot_product_attention)."""
    (x0,) = inputs
    bsz, seq, e = x0.shape
    heads = model.self_attn.num_heads
    hd = e // heads
    b = _Builder(model)
    c = b.call
    A = b.attr
    x = b.x
    q_in = c(aten.transpose.int, x, 1, 0)
    lin = c(aten.linear.default, q_in, A("self_attn.in_proj_weight"), A("self_attn.in_proj_bias"),
            fqn="self_attn")
    unfl = c(aten.unflatten.int, lin, -1, [3, e])
    unsq = c(aten.unsqueeze.default, unfl, 0)
    tr = c(aten.transpose.int, unsq, 0, -2)
    sq = c(aten.squeeze.dim, tr, -2)
    cont = c(aten.clone.default, sq, memory_format=torch.contiguous_format)
    qkv = []
    for i in range(3):
        s = c(aten.select.int, cont, 0, i)
        v = c(aten.view.default, s, [seq, bsz * heads, hd])
        t = c(aten.transpose.int, v, 0, 1)
        qkv.append(c(aten.view.default, t, [bsz, heads, seq, hd]))
    att = c(pj.SCALED_DOT_PRODUCT_ATTENTION, *qkv)
    perm = c(aten.permute.default, att, [2, 0, 1, 3])
    cont2 = c(aten.clone.default, perm, memory_format=torch.contiguous_format)
    v2 = c(aten.view.default, cont2, [bsz * seq, e])
    lin2 = c(aten.linear.default, v2, A("self_attn.out_proj.weight"), A("self_attn.out_proj.bias"),
             fqn="self_attn.out_proj")
    v3 = c(aten.view.default, lin2, [seq, bsz, e])
    tr2 = c(aten.transpose.int, v3, 1, 0)
    d1 = c(aten.dropout.default, tr2, model.dropout1.p, False, fqn="dropout1")
    add = c(aten.add.Tensor, x, d1)
    ln1 = c(aten.layer_norm.default, add, [e], A("norm1.weight"), A("norm1.bias"), model.norm1.eps,
            fqn="norm1")
    l1 = c(aten.linear.default, ln1, A("linear1.weight"), A("linear1.bias"), fqn="linear1")
    r = c(aten.relu.default, l1)
    d = c(aten.dropout.default, r, model.dropout.p, False, fqn="dropout")
    l2 = c(aten.linear.default, d, A("linear2.weight"), A("linear2.bias"), fqn="linear2")
    d2 = c(aten.dropout.default, l2, model.dropout2.p, False, fqn="dropout2")
    add2 = c(aten.add.Tensor, ln1, d2)
    ln2 = c(aten.layer_norm.default, add2, [e], A("norm2.weight"), A("norm2.bias"), model.norm2.eps,
            fqn="norm2")
    return b.finish([ln2], inputs)


# ---------------------------------------------------------------------------
# small models

class BufferMutation(torch.nn.Module):
    """Running mean of the batch's features and a step counter, updated in forward."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 4)
        self.register_buffer("running_mean", torch.zeros(4))
        self.register_buffer("steps", torch.zeros((), dtype=torch.int64))

    def forward(self, x):
        y = self.fc(x)
        self.running_mean.mul_(0.9).add_(y.mean(0), alpha=0.1)
        self.steps.add_(1)
        return y - self.running_mean


class SharedStorage(torch.nn.Module):
    """Two buffers that view one storage (offset 3 stride 1, offset 3 stride 2) and a
    transposed (non-contiguous) parameter, as ncnn's strided_tensors fixture."""

    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.arange(30, dtype=torch.float32).reshape(5, 6).t() / 10)
        shared = torch.arange(20, dtype=torch.float32) / 8
        self.register_buffer("offset_view", shared[3:8])
        self.register_buffer("strided_view", shared[3:13:2])

    def forward(self, x):
        return torch.mm(x, self.weight) + self.offset_view + self.strided_view


def small_model(name: str):
    torch.manual_seed(20240601 + 17)
    if name == "buffer_mutation":
        return BufferMutation().eval(), (torch.randn(3, 8),)
    if name == "shared_storage":
        return SharedStorage().eval(), (torch.arange(12, dtype=torch.float32).reshape(2, 6) / 10,)
    raise KeyError(name)


# ---------------------------------------------------------------------------
# read-back interpreter (independent of program_json: zipfile + json + torch)

def _tag(u: Dict[str, Any]) -> Tuple[str, Any]:
    act = [(k, v) for k, v in u.items() if v is not None]
    if len(act) != 1:
        raise ValueError(f"union with {len(act)} active tags: {list(u)}")
    return act[0]


def _float(v):
    if isinstance(v, str):
        return {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}[v]
    return float(v)


def _symint(v):
    if isinstance(v, int):
        return v
    tag, val = _tag(v)
    if tag != "as_int":
        raise ValueError(f"symbolic value {v}")
    return val


def read_archive(path: str):
    """(program json, state {fqn: tensor}, constants, example inputs or None, layout)."""
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        if "serialized_exported_program.json" in names:
            ep = json.loads(z.read("serialized_exported_program.json"))
            sd_name = next(n for n in ("serialized_state_dict.pt", "serialized_state_dict.json") if n in names)
            c_name = next(n for n in ("serialized_constants.pt", "serialized_constants.json") if n in names)
            state = torch.load(io.BytesIO(z.read(sd_name)))
            consts = torch.load(io.BytesIO(z.read(c_name)))
            ex = (torch.load(io.BytesIO(z.read("serialized_example_inputs.pt")))
                  if "serialized_example_inputs.pt" in names else None)
            layout = "A" if sd_name.endswith(".pt") else "A22"
            return ep, state, consts, ex, layout
        root = names[0].split("/", 1)[0]
        assert all(n.startswith(root + "/") for n in names)
        rd = lambda n: z.read(f"{root}/{n}")  # noqa: E731
        assert rd("archive_format") == b"pt2" and rd("archive_version") == b"0"
        ep = json.loads(rd("models/model.json"))
        ex = torch.load(io.BytesIO(rd("data/sample_inputs/model.pt")))
        if f"{root}/data/weights/model_weights_config.json" in names:
            def load_cfg(cfg_name, d):
                out = {}
                for fqn, meta in json.loads(rd(cfg_name))["config"].items():
                    assert not meta["use_pickle"]
                    tm = meta["tensor_meta"]
                    dt = pj.DTYPE_FROM_EXPORT[tm["dtype"]]
                    raw = bytearray(rd(f"{d}/{meta['path_name']}"))
                    flat = torch.frombuffer(raw, dtype=dt) if raw else torch.zeros(0, dtype=dt)
                    t = flat.as_strided([_symint(s) for s in tm["sizes"]], [_symint(s) for s in tm["strides"]],
                                        _symint(tm["storage_offset"]))
                    out[fqn] = torch.nn.Parameter(t, requires_grad=False) if meta["is_param"] else t
                return out
            state = load_cfg("data/weights/model_weights_config.json", "data/weights")
            consts = load_cfg("data/constants/model_constants_config.json", "data/constants")
            return ep, state, consts, ex, "C"
        state = torch.load(io.BytesIO(rd("data/weights/model.pt")))
        consts = torch.load(io.BytesIO(rd("data/constants/model.pt")))
        return ep, state, consts, ex, "B"


def interpret(ep: Dict[str, Any], state, consts, user_inputs: Sequence[torch.Tensor]):
    """Runs the JSON graph with torch.ops.aten; returns {output spec kind/name: tensor}."""
    g = ep["graph_module"]["graph"]
    sig = ep["graph_module"]["signature"]
    env: Dict[str, Any] = {}
    user = iter(user_inputs)
    for a, spec in zip(g["inputs"], sig["input_specs"]):
        _, an = _tag(a)
        kind, body = _tag(spec)
        if kind == "user_input":
            env[an["name"]] = next(user)
        elif kind == "parameter":
            env[an["name"]] = state[body["parameter_name"]]
        elif kind == "buffer":
            fq = body["buffer_name"]
            env[an["name"]] = state[fq] if fq in state else consts[fq]
        elif kind == "tensor_constant":
            env[an["name"]] = consts[body["tensor_constant_name"]]
        else:
            raise ValueError(kind)

    def value(arg):
        tag, v = _tag(arg)
        if tag == "as_none":
            return None
        if tag == "as_tensor":
            return env[v["name"]]
        if tag == "as_tensors":
            return [env[t["name"]] for t in v]
        if tag in ("as_int", "as_bool", "as_string", "as_ints", "as_bools", "as_strings"):
            return v
        if tag == "as_float":
            return _float(v)
        if tag == "as_floats":
            return [_float(f) for f in v]
        if tag == "as_scalar_type":
            return pj.DTYPE_FROM_EXPORT[v]
        if tag == "as_memory_format":
            return pj.MEMORY_FORMAT_FROM_EXPORT[v]
        if tag == "as_layout":
            return pj.LAYOUT_FROM_EXPORT[v]
        if tag == "as_device":
            return torch.device(v["type"], v["index"]) if v["index"] is not None else torch.device(v["type"])
        if tag == "as_optional_tensors":
            return [None if "as_none" in o and o.get("as_tensor") is None else env[o["as_tensor"]["name"]]
                    for o in v]
        raise ValueError(f"argument tag {tag}")

    with torch.no_grad():
        for node in g["nodes"]:
            op = pj.resolve_target(node["target"])
            schema = op._schema
            by_name = {na["name"]: na for na in node["inputs"]}
            pos, kw = [], {}
            positional = [a for a in schema.arguments if not a.kwarg_only]
            last = max([i for i, a in enumerate(positional) if a.name in by_name], default=-1)
            for i, a in enumerate(positional[:last + 1]):
                if a.name in by_name:
                    pos.append(value(by_name.pop(a.name)["arg"]))
                else:
                    assert a.has_default_value(), (node["target"], a.name)
                    pos.append(a.default_value)
            for a in schema.arguments:
                if a.kwarg_only and a.name in by_name:
                    kw[a.name] = value(by_name.pop(a.name)["arg"])
            if by_name:
                raise ValueError(f"{node['target']}: unknown arguments {list(by_name)}")
            res = op(*pos, **kw)
            outs = node["outputs"]
            results = list(res) if isinstance(res, (tuple, list)) and len(outs) > 1 else [res]
            for o, r in zip(outs, results):
                tag, v = _tag(o)
                if tag == "as_tensor":
                    env[v["name"]] = r
                elif tag == "as_tensors":
                    for t, rr in zip(v, r):
                        env[t["name"]] = rr
                elif tag != "as_none":
                    raise ValueError(f"output tag {tag}")
    results = []
    for a, spec in zip(g["outputs"], sig["output_specs"]):
        _, an = _tag(a)
        kind, body = _tag(spec)
        results.append((kind, body.get("buffer_name"), env[an["name"]]))
    return results


def verify(path: str, x: torch.Tensor, ref: torch.Tensor,
           buffer_refs: Optional[Dict[str, torch.Tensor]] = None) -> float:
    ep, state, consts, ex, layout = read_archive(path)
    if ex is not None:
        (args, kwargs) = ex
        assert not kwargs and len(args) == 1 and torch.equal(args[0], x), f"{path}: sample inputs differ"
    results = interpret(ep, state, consts, [x])
    user = [r for k, _, r in results if k == "user_output"]
    assert len(user) == 1, f"{path}: {len(user)} user outputs"
    err = float((user[0] - ref).abs().max())
    bound = TOL_REL * max(1.0, float(ref.abs().max()))
    if not err <= bound:
        raise SystemExit(f"{path}: read-back output differs from eager: {err:g} > {bound:g}")
    for kind, name, r in results:
        if kind == "buffer_mutation":
            want = buffer_refs[name]
            e = float((r.to(torch.float64) - want.to(torch.float64)).abs().max())
            if not e <= TOL_REL * max(1.0, float(want.abs().max())):
                raise SystemExit(f"{path}: buffer {name} new value differs: {e:g}")
    return err


# ---------------------------------------------------------------------------

def run_runtime(path: str, input_npy: str, expected: np.ndarray) -> Dict[str, Any]:
    """``node bin/trident.mjs run FILE --input NAME.input.npy --json``; compares the (one)
    user output with the expected array."""
    cli = os.path.join(REPO, "bin", "trident.mjs")
    cmd = ["node", cli, "run", path, "--input", input_npy, "--json"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    except Exception as e:  # noqa: BLE001
        return {"ok": False, "error": str(e)}
    if p.returncode != 0:
        msg = (p.stderr.strip() or p.stdout.strip()).splitlines()
        return {"ok": False, "error": msg[-1] if msg else f"exit {p.returncode}"}
    res = json.loads(p.stdout)
    outs = res["outputs"]
    if len(outs) != 1:
        return {"ok": False, "error": f"{len(outs)} outputs"}
    got = np.asarray(outs[0]["values"], dtype=np.float64).reshape(outs[0]["shape"])
    if got.shape != expected.shape:
        return {"ok": False, "error": f"shape {list(got.shape)} != {list(expected.shape)}"}
    err = float(np.abs(got - expected).max())
    return {"ok": bool(err <= TOL_REL * max(1.0, float(np.abs(expected).max()))), "max_abs_error": err,
            "ms": res.get("ms")}


def export_model(name: str, out: str, layouts: Sequence[str], index: Dict[str, Any],
                 run: bool) -> None:
    t0 = time.time()
    buffer_refs: Dict[str, torch.Tensor] = {}
    training: List[Tuple[str, Program, List[str]]] = []
    if name in SMALL:
        model, inputs = small_model(name)
        ref_model = copy.deepcopy(model)
        with torch.no_grad():
            ref = ref_model(*inputs)
        buffer_refs = {k: v.clone() for k, v in ref_model.named_buffers()}
        core = core_program(model, inputs, mutations=(name == "buffer_mutation"))
        info = {"description": (model.__doc__ or "").strip().splitlines()[0]}
    else:
        em = _em()
        model, inputs, info = getattr(em, name)()
        grad = bool(info.pop("grad_for_tracing", False))
        with torch.no_grad():
            ref = model(*inputs)
        core = core_program(model, inputs, grad_for_tracing=grad)
        if name.startswith("transformer_"):
            training.append((name, transformer_training_program(model, inputs), []))
        else:
            training.append((name, training_program(
                model, inputs, bn_op="_native_batch_norm_legit_no_training" if name == "resnet18"
                else "batch_norm"), []))
    (x,) = inputs
    np.save(os.path.join(out, f"{name}.input.npy"), x.numpy().astype(np.float32))
    expected = ref.detach().numpy().astype(np.float32)
    np.save(os.path.join(out, f"{name}.expected.npy"), expected)

    outs = core.evaluate()
    user = outs[-1]
    e0 = float((user - ref).abs().max())
    if not e0 <= TOL_REL * max(1.0, float(ref.abs().max())):
        raise SystemExit(f"{name}: captured core graph differs from eager: {e0:g}")

    entry = {"description": info.get("description", ""), "files": [], "input": f"{name}.input.npy",
             "expected": f"{name}.expected.npy", "tolerance_rel_to_max_ref": TOL_REL,
             "ops": core.op_counts(), "file_info": {}}
    index["models"][name] = entry

    def emit(key: str, entry: Dict[str, Any], prog: Program, fname: str, layout: str, ir: str,
             extra: Dict[str, Any]) -> None:
        path = os.path.join(out, fname)
        size = archive.write(prog, path, layout)
        err = verify(path, x, ref, buffer_refs)
        fi = {"layout": layout, "ir": ir, "schema": archive.LAYOUT_STYLE[layout], "bytes": size,
              "ops": prog.op_counts(), "readback_max_abs_error": err,
              "weights": {k: {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape)}
                          for k, t in {**prog.state_dict, **prog.constants}.items()},
              **extra}
        line = f"  {fname}: {size} B, read-back error {err:.3g}"
        if run:
            rt = run_runtime(path, os.path.join(out, f"{name}.input.npy"), expected.astype(np.float64))
            fi["runtime"] = rt
            line += f", runtime: {rt}"
        entry["files"].append(fname)
        entry["file_info"][fname] = fi
        print(line, flush=True)

    for layout in layouts:
        emit(name, entry, core, f"{name}.core.{layout}.pt2", layout, "core_aten", {})
    for key, prog, unsupported in training:
        outs = prog.evaluate()
        e1 = float((outs[-1] - ref).abs().max())
        if not e1 <= TOL_REL * max(1.0, float(ref.abs().max())):
            raise SystemExit(f"{key}: training-IR graph differs from eager: {e1:g}")
        if key == name:
            emit(key, entry, prog, f"{name}.training.C.pt2", "C", "training", {})
        else:
            sub = {"description": f"{name}, training IR", "files": [], "input": entry["input"],
                   "expected": entry["expected"], "tolerance_rel_to_max_ref": TOL_REL,
                   "ops": prog.op_counts(), "file_info": {}, "expects_unsupported": unsupported}
            index["models"][key] = sub
            emit(key, sub, prog, f"{name}.training.C.pt2", "C", "training",
                 {"expects_unsupported": unsupported})
    print(f"{name}: {time.time() - t0:.1f}s", flush=True)


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", nargs="*", help=f"some of {MODELS + SMALL}")
    ap.add_argument("--layouts", nargs="*", default=list(archive.LAYOUTS))
    ap.add_argument("--run", action="store_true", help="also run each archive in the wasm runtime")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    os.makedirs(args.out, exist_ok=True)
    names = args.only or (MODELS + SMALL)
    t0 = time.time()
    index_path = os.path.join(args.out, "index.json")
    index: Dict[str, Any] = {"models": {}}
    if args.only and os.path.exists(index_path):
        with open(index_path) as f:
            index = json.load(f)
    for n in names:
        if n not in MODELS + SMALL:
            raise SystemExit(f"unknown model {n}")
        export_model(n, args.out, args.layouts, index, args.run)
    index["models"] = dict(sorted(index["models"].items()))
    index["torch"] = torch.__version__
    with open(index_path, "w") as f:
        json.dump(index, f, indent=2)
        f.write("\n")
    print(f"done in {time.time() - t0:.1f}s -> {index_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
