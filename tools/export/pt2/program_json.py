"""ExportedProgram JSON (``torch._export.serde``) from a torch.fx graph of ATen overloads.

torch 1.13 has no ``torch.export``: this module builds the JSON that
``torch.export.save`` writes, from an FX graph whose ``call_function`` nodes call
``torch.ops.aten.*`` overloads (or one of the :data:`EXTRA_OPS`, ATen ops torch 1.13 lacks,
given by their current schema and a reference implementation), ``operator.getitem`` for
multi-output ops, placeholders for the lifted state and the user inputs.

The encoding follows ``torch/_export/serde/serialize.py`` (see
../shared/corpus/pt2/FORMAT-NOTES.md §2-3):

* dataclass field order, ``json.dumps`` default separators, every field present;
* one :class:`Style` per schema era: single-key unions (schema 8.x) or every tag listed with
  ``null`` for the inactive ones (torch 2.2, schema ``2``, ``dialect``, no ``kind``, bare-int
  ``storage_offset``, ``as_none`` = ``[]``);
* NamedArgument names from the op schema; trailing positional arguments equal to their
  schema default and keyword-only arguments equal to their default are not written (what
  the serializer does with the argument lists torch's tracers record);
* one output Argument per schema return, named after the ``getitem`` users, else
  ``<node>_unused_<i>``; ``getitem`` nodes themselves are not written;
* ScalarType / MemoryFormat / Layout in the export schema numbering.
"""

from __future__ import annotations

import collections
import json
import math
import operator
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch
import torch.fx

# ---------------------------------------------------------------------------
# enums (export schema numbering, not c10's)

EXPORT_DTYPE = {
    torch.uint8: 1, torch.int8: 2, torch.int16: 3, torch.int32: 4, torch.int64: 5,
    torch.float16: 6, torch.float32: 7, torch.float64: 8, torch.complex32: 9,
    torch.complex64: 10, torch.complex128: 11, torch.bool: 12, torch.bfloat16: 13,
}
DTYPE_FROM_EXPORT = {v: k for k, v in EXPORT_DTYPE.items()}
EXPORT_MEMORY_FORMAT = {torch.contiguous_format: 1, torch.channels_last: 2,
                        torch.channels_last_3d: 3, torch.preserve_format: 4}
MEMORY_FORMAT_FROM_EXPORT = {v: k for k, v in EXPORT_MEMORY_FORMAT.items()}
EXPORT_LAYOUT = {torch.sparse_coo: 1, torch.sparse_csr: 2, torch.sparse_csc: 3,
                 torch.sparse_bsr: 4, torch.sparse_bsc: 5, torch._mkldnn: 6, torch.strided: 7}
LAYOUT_FROM_EXPORT = {v: k for k, v in EXPORT_LAYOUT.items()}


# ---------------------------------------------------------------------------
# ops torch 1.13 does not have

class ExtraOp:
    """An ATen overload missing from torch 1.13: current schema + reference implementation."""

    def __init__(self, schema: str, impl: Callable[..., Any]):
        self._schema = torch._C.parse_schema(schema)
        self.impl = impl
        ns, name = self._schema.name.split("::")
        self.namespace, self.op_name = ns, name
        self.overload = self._schema.overload_name or "default"
        self.__name__ = name  # FX names call_function nodes after it

    def __call__(self, *args, **kwargs):
        return self.impl(*args, **kwargs)

    def __repr__(self):
        return target_string(self)


def _bn_no_training(input, weight, bias, running_mean, running_var, momentum, eps):
    return torch.ops.aten.native_batch_norm.default(input, weight, bias, running_mean,
                                                    running_var, False, momentum, eps)


def _sdpa(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, *, scale=None,
          enable_gqa=False):
    assert dropout_p == 0.0 and not enable_gqa
    s = (1.0 / math.sqrt(query.shape[-1])) if scale is None else scale
    scores = torch.matmul(query, key.transpose(-2, -1)) * s
    if is_causal:
        L, S = query.shape[-2], key.shape[-2]
        mask = torch.ones(L, S, dtype=torch.bool).tril()
        scores = scores.masked_fill(~mask, float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(~attn_mask, float("-inf"))
        else:
            scores = scores + attn_mask
    return torch.matmul(torch.softmax(scores, dim=-1), value)


EXTRA_OPS: Dict[str, ExtraOp] = {}


def _register(op: ExtraOp) -> ExtraOp:
    EXTRA_OPS[target_string(op)] = op
    return op


def target_string(target: Any) -> str:
    if isinstance(target, ExtraOp):
        return f"torch.ops.{target.namespace}.{target.op_name}.{target.overload}"
    if isinstance(target, torch._ops.OpOverload):
        schema = target._schema
        ns, name = schema.name.split("::")
        return f"torch.ops.{ns}.{name}.{schema.overload_name or 'default'}"
    raise TypeError(f"not an ATen overload: {target!r}")


NATIVE_BATCH_NORM_LEGIT_NO_TRAINING = _register(ExtraOp(
    "aten::_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, "
    "Tensor running_mean, Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
    _bn_no_training))
SCALED_DOT_PRODUCT_ATTENTION = _register(ExtraOp(
    "aten::scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, "
    "Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal=False, *, float? scale=None, "
    "bool enable_gqa=False) -> Tensor",
    _sdpa))


def resolve_target(target: str) -> Any:
    """``torch.ops.aten.add.Tensor`` -> the overload (or ExtraOp)."""
    if target in EXTRA_OPS:
        return EXTRA_OPS[target]
    parts = target.split(".")
    if len(parts) != 5 or parts[:2] != ["torch", "ops"]:
        raise ValueError(f"unsupported target {target!r}")
    return getattr(getattr(getattr(torch.ops, parts[2]), parts[3]), parts[4])


def op_schema(target: Any) -> torch._C.FunctionSchema:
    return target._schema


# ---------------------------------------------------------------------------
# the program

@dataclass
class InputSpec:
    kind: str                  # parameter | buffer | tensor_constant | user_input
    node: torch.fx.Node
    target: Optional[str] = None  # FQN for lifted inputs
    persistent: bool = True


@dataclass
class OutputSpec:
    kind: str                  # user_output | buffer_mutation
    node: torch.fx.Node
    target: Optional[str] = None


@dataclass
class Program:
    """What ``torch.export`` would hold: graph, signature, state and example inputs."""
    graph: torch.fx.Graph
    input_specs: List[InputSpec]
    output_specs: List[OutputSpec]
    state_dict: Dict[str, torch.Tensor]      # parameters + persistent buffers (FQN order)
    constants: Dict[str, torch.Tensor]       # non-persistent buffers, lifted constants
    example_inputs: Tuple[torch.Tensor, ...]
    verifier: str = "ATEN"                   # "ATEN" (core ATen) or "TRAINING"
    submodules: List[str] = field(default_factory=list)   # for module_call_graph
    forward_arg_names: List[str] = field(default_factory=lambda: ["x"])
    values: Dict[torch.fx.Node, Any] = field(default_factory=dict)

    def lifted_value(self, spec: InputSpec) -> torch.Tensor:
        if spec.kind in ("parameter", "buffer"):
            return self.state_dict[spec.target] if spec.target in self.state_dict else self.constants[spec.target]
        if spec.kind == "tensor_constant":
            return self.constants[spec.target]
        raise ValueError(spec.kind)

    def evaluate(self) -> List[torch.Tensor]:
        """Runs the graph on the state and example inputs (torch ops / ExtraOp impls),
        records every node's value in ``values``; returns the graph outputs."""
        env: Dict[torch.fx.Node, Any] = {}
        user = iter(self.example_inputs)
        spec_of = {s.node: s for s in self.input_specs}
        with torch.no_grad():
            for node in self.graph.nodes:
                if node.op == "placeholder":
                    s = spec_of[node]
                    env[node] = next(user) if s.kind == "user_input" else self.lifted_value(s)
                elif node.op == "call_function":
                    args = torch.fx.node.map_arg(node.args, lambda n: env[n])
                    kwargs = torch.fx.node.map_arg(node.kwargs, lambda n: env[n])
                    env[node] = node.target(*args, **kwargs)
                elif node.op == "output":
                    outs = node.args[0]
                    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
                    self.values = env
                    return [env[o] for o in outs]
                else:
                    raise ValueError(f"{node.op} nodes are not supported")
        raise ValueError("graph has no output")

    def op_counts(self) -> Dict[str, int]:
        c = collections.Counter(target_string(n.target) for n in self.graph.nodes
                                if n.op == "call_function" and n.target is not operator.getitem)
        return dict(sorted(c.items()))


def rename_nodes(graph: torch.fx.Graph, keep: Sequence[torch.fx.Node] = ()) -> None:
    """FX-style names from the op: ``addmm``, ``addmm_1``, ``getitem``, ... (what export's
    graphs show); placeholders and ``keep`` nodes keep theirs."""
    used = {n.name for n in graph.nodes if n.op == "placeholder" or n in keep}
    counts: Dict[str, int] = collections.Counter()
    for n in graph.nodes:
        if n.op != "call_function" or n in keep:
            continue
        if n.target is operator.getitem:
            base = "getitem"
        elif isinstance(n.target, ExtraOp):
            base = n.target.op_name
        else:
            base = n.target._schema.name.split("::")[1]
        while True:
            k = counts[base]
            counts[base] += 1
            cand = base if k == 0 else f"{base}_{k}"
            if cand not in used:
                break
        used.add(cand)
        n.name = cand


# ---------------------------------------------------------------------------
# JSON styles

@dataclass(frozen=True)
class Style:
    name: str
    schema_version: Any            # (major, minor) or int
    torch_version: Optional[str]   # None: no field (2.2)
    all_tags: bool                 # torch 2.1/2.2 union encoding

    @property
    def legacy(self) -> bool:
        return self.all_tags


STYLES = {
    "8.14": Style("8.14", (8, 14), "2.9.0", False),
    "8.12": Style("8.12", (8, 12), "2.9.0a0", False),
    "8.8": Style("8.8", (8, 8), "2.8.0", False),
    "8.7": Style("8.7", (8, 7), "2.7.0", False),
    "2.2": Style("2.2", 2, None, True),
}

_ARG_TAGS_22 = ["as_none", "as_tensor", "as_tensors", "as_int", "as_ints", "as_float", "as_floats",
                "as_string", "as_strings", "as_sym_int", "as_sym_ints", "as_scalar_type",
                "as_memory_format", "as_layout", "as_device", "as_bool", "as_bools", "as_sym_bool",
                "as_sym_bools", "as_graph", "as_optional_tensors", "as_custom_obj"]
_SYMINT_TAGS_22 = ["as_expr", "as_int"]
_INPUT_SPEC_TAGS_22 = ["user_input", "parameter", "buffer", "tensor_constant"]
_OUTPUT_SPEC_TAGS_22 = ["user_output", "loss_output", "buffer_mutation", "gradient_to_parameter",
                        "gradient_to_user_input"]


class JsonWriter:
    def __init__(self, program: Program, style: Style):
        self.p = program
        self.s = style
        if not program.values:
            program.evaluate()
        self.tensor_values: Dict[str, Any] = {}
        self.names: Dict[torch.fx.Node, str] = {}
        if style.legacy:  # torch 2.2 names lifted placeholders argN_1, user inputs l_<name>_
            for i, s in enumerate(program.input_specs):
                self.names[s.node] = (f"l_{s.node.name}_" if s.kind == "user_input" else f"arg{i}_1")

    def nm(self, node: torch.fx.Node) -> str:
        return self.names.get(node, node.name)

    # unions ------------------------------------------------------------------

    def _union(self, tags: List[str], tag: str, value: Any) -> Dict[str, Any]:
        if not self.s.all_tags:
            return {tag: value}
        if tag not in tags:
            raise ValueError(f"union tag {tag!r} does not exist in the torch 2.2 schema")
        return {t: (value if t == tag else None) for t in tags}

    def arg(self, tag: str, value: Any) -> Dict[str, Any]:
        return self._union(_ARG_TAGS_22, tag, value)

    def none(self) -> Dict[str, Any]:
        return self.arg("as_none", [] if self.s.all_tags else True)

    def symint(self, v: int) -> Dict[str, Any]:
        return self._union(_SYMINT_TAGS_22, "as_int", int(v))

    # values ------------------------------------------------------------------

    def tensor_meta(self, t: torch.Tensor, requires_grad: bool = False) -> Dict[str, Any]:
        if t.dtype not in EXPORT_DTYPE:
            raise ValueError(f"dtype {t.dtype} has no export ScalarType")
        return {
            "dtype": EXPORT_DTYPE[t.dtype],
            "sizes": [self.symint(s) for s in t.shape],
            "requires_grad": bool(requires_grad),
            "device": {"type": t.device.type, "index": t.device.index},
            "strides": [self.symint(s) for s in t.stride()],
            "storage_offset": (int(t.storage_offset()) if self.s.all_tags
                               else self.symint(t.storage_offset())),
            "layout": EXPORT_LAYOUT[t.layout],
        }

    def _add_value(self, name: str, value: Any, requires_grad: bool = False) -> None:
        if isinstance(value, torch.Tensor):
            self.tensor_values[name] = self.tensor_meta(value, requires_grad)

    @staticmethod
    def _float(v: float) -> Any:
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        if math.isnan(v):
            raise ValueError("NaN cannot be serialized")
        return float(v)

    def argument(self, v: Any, ty: str) -> Dict[str, Any]:
        """serialize_input: the Argument union for one value of schema type ``ty``."""
        if isinstance(v, torch.fx.Node):
            val = self.p.values.get(v)
            if isinstance(val, (list, tuple)):
                raise ValueError(f"{v.name}: tuple value used as an argument")
            return self.arg("as_tensor", {"name": self.nm(v)})
        if v is None:
            return self.none()
        if isinstance(v, bool):
            return self.arg("as_bool", v)
        if isinstance(v, int):
            return self.arg("as_int", v)
        if isinstance(v, float):
            return self.arg("as_float", self._float(v))
        if isinstance(v, str):
            return self.arg("as_string", v)
        if isinstance(v, torch.dtype):
            return self.arg("as_scalar_type", EXPORT_DTYPE[v])
        if isinstance(v, torch.memory_format):
            return self.arg("as_memory_format", EXPORT_MEMORY_FORMAT[v])
        if isinstance(v, torch.layout):
            return self.arg("as_layout", EXPORT_LAYOUT[v])
        if isinstance(v, torch.device):
            return self.arg("as_device", {"type": v.type, "index": v.index})
        if isinstance(v, (list, tuple)):
            v = list(v)
            if not v:
                if "Optional[Tensor]" in ty:
                    return self.arg("as_optional_tensors", [])
                if "Tensor" in ty:
                    return self.arg("as_tensors", [])
                if "float" in ty:
                    return self.arg("as_floats", [])
                if "bool" in ty:
                    return self.arg("as_bools", [])
                if "str" in ty:
                    return self.arg("as_strings", [])
                return self.arg("as_ints", [])
            if "Optional[Tensor]" in ty or (any(x is None for x in v)
                                            and all(x is None or isinstance(x, torch.fx.Node) for x in v)):
                if self.s.all_tags:
                    raise ValueError("optional tensor lists are not written in the 2.2 style")
                return self.arg("as_optional_tensors", [
                    {"as_none": True} if x is None else {"as_tensor": {"name": self.nm(x)}} for x in v])
            if all(isinstance(x, torch.fx.Node) for x in v):
                return self.arg("as_tensors", [{"name": self.nm(x)} for x in v])
            if all(isinstance(x, bool) for x in v):
                return self.arg("as_bools", v)
            if all(isinstance(x, int) and not isinstance(x, bool) for x in v):
                return self.arg("as_ints", v)
            if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v):
                return self.arg("as_floats", [self._float(float(x)) for x in v])
            if all(isinstance(x, str) for x in v):
                return self.arg("as_strings", v)
        raise ValueError(f"cannot serialize argument {v!r} of type {ty}")

    # nodes -------------------------------------------------------------------

    @staticmethod
    def _is_default(v: Any, a: torch._C.Argument) -> bool:
        if not a.has_default_value():
            return False
        d = a.default_value
        if isinstance(v, torch.fx.Node):
            return False
        if d is None or v is None:
            return d is None and v is None
        if isinstance(d, bool) or isinstance(v, bool):
            return isinstance(d, bool) and isinstance(v, bool) and d == v
        if isinstance(d, (list, tuple)):
            if isinstance(v, (int, float)):
                n = getattr(a, "N", None) or 1
                v = [v] * n
            if not isinstance(v, (list, tuple)):
                return False
            return list(v) == list(d)
        if isinstance(d, (int, float)) and isinstance(v, (int, float)):
            return d == v
        return False

    def named_arguments(self, node: torch.fx.Node) -> List[Dict[str, Any]]:
        schema = op_schema(node.target)
        args, kwargs = list(node.args), dict(node.kwargs)
        positional = [a for a in schema.arguments if not a.kwarg_only]
        if len(args) > len(positional):
            raise ValueError(f"{node.name}: {len(args)} positional arguments for {schema}")
        # positional arguments given by keyword join the positional list
        for i, a in enumerate(positional):
            if i >= len(args) and a.name in kwargs:
                while len(args) < i:
                    pa = positional[len(args)]
                    if not pa.has_default_value():
                        raise ValueError(f"{node.name}: argument {pa.name!r} missing")
                    args.append(pa.default_value)
                args.append(kwargs.pop(a.name))
        n = len(args)
        while n > 0 and self._is_default(args[n - 1], positional[n - 1]):
            n -= 1
        out = []
        for i, a in enumerate(schema.arguments):
            if a.kwarg_only:
                if a.name not in kwargs or self._is_default(kwargs[a.name], a):
                    continue
                v, kind = kwargs.pop(a.name), 2
            else:
                if i >= n:
                    continue
                v, kind = args[i], 1
            na = {"name": a.name, "arg": self.argument(v, str(a.type))}
            if not self.s.legacy:
                na["kind"] = kind
            out.append(na)
        if kwargs:
            raise ValueError(f"{node.name}: unknown keyword arguments {sorted(kwargs)} for {schema}")
        return out

    def node_outputs(self, node: torch.fx.Node) -> List[Dict[str, Any]]:
        schema = op_schema(node.target)
        returns = schema.returns
        value = self.p.values[node]
        if len(returns) == 1:
            ty = str(returns[0].type)
            if ty == "Tensor":
                self._add_value(self.nm(node), value)
                return [self.arg("as_tensor", {"name": self.nm(node)})]
            if ty == "List[Tensor]":
                getitems = {u.args[1]: u for u in node.users if u.target is operator.getitem}
                names = []
                for i, t in enumerate(value):
                    nm = self.nm(getitems[i]) if i in getitems else f"{self.nm(node)}_unused_{i}"
                    self._add_value(nm, t)
                    names.append({"name": nm})
                return [self.arg("as_tensors", names)]
            raise ValueError(f"{node.name}: return type {ty} not supported")
        getitems = {u.args[1]: u for u in node.users if u.target is operator.getitem}
        outs = []
        for i, r in enumerate(returns):
            ty = str(r.type)
            if ty not in ("Tensor", "Optional[Tensor]"):
                raise ValueError(f"{node.name}: return type {ty} not supported")
            if value[i] is None:
                outs.append(self.none())
                continue
            nm = self.nm(getitems[i]) if i in getitems else f"{self.nm(node)}_unused_{i}"
            self._add_value(nm, value[i])
            outs.append(self.arg("as_tensor", {"name": nm}))
        return outs

    def node(self, node: torch.fx.Node) -> Dict[str, Any]:
        d = {
            "target": target_string(node.target),
            "inputs": self.named_arguments(node),
            "outputs": self.node_outputs(node),
            "metadata": dict(node.meta.get("export_metadata", {})),
        }
        if not self.s.legacy:
            d["is_hop_single_tensor_return"] = None
        return d

    # signature ---------------------------------------------------------------

    def input_spec(self, s: InputSpec) -> Dict[str, Any]:
        name = {"name": self.nm(s.node)}
        tags = _INPUT_SPEC_TAGS_22
        if s.kind == "user_input":
            return self._union(tags, "user_input", {"arg": self.arg("as_tensor", name)})
        if s.kind == "parameter":
            return self._union(tags, "parameter", {"arg": name, "parameter_name": s.target})
        if s.kind == "buffer":
            body = {"arg": name, "buffer_name": s.target}
            if not self.s.legacy:
                body["persistent"] = s.persistent
            return self._union(tags, "buffer", body)
        if s.kind == "tensor_constant":
            return self._union(tags, "tensor_constant", {"arg": name, "tensor_constant_name": s.target})
        raise ValueError(s.kind)

    def output_spec(self, s: OutputSpec) -> Dict[str, Any]:
        tags = _OUTPUT_SPEC_TAGS_22
        if s.kind == "user_output":
            return self._union(tags, "user_output", {"arg": self.arg("as_tensor", {"name": self.nm(s.node)})})
        if s.kind == "buffer_mutation":
            return self._union(tags, "buffer_mutation", {"arg": {"name": self.nm(s.node)},
                                                         "buffer_name": s.target})
        raise ValueError(s.kind)

    @staticmethod
    def _leaf() -> Dict[str, Any]:
        return {"type": None, "context": None, "children_spec": []}

    def specs(self) -> Tuple[str, str]:
        n_user_in = sum(1 for s in self.p.input_specs if s.kind == "user_input")
        n_user_out = sum(1 for s in self.p.output_specs if s.kind == "user_output")
        in_spec = [1, {"type": "builtins.tuple", "context": "null", "children_spec": [
            {"type": "builtins.tuple", "context": "null",
             "children_spec": [self._leaf() for _ in range(n_user_in)]},
            {"type": "builtins.dict", "context": "[]", "children_spec": []}]}]
        if n_user_out == 1:
            out = self._leaf()
        else:
            out = {"type": "builtins.tuple", "context": "null",
                   "children_spec": [self._leaf() for _ in range(n_user_out)]}
        return json.dumps(in_spec), json.dumps([1, out])

    # whole program -----------------------------------------------------------

    def program(self) -> Dict[str, Any]:
        p = self.p
        self.tensor_values = {}
        spec_of = {s.node: s for s in p.input_specs}
        inputs, nodes = [], []
        output_node = None
        for n in p.graph.nodes:
            if n.op == "placeholder":
                s = spec_of[n]
                inputs.append(self.arg("as_tensor", {"name": self.nm(n)}))
                self._add_value(self.nm(n), p.values[n], requires_grad=(s.kind == "parameter"))
            elif n.op == "call_function":
                if n.target is operator.getitem:
                    continue
                nodes.append(self.node(n))
            elif n.op == "output":
                output_node = n
        outs = output_node.args[0]
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        outputs = [self.arg("as_tensor", {"name": self.nm(o)}) for o in outs]
        if [s.node for s in p.output_specs] != outs:
            raise ValueError("output specs do not match the graph outputs")
        graph = {"inputs": inputs, "outputs": outputs, "nodes": nodes,
                 "tensor_values": self.tensor_values, "sym_int_values": {}, "sym_bool_values": {},
                 "is_single_tensor_return": False}
        if not self.s.legacy:
            graph["custom_obj_values"] = {}
            graph["sym_float_values"] = {}
        signature = {"input_specs": [self.input_spec(s) for s in p.input_specs],
                     "output_specs": [self.output_spec(s) for s in p.output_specs]}
        in_spec, out_spec = self.specs()
        root_sig = {"inputs": [], "outputs": [], "in_spec": in_spec, "out_spec": out_spec}
        if self.s.legacy:
            mcg = [{"fqn": "", "signature": root_sig}]
        else:
            root_sig["forward_arg_names"] = list(p.forward_arg_names)
            mcg = [{"fqn": "", "signature": root_sig}] + [{"fqn": f, "signature": None}
                                                          for f in p.submodules]
        gm = {"graph": graph, "signature": signature, "module_call_graph": mcg}
        if not self.s.legacy:
            gm["metadata"] = {}
            gm["treespec_namedtuple_fields"] = {}
        ep = {"graph_module": gm, "opset_version": {"aten": 10}, "range_constraints": {}}
        if self.s.legacy:
            ep["schema_version"] = self.s.schema_version
            ep["dialect"] = "ATEN"
        else:
            major, minor = self.s.schema_version
            ep["schema_version"] = {"major": major, "minor": minor}
            ep["verifiers"] = [p.verifier]
            ep["torch_version"] = self.s.torch_version
        return ep


def dumps(obj: Any) -> str:
    """``json.dumps`` as torch calls it (default separators, ASCII, no NaN)."""
    return json.dumps(obj, allow_nan=False)


def program_json(program: Program, style: str = "8.14") -> str:
    return dumps(JsonWriter(program, STYLES[style]).program())


def tensor_meta_json(t: torch.Tensor, style: str = "8.14", requires_grad: bool = False) -> Dict[str, Any]:
    """TensorMeta of a real tensor (payload configs)."""
    w = JsonWriter.__new__(JsonWriter)
    w.s = STYLES[style]
    return w.tensor_meta(t, requires_grad)
