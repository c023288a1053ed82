#!/usr/bin/env python3
"""Trident's own writer for ExecuTorch ``.pte`` programs.

A small, dependency-free (Python 3 standard library + ``flatc``) library that
builds ExecuTorch programs the way ExecuTorch's exporter lays them out, so the
runtime can be tested on programs nobody had to export from PyTorch.

Quick example::

    from pte_writer import ProgramBuilder

    pb = ProgramBuilder()
    m = pb.method("forward")
    a = m.input(m.tensor("float32", [2, 2]))
    b = m.input(m.tensor("float32", [2, 2]))
    out = m.tensor("float32", [2, 2])
    m.kernel("aten::add.out", [a, b, m.int(1)], out)   # args a, b, alpha, out, out
    m.output(out)
    pb.write("add.pte")

What the output looks like (matched against the real files in the corpus):

* The Program flatbuffer (schema ``cpp/formats/pte/schema/program.fbs``,
  identifier ``ET12``) is produced by ``flatc --binary`` from the JSON form of
  the Program, exactly as ExecuTorch's own serializer does.
* Constants go into segment 0 (``Program.constant_segment``), each tensor
  starting on a 16-byte boundary; ``constant_segment.offsets[0]`` is the
  placeholder for ``data_buffer_idx`` 0 ("no data"), so the first real
  constant has index 1. Delegate blobs stored as segments come after it.
* Segments start at ``segment_base_offset`` = program size rounded up to 128
  bytes; each segment's ``offset`` (relative to that base) is 128-aligned; the
  file ends right after the last segment's data (no trailing padding).
* The extended header (``eh00``) is written at byte 8: the 8 bytes flatc
  writes first (root offset + ``ET12``) stay in place, 32 bytes are inserted
  after them, and the root offset grows by 32. Every other flatbuffer offset is
  relative, so the rest of the buffer stays valid, and since 32 is a multiple
  of the buffer's 16-byte alignment every object keeps its alignment. The
  32-byte form holds magic, length 32, program_size, segment_base_offset and
  segment_data_size; the older 24-byte form stops before segment_data_size and
  is followed by 8 bytes of zero padding (as in the corpus files), so the root
  table still starts at byte 60.
* Without segment data (and with ``header="auto"``) no extended header is
  written, and the Program lists one empty placeholder segment and
  ``constant_segment.offsets = [0]``, as current ExecuTorch does.
* ``constants="inline"`` instead stores constants in the deprecated
  in-flatbuffer ``Program.constant_buffer`` (entry 0 is an empty placeholder),
  with no segments and ``constant_segment.offsets = []``, like files written
  before September 2024.

Values are referred to by their index in the method's value table (plain
ints), exactly as instructions refer to them.

Conventions of ExecuTorch that the builder follows (and that a runtime relies
on):

* ``IntList`` items are value indices of ``Int`` values, not literals
  (``int_list`` creates those ``Int`` values for you; ``int_list_of_values``
  takes existing indices). ``DoubleList``/``BoolList`` hold literals.
  ``TensorList`` holds tensor value indices; ``OptionalTensorList`` the same
  with ``-1`` for None.
* A ``KernelCall`` of an out-variant op has args = the schema arguments in
  order (kwarg-only ones such as ``alpha`` included), then the out tensors,
  then the returned value again: the out tensor itself for a single output,
  or a ``TensorList`` of the outs for several (see ``Method.kernel``).
* ``executorch_prim`` ops take ``[a, b, out]`` (see ``Method.prim``).
* ``JumpFalseCall`` jumps to ``destination_instruction`` when its condition
  (a Bool value) is false, and falls through otherwise. ``MoveCall`` makes
  ``move_to`` refer to the value of ``move_from``.

Memory planning: every non-constant tensor (inputs and outputs included, as
ExecuTorch plans them by default) gets a 16-byte aligned offset in buffer
``memory_id`` 1, greedily in order of first use, reusing space whose lifetime
has ended; ``non_const_buffer_sizes = [0, total]``. Methods containing a
``JumpFalseCall`` get no reuse at all (every tensor lives for the whole
method), which is always correct. Tensors that reach each other through
``MoveCall`` share one lifetime.

Command line: ``python3 pte_writer.py --selftest`` builds a few programs and
parses them back with flatc.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import struct
import subprocess
import tempfile
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

__all__ = [
    "ProgramBuilder",
    "Method",
    "PteWriterError",
    "DTYPES",
    "dtype_info",
    "pack_values",
    "float32",
    "default_schema_path",
    "flatc_json",
    "read_header",
]

# ---------------------------------------------------------------------------
# Constants of the format

FILE_IDENTIFIER = b"ET12"
EXTENDED_HEADER_MAGIC = b"eh00"
#: Bytes inserted after the flatbuffer's first 8 bytes for either header form.
EXTENDED_HEADER_SPACE = 32
#: Default alignment of segments (file offsets and offsets within the segment
#: area); matches the corpus files written by ExecuTorch.
SEGMENT_ALIGNMENT = 128
#: Alignment of each constant tensor inside the constant segment.
CONSTANT_ALIGNMENT = 16
#: Alignment of planned tensors inside a memory-planned buffer.
PLAN_ALIGNMENT = 16
#: Planned tensors live in this buffer (entry 0 of non_const_buffer_sizes is
#: reserved by ExecuTorch).
PLAN_MEMORY_ID = 1


class PteWriterError(Exception):
    """Raised for programs the builder refuses to write, or a flatc failure."""


# ---------------------------------------------------------------------------
# Scalar types

class _DType:
    __slots__ = ("enum", "code", "numpy", "fmt", "itemsize")

    def __init__(self, enum: str, code: int, numpy: str, fmt: Optional[str], itemsize: int):
        self.enum = enum          # name in scalar_type.fbs
        self.code = code          # numeric value stored in the file
        self.numpy = numpy        # numpy-style name used in GOLDENS/index.json
        self.fmt = fmt            # struct format of one element (None: special)
        self.itemsize = itemsize  # bytes per element

    def __repr__(self) -> str:
        return f"<dtype {self.numpy}>"


_DTYPE_LIST = [
    _DType("BYTE", 0, "uint8", "B", 1),
    _DType("CHAR", 1, "int8", "b", 1),
    _DType("SHORT", 2, "int16", "h", 2),
    _DType("INT", 3, "int32", "i", 4),
    _DType("LONG", 4, "int64", "q", 8),
    _DType("HALF", 5, "float16", "e", 2),
    _DType("FLOAT", 6, "float32", "f", 4),
    _DType("DOUBLE", 7, "float64", "d", 8),
    _DType("BOOL", 11, "bool", "?", 1),
    _DType("QINT8", 12, "qint8", "b", 1),
    _DType("QUINT8", 13, "quint8", "B", 1),
    _DType("QINT32", 14, "qint32", "i", 4),
    _DType("BFLOAT16", 15, "bfloat16", None, 2),
    _DType("QUINT4X2", 16, "quint4x2", "B", 1),
    _DType("QUINT2X4", 17, "quint2x4", "B", 1),
    _DType("UINT16", 27, "uint16", "H", 2),
    _DType("UINT32", 28, "uint32", "I", 4),
    _DType("UINT64", 29, "uint64", "Q", 8),
]

#: Every accepted spelling -> dtype. Accepts the schema enum names ("FLOAT"),
#: numpy names ("float32") and a few common aliases ("f32", "float", "long").
DTYPES: Dict[str, _DType] = {}
for _d in _DTYPE_LIST:
    DTYPES[_d.enum] = _d
    DTYPES[_d.enum.lower()] = _d
    DTYPES[_d.numpy] = _d
for _alias, _name in {
    "f16": "HALF", "f32": "FLOAT", "f64": "DOUBLE", "i8": "CHAR", "i16": "SHORT",
    "i32": "INT", "i64": "LONG", "u8": "BYTE", "u16": "UINT16", "u32": "UINT32",
    "u64": "UINT64", "bf16": "BFLOAT16", "half": "HALF", "float": "FLOAT",
    "double": "DOUBLE", "int": "INT", "long": "LONG", "byte": "BYTE",
    "char": "CHAR", "short": "SHORT",
}.items():
    DTYPES[_alias] = DTYPES[_name]


def dtype_info(dtype: Union[str, _DType]) -> _DType:
    """Looks up a dtype by any accepted name (see ``DTYPES``)."""
    if isinstance(dtype, _DType):
        return dtype
    try:
        return DTYPES[dtype]
    except KeyError:
        raise PteWriterError(f"unknown dtype {dtype!r}") from None


def float32(x: float) -> float:
    """Rounds a Python float to the nearest float32 (round-half-even)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def _bf16_bits(x: float) -> int:
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    if math.isnan(x):
        return 0x7FC0
    # round to nearest even on the dropped 16 bits
    bits += 0x7FFF + ((bits >> 16) & 1)
    return (bits >> 16) & 0xFFFF


def pack_values(dtype: Union[str, _DType], values: Iterable[Any]) -> bytes:
    """Packs numbers (or bools) little-endian as elements of ``dtype``."""
    d = dtype_info(dtype)
    vals = list(values)
    if d.enum == "BFLOAT16":
        return b"".join(struct.pack("<H", _bf16_bits(float(v))) for v in vals)
    if d.fmt in ("e", "f", "d"):
        return struct.pack("<%d%s" % (len(vals), d.fmt), *[float(v) for v in vals])
    if d.fmt == "?":
        return struct.pack("<%d?" % len(vals), *[bool(v) for v in vals])
    return struct.pack("<%d%s" % (len(vals), d.fmt), *[int(v) for v in vals])


def _numel(sizes: Sequence[int]) -> int:
    n = 1
    for s in sizes:
        n *= int(s)
    return n


def _align(n: int, a: int) -> int:
    return (n + a - 1) // a * a


def _split_op(op: Union[str, Tuple[str, str]]) -> Tuple[str, str]:
    """``"aten::add.out"`` -> ``("aten::add", "out")``; tuples pass through."""
    if isinstance(op, tuple):
        return op[0], op[1]
    ns, sep, rest = op.rpartition("::")
    name, dot, overload = rest.partition(".")
    return ns + sep + name, overload


# ---------------------------------------------------------------------------
# JSON emission (flatc's JSON dialect: nan/inf are bare words)

def _json(obj: Any) -> str:
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if isinstance(obj, int):
        return str(obj)
    if isinstance(obj, float):
        if math.isnan(obj):
            return "nan"
        if math.isinf(obj):
            return "inf" if obj > 0 else "-inf"
        return repr(obj)
    if isinstance(obj, str):
        return json.dumps(obj, ensure_ascii=False)
    if isinstance(obj, (bytes, bytearray)):
        return "[" + ",".join(str(b) for b in obj) + "]"
    if isinstance(obj, dict):
        return "{" + ",".join(json.dumps(str(k)) + ":" + _json(v) for k, v in obj.items()) + "}"
    if isinstance(obj, (list, tuple)):
        return "[" + ",".join(_json(v) for v in obj) + "]"
    raise TypeError(f"cannot encode {type(obj).__name__} as flatc JSON")


# ---------------------------------------------------------------------------
# flatc

def _repo_root() -> str:
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def default_schema_path() -> str:
    """``$TRIDENT_PTE_SCHEMA`` or the repo's ``cpp/formats/pte/schema/program.fbs``."""
    env = os.environ.get("TRIDENT_PTE_SCHEMA")
    if env:
        return env
    return os.path.join(_repo_root(), "cpp", "formats", "pte", "schema", "program.fbs")


def _flatc_path(flatc: Optional[str] = None) -> str:
    exe = flatc or os.environ.get("FLATC") or shutil.which("flatc")
    if not exe:
        raise PteWriterError("flatc not found (install flatbuffers-compiler or set $FLATC)")
    return exe


def _run_flatc(args: List[str]) -> None:
    proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        msg = (proc.stderr or proc.stdout).decode("utf-8", "replace").strip()
        raise PteWriterError(f"flatc failed ({' '.join(args)}): {msg}")


def flatbuffer_from_json(program_json: str, *, flatc: Optional[str] = None,
                         schema: Optional[str] = None) -> bytes:
    """Runs ``flatc --binary`` on the JSON text of a Program; returns the buffer."""
    schema = schema or default_schema_path()
    with tempfile.TemporaryDirectory(prefix="pte_writer_") as tmp:
        src = os.path.join(tmp, "program.json")
        with open(src, "w", encoding="utf-8") as f:
            f.write(program_json)
        out_dir = os.path.join(tmp, "out")
        _run_flatc([_flatc_path(flatc), "--binary", "-o", out_dir, schema, src])
        produced = sorted(os.listdir(out_dir))
        if len(produced) != 1:
            raise PteWriterError(f"flatc produced {produced!r}, expected one file")
        with open(os.path.join(out_dir, produced[0]), "rb") as f:
            return f.read()


def flatc_json(path_or_bytes: Union[str, bytes], *, flatc: Optional[str] = None,
               schema: Optional[str] = None) -> Dict[str, Any]:
    """Parses a ``.pte`` (path or bytes) back to a dict with ``flatc --json``.

    flatc reads the buffer through the root offset, so files with an extended
    header parse the same as files without. Raises PteWriterError if flatc
    rejects the file.
    """
    schema = schema or default_schema_path()
    with tempfile.TemporaryDirectory(prefix="pte_reader_") as tmp:
        if isinstance(path_or_bytes, (bytes, bytearray)):
            src = os.path.join(tmp, "program.pte")
            with open(src, "wb") as f:
                f.write(path_or_bytes)
        else:
            src = os.path.abspath(path_or_bytes)
        _run_flatc([_flatc_path(flatc), "--json", "--strict-json", "--raw-binary",
                    "--defaults-json", "-o", tmp, schema, "--", src])
        name = os.path.splitext(os.path.basename(src))[0] + ".json"
        with open(os.path.join(tmp, name), "r", encoding="utf-8") as f:
            return json.loads(_standard_json(f.read()))


def _standard_json(text: str) -> str:
    """flatc prints non-finite doubles as bare nan/inf/-inf; make them JSON
    that Python reads (NaN/Infinity), leaving string contents alone."""
    out = []
    i, n = 0, len(text)
    in_str = False
    while i < n:
        ch = text[i]
        if in_str:
            out.append(ch)
            if ch == "\\":
                out.append(text[i + 1])
                i += 1
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
            out.append(ch)
        elif text.startswith(("nan", "inf", "+inf", "-inf", "+nan", "-nan"), i):
            word = text[i:i + 4] if text[i] in "+-" else text[i:i + 3]
            out.append({"nan": "NaN", "+nan": "NaN", "-nan": "NaN", "inf": "Infinity",
                        "+inf": "Infinity", "-inf": "-Infinity"}[word])
            i += len(word) - 1
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def read_header(data: bytes) -> Dict[str, Any]:
    """Decodes the first bytes of a .pte: root offset, identifier, extended header."""
    if len(data) < 8:
        raise PteWriterError("file shorter than 8 bytes")
    info: Dict[str, Any] = {
        "root_offset": struct.unpack_from("<I", data, 0)[0],
        "identifier": data[4:8].decode("latin-1"),
        "extended": None,
    }
    if len(data) >= 24 and data[8:10] == b"eh":
        length = struct.unpack_from("<I", data, 12)[0]
        program_size, segment_base = struct.unpack_from("<QQ", data, 16)
        ext = {"magic": data[8:12].decode("latin-1"), "length": length,
               "program_size": program_size, "segment_base_offset": segment_base}
        if length >= 32 and len(data) >= 40:
            ext["segment_data_size"] = struct.unpack_from("<Q", data, 32)[0]
        info["extended"] = ext
    return info


# ---------------------------------------------------------------------------
# Values

class _Tensor:
    __slots__ = ("dtype", "sizes", "dim_order", "dynamism", "requires_grad", "storage",
                 "data_buffer_idx", "fqn", "allocation", "layout")

    def __init__(self, dtype: _DType, sizes: Sequence[int], dim_order: Optional[Sequence[int]],
                 dynamism: str, requires_grad: bool, storage: str):
        self.dtype = dtype
        self.sizes = [int(s) for s in sizes]
        self.dim_order = list(range(len(self.sizes))) if dim_order is None else [int(d) for d in dim_order]
        self.dynamism = dynamism
        self.requires_grad = requires_grad
        # "planned" | "constant" | "unplanned" | "external"
        self.storage = storage
        self.data_buffer_idx = 0
        self.fqn: Optional[str] = None
        # (memory_id, offset) fixed by the caller or the planner
        self.allocation: Optional[Tuple[int, int]] = None
        self.layout = 0

    @property
    def nbytes(self) -> int:
        return _numel(self.sizes) * self.dtype.itemsize


_DYNAMISM = {"STATIC": "STATIC", "DYNAMIC_BOUND": "DYNAMIC_BOUND",
             "DYNAMIC_UNBOUND": "DYNAMIC_UNBOUND", "static": "STATIC",
             "bound": "DYNAMIC_BOUND", "dynamic_bound": "DYNAMIC_BOUND",
             "unbound": "DYNAMIC_UNBOUND", "dynamic_unbound": "DYNAMIC_UNBOUND"}


class Method:
    """One ExecutionPlan: its value table, operators, instructions and IO.

    Create with ``ProgramBuilder.method(name)``. Every value constructor
    returns the new value's index.
    """

    def __init__(self, program: "ProgramBuilder", name: str):
        self.program = program
        self.name = name
        self.values: List[Tuple[str, Any]] = []
        self.inputs: List[int] = []
        self.outputs: List[int] = []
        self.operators: List[Tuple[str, str]] = []
        self.instructions: List[Tuple[str, Dict[str, Any]]] = []
        self.delegates: List[Dict[str, Any]] = []
        #: Set to a list to override the planner's non_const_buffer_sizes.
        self.non_const_buffer_sizes: Optional[List[int]] = None
        #: Set to (encoded_inp_str, encoded_out_str) to override the pytree
        #: specs written to container_meta_type; None writes ExecuTorch-style
        #: specs (a tuple of the inputs; one leaf or a tuple of the outputs).
        self.container_meta: Optional[Tuple[str, str]] = None
        self._plan_total: Optional[int] = None

    # -- values ---------------------------------------------------------------

    def _add(self, kind: str, payload: Any) -> int:
        self.values.append((kind, payload))
        return len(self.values) - 1

    def tensor(self, dtype: Union[str, _DType], sizes: Sequence[int], *,
               dim_order: Optional[Sequence[int]] = None, dynamism: str = "STATIC",
               requires_grad: bool = False, planned: bool = True,
               allocation: Optional[Tuple[int, int]] = None) -> int:
        """A non-constant tensor. ``sizes`` are the upper bounds for dynamic ones.

        ``planned=True`` (default): the memory planner gives it an offset;
        ``allocation=(memory_id, offset)`` fixes one instead (no planning).
        ``planned=False``: no allocation_info at all (the runtime must supply
        the memory, as for unplanned inputs/outputs).
        ``dynamism``: "STATIC", "DYNAMIC_BOUND" or "DYNAMIC_UNBOUND".
        """
        try:
            dyn = _DYNAMISM[dynamism]
        except KeyError:
            raise PteWriterError(f"unknown shape dynamism {dynamism!r}") from None
        t = _Tensor(dtype_info(dtype), sizes, dim_order, dyn, requires_grad,
                    "planned" if planned or allocation is not None else "unplanned")
        if allocation is not None:
            t.allocation = (int(allocation[0]), int(allocation[1]))
        return self._add("Tensor", t)

    def constant(self, dtype: Union[str, _DType], sizes: Sequence[int],
                 data: Union[bytes, bytearray, Sequence[Any]], *,
                 dim_order: Optional[Sequence[int]] = None, requires_grad: bool = False) -> int:
        """A constant tensor; ``data`` is raw little-endian bytes or a flat list
        of numbers (row-major, packed as ``dtype``). Stored program-wide (in the
        constant segment, or constant_buffer with ``constants="inline"``)."""
        d = dtype_info(dtype)
        raw = bytes(data) if isinstance(data, (bytes, bytearray)) else pack_values(d, data)
        t = _Tensor(d, sizes, dim_order, "STATIC", requires_grad, "constant")
        if len(raw) != t.nbytes:
            raise PteWriterError(
                f"constant {d.numpy}{list(t.sizes)} needs {t.nbytes} bytes, got {len(raw)}")
        t.data_buffer_idx = self.program._add_constant(raw)
        return self._add("Tensor", t)

    def external(self, dtype: Union[str, _DType], sizes: Sequence[int], fqn: str, *,
                 dim_order: Optional[Sequence[int]] = None, requires_grad: bool = False) -> int:
        """A constant tensor whose bytes live in an external ``.ptd`` file under
        key ``fqn`` (extra_tensor_info.location = EXTERNAL)."""
        t = _Tensor(dtype_info(dtype), sizes, dim_order, "STATIC", requires_grad, "external")
        t.fqn = fqn
        return self._add("Tensor", t)

    def int(self, v: int) -> int:
        return self._add("Int", int(v))

    def double(self, v: float) -> int:
        return self._add("Double", float(v))

    def bool(self, v: bool) -> int:
        return self._add("Bool", bool(v))

    def string(self, s: str) -> int:
        return self._add("String", str(s))

    def null(self) -> int:
        return self._add("Null", None)

    def int_list(self, ints: Sequence[int]) -> int:
        """An IntList of literals: adds one Int value per item, then the list
        of their indices (ExecuTorch's layout)."""
        idx = [self.int(v) for v in ints]
        return self.int_list_of_values(idx)

    def int_list_of_values(self, value_indices: Sequence[int]) -> int:
        """An IntList whose items are indices of existing Int values."""
        return self._add("IntList", [int(i) for i in value_indices])

    def double_list(self, doubles: Sequence[float]) -> int:
        return self._add("DoubleList", [float(v) for v in doubles])

    def bool_list(self, bools: Sequence[bool]) -> int:
        return self._add("BoolList", [bool(v) for v in bools])

    def tensor_list(self, tensor_indices: Sequence[int]) -> int:
        return self._add("TensorList", [int(i) for i in tensor_indices])

    def optional_tensor_list(self, tensor_indices: Sequence[Optional[int]]) -> int:
        """Items are tensor value indices or None (written as -1)."""
        return self._add("OptionalTensorList", [-1 if i is None else int(i) for i in tensor_indices])

    # -- IO -------------------------------------------------------------------

    def input(self, v: int) -> int:
        """Appends value ``v`` to the method's inputs; returns ``v``."""
        self.inputs.append(v)
        return v

    def output(self, v: int) -> int:
        """Appends value ``v`` to the method's outputs; returns ``v``."""
        self.outputs.append(v)
        return v

    # -- operators and instructions -----------------------------------------

    def operator(self, op: Union[str, Tuple[str, str]]) -> int:
        """Index of operator ``op`` ("ns::name.overload"), adding it if new."""
        key = _split_op(op)
        if key not in self.operators:
            self.operators.append(key)
        return self.operators.index(key)

    def kernel_call(self, op: Union[str, Tuple[str, str], int], args: Sequence[int]) -> int:
        """A raw KernelCall; ``op`` is a name or an operator index. Returns the
        instruction index."""
        op_index = op if isinstance(op, int) else self.operator(op)
        self.instructions.append(("KernelCall", {"op_index": op_index, "args": [int(a) for a in args]}))
        return len(self.instructions) - 1

    def kernel(self, op: Union[str, Tuple[str, str]], args: Sequence[int],
               out: Union[int, Sequence[int]]) -> int:
        """An out-variant op in ExecuTorch's argument layout.

        ``args``: the schema arguments in order, kwarg-only ones included
        (e.g. ``[self, other, alpha]`` for ``aten::add.out``). ``out``: the out
        tensor, or a list of them for ops with several outs. The call's args
        become ``args + outs + [ret]`` where ``ret`` is the out tensor itself,
        or for several outs a TensorList of them (created here), as the
        ExecuTorch emitter does. Returns the instruction index.
        """
        outs = [out] if isinstance(out, int) else list(out)
        if not outs:
            raise PteWriterError("kernel() needs at least one out value")
        ret = outs[0] if len(outs) == 1 else self.tensor_list(outs)
        return self.kernel_call(op, list(args) + outs + [ret])

    def prim(self, op: Union[str, Tuple[str, str]], args: Sequence[int], out: int) -> int:
        """An ``executorch_prim`` op: args = ``[*args, out]`` (the result EValue
        is written into ``out``)."""
        return self.kernel_call(op, list(args) + [out])

    def delegate(self, backend_id: str, processed: bytes, *,
                 compile_specs: Optional[Sequence[Tuple[str, bytes]]] = None,
                 location: str = "segment") -> int:
        """Declares a backend delegate. ``processed`` is the backend's blob,
        stored as a program segment (``location="segment"``, current exports)
        or in Program.backend_delegate_data (``"inline"``). Returns the
        delegate index for ``delegate_call``."""
        if location not in ("segment", "inline"):
            raise PteWriterError(f"delegate location must be 'segment' or 'inline', not {location!r}")
        blob = self.program._add_delegate_blob(bytes(processed), location)
        self.delegates.append({
            "id": backend_id,
            "location": location,
            "blob": blob,
            "compile_specs": [(k, bytes(v)) for k, v in (compile_specs or [])],
        })
        return len(self.delegates) - 1

    def delegate_call(self, delegate_index: int, args: Sequence[int]) -> int:
        self.instructions.append(("DelegateCall", {"delegate_index": int(delegate_index),
                                                   "args": [int(a) for a in args]}))
        return len(self.instructions) - 1

    def move(self, move_from: int, move_to: int) -> int:
        self.instructions.append(("MoveCall", {"move_from": int(move_from), "move_to": int(move_to)}))
        return len(self.instructions) - 1

    def jump_false(self, cond_value_index: int, destination_instruction: int = -1) -> int:
        """JumpFalseCall: go to ``destination_instruction`` if the Bool value is
        false. The destination can be patched later with ``set_jump``."""
        self.instructions.append(("JumpFalseCall", {"cond_value_index": int(cond_value_index),
                                                    "destination_instruction": int(destination_instruction)}))
        return len(self.instructions) - 1

    def set_jump(self, instruction_index: int, destination_instruction: int) -> None:
        kind, body = self.instructions[instruction_index]
        if kind != "JumpFalseCall":
            raise PteWriterError(f"instruction {instruction_index} is a {kind}, not a JumpFalseCall")
        body["destination_instruction"] = int(destination_instruction)

    def free(self, value_index: int) -> int:
        self.instructions.append(("FreeCall", {"value_index": int(value_index)}))
        return len(self.instructions) - 1

    @property
    def next_instruction(self) -> int:
        """Index the next appended instruction will get (for jump targets)."""
        return len(self.instructions)

    # -- checks ---------------------------------------------------------------

    def _kind(self, i: int) -> Optional[str]:
        return self.values[i][0] if 0 <= i < len(self.values) else None

    def validate(self) -> None:
        """Checks that every index refers to something of the right kind."""
        n = len(self.values)
        where = f"method {self.name!r}"

        def check(i: int, what: str, kinds: Optional[Tuple[str, ...]] = None) -> None:
            if not (0 <= i < n):
                raise PteWriterError(f"{where}: {what} refers to value {i}, but there are {n} values")
            if kinds and self.values[i][0] not in kinds:
                raise PteWriterError(f"{where}: {what} refers to value {i}, a {self.values[i][0]}, "
                                     f"expected {'/'.join(kinds)}")

        for vi, (kind, payload) in enumerate(self.values):
            if kind == "IntList":
                for i in payload:
                    check(i, f"IntList value {vi}", ("Int",))
            elif kind == "TensorList":
                for i in payload:
                    check(i, f"TensorList value {vi}", ("Tensor",))
            elif kind == "OptionalTensorList":
                for i in payload:
                    if i != -1:
                        check(i, f"OptionalTensorList value {vi}", ("Tensor",))
            elif kind == "Tensor":
                t: _Tensor = payload
                if sorted(t.dim_order) != list(range(len(t.sizes))):
                    raise PteWriterError(f"{where}: tensor value {vi} has dim_order {t.dim_order} "
                                         f"for {len(t.sizes)} dims")
                if any(s < 0 for s in t.sizes):
                    raise PteWriterError(f"{where}: tensor value {vi} has a negative size")
        for i in self.inputs:
            check(i, "an input")
        for i in self.outputs:
            check(i, "an output")
        ni = len(self.instructions)
        for k, (kind, body) in enumerate(self.instructions):
            what = f"instruction {k} ({kind})"
            if kind == "KernelCall":
                if not (0 <= body["op_index"] < len(self.operators)):
                    raise PteWriterError(f"{where}: {what} uses operator {body['op_index']}, "
                                         f"but there are {len(self.operators)}")
                for a in body["args"]:
                    check(a, what)
            elif kind == "DelegateCall":
                if not (0 <= body["delegate_index"] < len(self.delegates)):
                    raise PteWriterError(f"{where}: {what} uses delegate {body['delegate_index']}, "
                                         f"but there are {len(self.delegates)}")
                for a in body["args"]:
                    check(a, what)
            elif kind == "MoveCall":
                check(body["move_from"], what)
                check(body["move_to"], what)
            elif kind == "JumpFalseCall":
                check(body["cond_value_index"], what, ("Bool", "Tensor"))
                d = body["destination_instruction"]
                if not (0 <= d <= ni):
                    raise PteWriterError(f"{where}: {what} jumps to {d}; valid are 0..{ni}")
            elif kind == "FreeCall":
                check(body["value_index"], what, ("Tensor",))

    # -- memory planning -------------------------------------------------------

    def _instruction_refs(self, body_kind: str, body: Dict[str, Any]) -> List[int]:
        if body_kind in ("KernelCall", "DelegateCall"):
            refs = list(body["args"])
        elif body_kind == "MoveCall":
            refs = [body["move_from"], body["move_to"]]
        elif body_kind == "JumpFalseCall":
            refs = [body["cond_value_index"]]
        else:
            refs = [body["value_index"]]
        out = []
        for r in refs:
            out.append(r)
            kind = self._kind(r)
            if kind in ("TensorList", "OptionalTensorList"):
                out.extend(i for i in self.values[r][1] if i >= 0)
        return out

    def plan_memory(self) -> int:
        """Assigns offsets to planned tensors without a fixed allocation.

        Returns the size of buffer 1 (0 if nothing is planned). Lifetimes are
        instruction intervals: inputs are live from before the first
        instruction, outputs until after the last; everything else from its
        first to its last reference. First-fit at 16-byte aligned offsets,
        tensors taken in order of lifetime start (ties: larger first).
        """
        n_instr = len(self.instructions)
        planned = [i for i, (k, p) in enumerate(self.values)
                   if k == "Tensor" and p.storage == "planned"]
        to_place = [i for i in planned if self.values[i][1].allocation is None]
        has_jumps = any(k == "JumpFalseCall" for k, _ in self.instructions)

        first: Dict[int, int] = {}
        last: Dict[int, int] = {}
        for k, (kind, body) in enumerate(self.instructions):
            for r in self._instruction_refs(kind, body):
                first.setdefault(r, k)
                last[r] = k
        inputs, outputs = set(self.inputs), set(self.outputs)
        life: Dict[int, Tuple[int, int]] = {}
        for i in planned:
            if has_jumps or (i not in first and i not in inputs):
                life[i] = (-1, n_instr)
                continue
            start = -1 if i in inputs else first[i]
            end = n_instr if i in outputs else last.get(i, -1)
            life[i] = (start, max(start, end))
        # Values connected by MoveCall alias each other: one shared lifetime.
        parent = {i: i for i in planned}

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for kind, body in self.instructions:
            if kind == "MoveCall" and body["move_from"] in parent and body["move_to"] in parent:
                parent[find(body["move_from"])] = find(body["move_to"])
        groups: Dict[int, Tuple[int, int]] = {}
        for i in planned:
            g = find(i)
            s, e = life[i]
            gs, ge = groups.get(g, (s, e))
            groups[g] = (min(gs, s), max(ge, e))
        for i in planned:
            life[i] = groups[find(i)]

        placed: List[Tuple[int, int, int, int]] = []  # (offset, size, start, end)
        for i in planned:
            t = self.values[i][1]
            if t.allocation is not None and t.allocation[0] == PLAN_MEMORY_ID:
                placed.append((t.allocation[1], t.nbytes, life[i][0], life[i][1]))
        for i in sorted(to_place, key=lambda i: (life[i][0], -self.values[i][1].nbytes, i)):
            t = self.values[i][1]
            size = t.nbytes
            s, e = life[i]
            busy = sorted((o, sz) for (o, sz, ps, pe) in placed if ps <= e and s <= pe and sz > 0)
            off = 0
            for o, sz in busy:
                if o + sz <= off:
                    continue
                if off + size <= o:
                    break
                off = _align(o + sz, PLAN_ALIGNMENT)
            t.allocation = (PLAN_MEMORY_ID, off)
            placed.append((off, size, s, e))
        total = 0
        for (o, sz, _, _) in placed:
            total = max(total, o + sz)
        self._plan_total = _align(total, PLAN_ALIGNMENT) if planned else None
        return self._plan_total or 0

    # -- serialization -----------------------------------------------------------

    def _pytree_specs(self) -> Tuple[str, str]:
        if self.container_meta is not None:
            return self.container_meta
        leaf = {"type": None, "context": None, "children_spec": []}

        def tup(children: List[Any]) -> Dict[str, Any]:
            return {"type": "builtins.tuple", "context": "null", "children_spec": children}

        if self.inputs:
            inp = json.dumps([1, tup([tup([leaf] * len(self.inputs)),
                                      {"type": "builtins.dict", "context": "[]", "children_spec": []}])])
        else:
            inp = ""
        out = json.dumps([1, leaf if len(self.outputs) == 1 else tup([leaf] * len(self.outputs))])
        return inp, out

    def _value_json(self, kind: str, payload: Any, const_index: Dict[int, int],
                    blob_index: Dict[int, int]) -> Dict[str, Any]:
        if kind == "Null":
            body: Dict[str, Any] = {}
        elif kind == "Int":
            body = {"int_val": payload}
        elif kind == "Double":
            body = {"double_val": float(payload)}
        elif kind == "Bool":
            body = {"bool_val": payload}
        elif kind == "String":
            body = {"string_val": payload}
        elif kind in ("IntList", "DoubleList", "BoolList", "TensorList", "OptionalTensorList"):
            body = {"items": [float(x) for x in payload] if kind == "DoubleList" else list(payload)}
        elif kind == "Tensor":
            t: _Tensor = payload
            body = {"scalar_type": t.dtype.enum, "sizes": t.sizes, "dim_order": t.dim_order}
            if t.requires_grad:
                body["requires_grad"] = True
            if t.storage == "constant":
                body["data_buffer_idx"] = const_index[t.data_buffer_idx]
            if t.allocation is not None:
                mem_id, off = t.allocation
                body["allocation_info"] = {"memory_id": mem_id,
                                           "memory_offset_low": off & 0xFFFFFFFF,
                                           "memory_offset_high": off >> 32}
            if t.layout:
                body["layout"] = t.layout
            if t.dynamism != "STATIC":
                body["shape_dynamism"] = t.dynamism
            if t.storage == "external":
                body["extra_tensor_info"] = {"fully_qualified_name": t.fqn, "location": "EXTERNAL"}
        else:  # pragma: no cover
            raise PteWriterError(f"unknown value kind {kind}")
        return {"val_type": kind, "val": body}

    def _to_json(self, const_index: Dict[int, int], blob_index: Dict[int, int]) -> Dict[str, Any]:
        inp, out = self._pytree_specs()
        if self.non_const_buffer_sizes is not None:
            ncb = list(self.non_const_buffer_sizes)
        elif self._plan_total is not None:
            ncb = [0, self._plan_total]
        else:
            ncb = [0]
        instrs = []
        for kind, body in self.instructions:
            instrs.append({"instr_args_type": kind, "instr_args": dict(body)})
        delegates = []
        for d in self.delegates:
            delegates.append({
                "id": d["id"],
                "processed": {"location": "SEGMENT" if d["location"] == "segment" else "INLINE",
                              "index": blob_index[d["blob"]]},
                "compile_specs": [{"key": k, "value": v} for k, v in d["compile_specs"]],
            })
        return {
            "name": self.name,
            "container_meta_type": {"encoded_inp_str": inp, "encoded_out_str": out},
            "values": [self._value_json(k, p, const_index, blob_index) for k, p in self.values],
            "inputs": list(self.inputs),
            "outputs": list(self.outputs),
            "chains": [{"inputs": [], "outputs": [], "instructions": instrs}],
            "operators": [{"name": n, "overload": o} for n, o in self.operators],
            "delegates": delegates,
            "non_const_buffer_sizes": ncb,
        }

    # -- description -------------------------------------------------------------

    def describe_value(self, i: int) -> Dict[str, Any]:
        """``{"type": "Tensor", "dtype", "shape", "dynamism"}`` or ``{"type": kind}``."""
        kind, payload = self.values[i]
        if kind == "Tensor":
            return {"type": "Tensor", "dtype": payload.dtype.numpy, "shape": list(payload.sizes),
                    "dynamism": payload.dynamism}
        return {"type": kind}

    def signature(self) -> Dict[str, Any]:
        return {"inputs": [self.describe_value(i) for i in self.inputs],
                "outputs": [self.describe_value(i) for i in self.outputs]}


class ProgramBuilder:
    """Builds a whole Program: methods plus program-wide constants and blobs."""

    def __init__(self) -> None:
        self.methods: List[Method] = []
        # constant data, keyed by builder index (1-based; 0 = "no data")
        self._constants: List[bytes] = []
        self._constant_ids: Dict[bytes, int] = {}
        # delegate blobs: (location, bytes)
        self._blobs: List[Tuple[str, bytes]] = []
        # Program.named_data: key -> bytes (delegate weights by key)
        self._named: Dict[str, bytes] = {}
        #: Program.version (0 in every corpus file).
        self.version = 0

    def method(self, name: str) -> Method:
        """Adds a method (ExecutionPlan). Method names must be unique."""
        if any(m.name == name for m in self.methods):
            raise PteWriterError(f"duplicate method name {name!r}")
        m = Method(self, name)
        self.methods.append(m)
        return m

    def _add_constant(self, raw: bytes) -> int:
        # Identical bytes are stored once (indices are program-wide).
        if raw not in self._constant_ids:
            self._constants.append(raw)
            self._constant_ids[raw] = len(self._constants)
        return self._constant_ids[raw]

    def named_data(self, key: str, raw: bytes) -> None:
        """Adds ``raw`` to Program.named_data under ``key`` (how current
        XNNPACK exports store delegate weights). Each distinct buffer gets a
        segment of its own, after the delegate segments; a key may be added
        again only with the same bytes."""
        raw = bytes(raw)
        if key in self._named and self._named[key] != raw:
            raise PteWriterError(f"named data {key!r} added twice with different bytes")
        self._named[key] = raw

    def _add_delegate_blob(self, raw: bytes, location: str) -> int:
        self._blobs.append((location, raw))
        return len(self._blobs) - 1

    def signature(self) -> Dict[str, Any]:
        """``{method: {"inputs": [...], "outputs": [...]}}`` (see Method.describe_value)."""
        return {m.name: m.signature() for m in self.methods}

    # -- serialization -----------------------------------------------------------

    def build_json(self, *, constants: str = "segment",
                   constant_alignment: int = CONSTANT_ALIGNMENT,
                   segment_alignment: int = SEGMENT_ALIGNMENT,
                   validate: bool = True) -> Tuple[Dict[str, Any], List[bytes]]:
        """Returns (Program as a flatc-JSON dict, segment payloads in order).

        Runs validation (unless ``validate=False``) and memory planning.
        """
        if constants not in ("segment", "inline"):
            raise PteWriterError(f"constants must be 'segment' or 'inline', not {constants!r}")
        if validate:
            for m in self.methods:
                m.validate()
        for m in self.methods:
            m.plan_memory()

        const_index = {0: 0}
        for i in range(1, len(self._constants) + 1):
            const_index[i] = i
        segments: List[bytes] = []
        prog: Dict[str, Any] = {"version": self.version}
        constant_buffer: List[Dict[str, Any]] = []
        if constants == "segment":
            blob = bytearray()
            offsets = [0]
            for raw in self._constants:
                start = _align(len(blob), constant_alignment) if blob else 0
                blob.extend(b"\0" * (start - len(blob)))
                offsets.append(start)
                blob.extend(raw)
            segments.append(bytes(blob))
            constant_segment: Dict[str, Any] = {"segment_index": 0, "offsets": offsets}
        else:
            constant_buffer = [{"storage": b""}] + [{"storage": raw} for raw in self._constants]
            constant_segment = {"segment_index": 0, "offsets": []}

        blob_index: Dict[int, int] = {}
        inline_data: List[Dict[str, Any]] = []
        for bi, (location, raw) in enumerate(self._blobs):
            if location == "segment":
                blob_index[bi] = len(segments)
                segments.append(raw)
            else:
                blob_index[bi] = len(inline_data)
                inline_data.append({"data": raw})

        named_index: Dict[bytes, int] = {}
        named_entries: List[Dict[str, Any]] = []
        for key, raw in self._named.items():
            if raw not in named_index:
                named_index[raw] = len(segments)
                segments.append(raw)
            named_entries.append({"key": key, "segment_index": named_index[raw]})

        seg_table = []
        cursor = 0
        for raw in segments:
            off = _align(cursor, segment_alignment)
            seg_table.append({"offset": off, "size": len(raw)})
            cursor = off + len(raw)

        prog["execution_plan"] = [m._to_json(const_index, blob_index) for m in self.methods]
        prog["constant_buffer"] = constant_buffer
        prog["backend_delegate_data"] = inline_data
        prog["segments"] = seg_table
        prog["constant_segment"] = constant_segment
        if named_entries:
            prog["named_data"] = named_entries
        return prog, segments

    def serialize(self, *, header: str = "auto", constants: str = "segment",
                  constant_alignment: int = CONSTANT_ALIGNMENT,
                  segment_alignment: int = SEGMENT_ALIGNMENT,
                  validate: bool = True,
                  json_hook: Optional[Callable[[Dict[str, Any]], None]] = None,
                  flatc: Optional[str] = None, schema: Optional[str] = None) -> bytes:
        """Returns the bytes of the ``.pte`` file.

        ``header``: "auto" (32-byte ``eh00`` header if there is segment data,
        none otherwise), "eh32", "eh24" (the older form without
        segment_data_size) or "none" (then nothing may be stored in segments:
        use ``constants="inline"`` and inline delegates).
        ``constants``: "segment" (current) or "inline" (deprecated
        constant_buffer).
        ``json_hook``: called with the Program dict just before flatc, to
        build deliberately broken files (the segment table the file ends up
        with is still the builder's).
        """
        if header not in ("auto", "eh32", "eh24", "none"):
            raise PteWriterError(f"header must be auto/eh32/eh24/none, not {header!r}")
        prog, segments = self.build_json(constants=constants, constant_alignment=constant_alignment,
                                         segment_alignment=segment_alignment, validate=validate)
        seg_table = [dict(s) for s in prog["segments"]]
        if json_hook is not None:
            json_hook(prog)
        fb = flatbuffer_from_json(_json(prog), flatc=flatc, schema=schema)
        if fb[4:8] != FILE_IDENTIFIER:
            raise PteWriterError(f"flatc wrote identifier {fb[4:8]!r}, expected {FILE_IDENTIFIER!r}")

        data_size = seg_table[-1]["offset"] + seg_table[-1]["size"] if seg_table else 0
        if header == "auto":
            header = "eh32" if data_size > 0 else "none"
        if header == "none":
            if data_size > 0:
                raise PteWriterError("segment data needs an extended header (header='eh32' or 'eh24'), "
                                     "or use constants='inline' and inline delegates")
            return fb

        # Insert the extended header after the root offset and identifier.
        root = struct.unpack_from("<I", fb, 0)[0]
        program_size = len(fb) + EXTENDED_HEADER_SPACE
        base = _align(program_size, segment_alignment) if data_size > 0 else 0
        if header == "eh32":
            ext = EXTENDED_HEADER_MAGIC + struct.pack("<IQQQ", 32, program_size, base, data_size)
        else:
            ext = EXTENDED_HEADER_MAGIC + struct.pack("<IQQ", 24, program_size, base)
        ext += b"\0" * (EXTENDED_HEADER_SPACE - len(ext))
        out = bytearray(struct.pack("<I", root + EXTENDED_HEADER_SPACE) + fb[4:8] + ext + fb[8:])
        assert len(out) == program_size
        if data_size > 0:
            for entry, raw in zip(seg_table, segments):
                pos = base + entry["offset"]
                out.extend(b"\0" * (pos - len(out)))
                out.extend(raw)
        return bytes(out)

    def write(self, path: str, **options: Any) -> bytes:
        """Serializes (see ``serialize`` for options) and writes ``path``."""
        data = self.serialize(**options)
        d = os.path.dirname(os.path.abspath(path))
        os.makedirs(d, exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        return data


# ---------------------------------------------------------------------------
# Self-test

def _selftest() -> None:
    """Round-trips every value and instruction kind through flatc, in all forms."""
    pb = ProgramBuilder()
    m = pb.method("forward")
    a = m.input(m.tensor("float32", [2, 2]))
    b = m.input(m.tensor("float32", [2, 2], dim_order=[1, 0], dynamism="DYNAMIC_BOUND"))
    w = m.constant("float32", [2, 2], [1, 2, 3, 4])
    w16 = m.constant("bfloat16", [2], [1.0, -2.5])
    ext = m.external("float32", [2], "layer.weight")
    unplanned = m.tensor("int64", [3], planned=False)
    big = m.tensor("uint8", [16], allocation=(1, (1 << 32) + 16))
    t = m.tensor("float32", [2, 2])
    out = m.tensor("float32", [2, 2])
    outs2 = [m.tensor("float32", [2]), m.tensor("int64", [2])]
    dl = m.double_list([0.5, float("inf"), float("-inf")])
    bl = m.bool_list([True, False])
    ol = m.optional_tensor_list([a, None, b])
    s = m.string("h\u00e9llo \"quoted\"")
    n = m.null()
    d = m.delegate("InlineBackend", b"\x01\x02\x03", compile_specs=[("k", b"v")], location="inline")
    d2 = m.delegate("SegBackend", b"blob-bytes")
    m.kernel("aten::add.out", [a, b, m.int(1)], t)
    m.kernel("aten::mul.out", [t, w], out)
    m.kernel("aten::max.dim_max", [a, m.int(0), m.bool(False)], outs2)
    m.kernel_call("test::kinds.out", [dl, bl, ol, s, n, ext, w16, unplanned, big])
    m.delegate_call(d, [a, out])
    m.delegate_call(d2, [a, out])
    j = m.jump_false(m.bool(True))
    m.move(t, out)
    m.set_jump(j, m.next_instruction)
    m.free(t)
    m.output(out)
    m.output(outs2[0])
    c = pb.method("get_s")
    c.output(c.string("constant"))

    for opts in ({}, {"header": "eh24"}):
        data = pb.serialize(**opts)
        hdr = read_header(data)
        p = flatc_json(data)
        plan = p["execution_plan"][0]
        vals = plan["values"]
        kinds = [v["val_type"] for v in vals]
        assert vals[b]["val"]["dim_order"] == [1, 0] and vals[b]["val"]["shape_dynamism"] == "DYNAMIC_BOUND"
        assert vals[w]["val"]["data_buffer_idx"] == 1 and vals[w16]["val"]["data_buffer_idx"] == 2
        assert vals[ext]["val"]["extra_tensor_info"]["fully_qualified_name"] == "layer.weight"
        assert vals[ext]["val"]["extra_tensor_info"]["location"] == "EXTERNAL"
        assert "allocation_info" not in vals[unplanned]["val"]
        assert vals[big]["val"]["allocation_info"]["memory_offset_high"] == 1
        assert vals[big]["val"]["allocation_info"]["memory_offset_low"] == 16
        assert vals[dl]["val"]["items"][0] == 0.5 and vals[dl]["val"]["items"][1] == float("inf")
        assert vals[bl]["val"]["items"] == [True, False]
        assert vals[ol]["val"]["items"] == [a, -1, b]
        assert vals[s]["val"]["string_val"] == "h\u00e9llo \"quoted\""
        assert kinds[n] == "Null"
        instrs = plan["chains"][0]["instructions"]
        assert [i["instr_args_type"] for i in instrs] == [
            "KernelCall", "KernelCall", "KernelCall", "KernelCall", "DelegateCall", "DelegateCall",
            "JumpFalseCall", "MoveCall", "FreeCall"]
        max_args = instrs[2]["instr_args"]["args"]
        assert kinds[max_args[-1]] == "TensorList" and max_args[3:5] == outs2
        assert instrs[6]["instr_args"]["destination_instruction"] == 8
        assert plan["delegates"][0]["processed"] == {"location": "INLINE", "index": 0}
        assert plan["delegates"][0]["compile_specs"] == [{"key": "k", "value": [118]}]
        assert plan["delegates"][1]["processed"] == {"location": "SEGMENT", "index": 1}
        assert p["backend_delegate_data"][0]["data"] == [1, 2, 3]
        assert [o["name"] + "." + o["overload"] for o in plan["operators"]] == [
            "aten::add.out", "aten::mul.out", "aten::max.dim_max", "test::kinds.out"]
        assert plan["non_const_buffer_sizes"][1] >= (1 << 32) + 32
        ext_hdr = hdr["extended"]
        base = ext_hdr["segment_base_offset"]
        segs = p["segments"]
        assert base % SEGMENT_ALIGNMENT == 0 and segs[1]["offset"] % SEGMENT_ALIGNMENT == 0
        assert data[base + segs[1]["offset"]:base + segs[1]["offset"] + segs[1]["size"]] == b"blob-bytes"
        const = data[base + segs[0]["offset"]:]
        offs = p["constant_segment"]["offsets"]
        assert const[offs[1]:offs[1] + 16] == pack_values("float32", [1, 2, 3, 4])
        assert const[offs[2]:offs[2] + 4] == bytes([0x80, 0x3F, 0x20, 0xC0])  # bf16 1.0, -2.5
        assert len(data) == base + segs[-1]["offset"] + segs[-1]["size"]
        assert p["execution_plan"][1]["non_const_buffer_sizes"] == [0]
        print(f"selftest {str(opts):18} OK: {len(data)} bytes, header {ext_hdr}")

    # No header: constants inline, inline delegates only.
    pb2 = ProgramBuilder()
    m2 = pb2.method("forward")
    x = m2.input(m2.tensor("float32", [2]))
    y = m2.tensor("float32", [2])
    m2.kernel("aten::mul.out", [x, m2.constant("float32", [2], [2, 2])], y)
    m2.output(y)
    data = pb2.serialize(header="none", constants="inline")
    p = flatc_json(data)
    assert read_header(data)["extended"] is None
    assert p["constant_buffer"][0]["storage"] == [] and len(p["constant_buffer"][1]["storage"]) == 8
    assert p["segments"] == [] and p["constant_segment"]["offsets"] == []
    try:
        pb.serialize(header="none")
        raise AssertionError("segment data without a header was accepted")
    except PteWriterError:
        pass
    print(f"selftest {'inline, no header':18} OK: {len(data)} bytes")


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["--selftest"]:
        _selftest()
    else:
        print(__doc__)
