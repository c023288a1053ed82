"""From torch 1.13's ATen graphs to ExecuTorch's core-ATen out variants.

Three tables drive the lowering (``lower.py``):

* ``decomposition_table()``: what ``make_fx`` decomposes while tracing. The
  non-core ops torch 1.13 produces for our models (``t``, ``transpose``,
  ``_reshape_alias``, ``_unsafe_view``, ``detach``, ...) go through
  ``torch._decomp``; ``split.Tensor`` gets a local decomposition into
  ``slice.Tensor`` (core ATen, and ``slice_copy.Tensor_out`` after
  functionalization) instead of ExecuTorch's ``split_copy.Tensor_out``, whose
  TensorList out needs no extra kernel this way.
* ``rewrite(op, args, kwargs)``: functional op -> the functional form of the
  ExecuTorch core op: eval ``native_batch_norm`` ->
  ``_native_batch_norm_legit_no_training`` (newer PyTorch/ExecuTorch; torch 1.13
  lacks it, so its schema is below), ``add/sub/mul/div.Tensor`` with a Python
  number -> the ``.Scalar`` overloads.
* ``out_variant(op)``: the out overload and its registry name, found the way
  ExecuTorch's ``to_out_variant`` does: the overload of the same op whose
  non-out arguments have the same names, and which has out arguments.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

import torch
from torch._decomp import get_decompositions

aten = torch.ops.aten


# ---------------------------------------------------------------------------
# Schemas torch 1.13 does not have (taken from current PyTorch/ExecuTorch:
# aten/src/ATen/native/native_functions.yaml).

class ExtraOp:
    """An ATen op torch 1.13 lacks: its functional and out schemas and a
    Python reference of the functional form (used by the replay check)."""

    def __init__(self, functional: str, out: str, ref: Callable[..., Any]):
        self.functional = torch._C.parse_schema(functional)
        self.out = torch._C.parse_schema(out)
        self.ref = ref
        self.name = self.functional.name + "." + (self.functional.overload_name or "default")

    def __repr__(self) -> str:
        return f"<ExtraOp {self.name}>"


def _bn_no_training_ref(input, weight, bias, running_mean, running_var, momentum, eps):
    out = torch.nn.functional.batch_norm(input, running_mean, running_var, weight, bias,
                                         False, momentum, eps)
    empty = input.new_zeros((0,))
    return out, empty, empty.clone()


NATIVE_BATCH_NORM_LEGIT_NO_TRAINING = ExtraOp(
    "aten::_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, "
    "Tensor running_mean, Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
    "aten::_native_batch_norm_legit_no_training.out(Tensor input, Tensor? weight, Tensor? bias, "
    "Tensor running_mean, Tensor running_var, float momentum, float eps, *, Tensor(a!) out0, "
    "Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))",
    _bn_no_training_ref,
)

EXTRA_OPS = {NATIVE_BATCH_NORM_LEGIT_NO_TRAINING.out.name + "." + NATIVE_BATCH_NORM_LEGIT_NO_TRAINING.out.overload_name:
             NATIVE_BATCH_NORM_LEGIT_NO_TRAINING}


# ---------------------------------------------------------------------------
# Decompositions applied while tracing

def _split_to_slices(self, split_size, dim=0):
    dim = dim % self.dim()
    size = self.shape[dim]
    if size == 0:
        return [aten.slice.Tensor(self, dim, 0, 0, 1)]
    return [aten.slice.Tensor(self, dim, start, min(start + split_size, size), 1)
            for start in range(0, size, split_size)]


def _split_with_sizes_to_slices(self, split_sizes, dim=0):
    dim = dim % self.dim()
    out, start = [], 0
    for s in split_sizes:
        out.append(aten.slice.Tensor(self, dim, start, start + s, 1))
        start += s
    return out


#: Non-core ops decomposed with torch._decomp's own rules.
TORCH_DECOMPOSED = [
    aten.t, aten.transpose.int, aten._reshape_alias, aten._unsafe_view, aten.detach,
    aten.expand_as, aten.squeeze.default, aten.squeeze.dim, aten.unsqueeze.default,
    aten.select.int, aten.narrow, aten.flatten.using_ints, aten.reshape,
    aten.silu, aten.hardswish, aten.hardsigmoid, aten.leaky_relu, aten.elu,
    aten.log_softmax.int, aten.softmax.int, aten.rsub.Scalar,
]


def decomposition_table() -> Dict[Any, Callable[..., Any]]:
    table: Dict[Any, Callable[..., Any]] = {}
    table.update(get_decompositions(TORCH_DECOMPOSED))
    table[aten.split.Tensor] = _split_to_slices
    table[aten.split_with_sizes.default] = _split_with_sizes_to_slices
    return table


# ---------------------------------------------------------------------------
# Rewrites of functional ops into ExecuTorch's core forms

_SCALAR_OVERLOAD = {
    aten.add.Tensor: aten.add.Scalar,
    aten.sub.Tensor: aten.sub.Scalar,
    aten.mul.Tensor: aten.mul.Scalar,
    aten.div.Tensor: aten.div.Scalar,
}

#: Ops that are plain identities after functionalization (dropped, their
#: input stands for their output).
IDENTITY_OPS = {aten.alias.default, aten.detach.default, aten.lift_fresh_copy.default,
                aten.alias_copy.default, aten.detach_copy.default}


def rewrite(op: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Tuple[Any, Tuple[Any, ...], Dict[str, Any]]:
    """Returns (op, args, kwargs) in ExecuTorch's core form; ``op`` may be an ExtraOp."""
    if op in _SCALAR_OVERLOAD and len(args) >= 2 and isinstance(args[1], (int, float, bool)) \
            and not isinstance(args[1], torch.Tensor):
        return _SCALAR_OVERLOAD[op], args, kwargs
    if op is aten.native_batch_norm.default:
        names = [a.name for a in op._schema.arguments]
        bound = dict(zip(names, args))
        bound.update(kwargs)
        if bound["training"]:
            raise LoweringError("native_batch_norm in training mode: export the model in eval mode")
        return (NATIVE_BATCH_NORM_LEGIT_NO_TRAINING,
                (bound["input"], bound["weight"], bound["bias"], bound["running_mean"],
                 bound["running_var"], bound["momentum"], bound["eps"]), {})
    return op, args, kwargs


class LoweringError(Exception):
    pass


def view_to_copy(op: Any) -> Any:
    """A view op left by functionalization (it leaves views of constants alone)
    -> its ``*_copy`` form, e.g. ``permute.default`` -> ``permute_copy.default``."""
    if isinstance(op, ExtraOp):
        return op
    s = op._schema
    if not any(r.alias_info is not None and not r.alias_info.is_write for r in s.returns):
        return op
    name = s.name.split("::", 1)[1]
    packet = getattr(aten, name + "_copy", None)
    if packet is None:
        raise LoweringError(f"view op {op_name(op)} has no *_copy form in torch {torch.__version__}")
    return getattr(packet, s.overload_name or "default")


# ---------------------------------------------------------------------------
# Out variants

def functional_schema(op: Any) -> torch._C.FunctionSchema:
    return op.functional if isinstance(op, ExtraOp) else op._schema


def op_name(op: Any) -> str:
    s = functional_schema(op)
    return f"{s.name}.{s.overload_name or 'default'}"


_OUT_CACHE: Dict[Any, Tuple[torch._C.FunctionSchema, str, Any]] = {}


def out_variant(op: Any) -> Tuple[torch._C.FunctionSchema, str, Any]:
    """(out schema, registry name "aten::name.overload", callable or ExtraOp).

    The callable is torch's out overload (for the replay check); for an ExtraOp
    the ExtraOp itself.
    """
    if op in _OUT_CACHE:
        return _OUT_CACHE[op]
    if isinstance(op, ExtraOp):
        res = (op.out, f"{op.out.name}.{op.out.overload_name}", op)
        _OUT_CACHE[op] = res
        return res
    fs = op._schema
    if any(a.is_out for a in fs.arguments):
        raise LoweringError(f"{op_name(op)} is already an out variant")
    want = [(a.name, str(a.type)) for a in fs.arguments]
    packet = getattr(aten, fs.name.split("::", 1)[1])
    found = None
    for ov in packet.overloads():
        cand = getattr(packet, ov)
        s = cand._schema
        outs = [a for a in s.arguments if a.is_out]
        if not outs:
            continue
        if [(a.name, str(a.type)) for a in s.arguments if not a.is_out] == want:
            found = (s, f"{s.name}.{s.overload_name}", cand)
            break
    if found is None:
        raise LoweringError(f"no out variant of {op_name(op)} in torch {torch.__version__}")
    _OUT_CACHE[op] = found
    return found


def bind(schema: torch._C.FunctionSchema, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Dict[str, Any]:
    """Names every non-out argument of ``schema`` (a functional schema), filling defaults."""
    params = [a for a in schema.arguments if not a.is_out]
    bound: Dict[str, Any] = {}
    if len(args) > len(params):
        raise LoweringError(f"{schema.name}: {len(args)} positional arguments for {len(params)} parameters")
    for a, v in zip(params, args):
        bound[a.name] = v
    for k, v in kwargs.items():
        if k not in {a.name for a in params}:
            raise LoweringError(f"{schema.name}: unknown argument {k!r}")
        bound[k] = v
    for a in params:
        if a.name not in bound:
            if not a.has_default_value():
                raise LoweringError(f"{schema.name}: missing argument {a.name!r}")
            bound[a.name] = a.default_value
    return bound


def out_arguments(schema: torch._C.FunctionSchema) -> List[torch._C.Argument]:
    return [a for a in schema.arguments if a.is_out]


def in_arguments(schema: torch._C.FunctionSchema) -> List[torch._C.Argument]:
    return [a for a in schema.arguments if not a.is_out]
