#!/usr/bin/env python3
"""Trident's writer for ExecuTorch bundled programs (``.bpte``).

A bundled program wraps a complete ``.pte`` file together with test cases for
its methods: the inputs of a run and the outputs that run must give (what
ExecuTorch's ``BundledProgram`` / ``serialize_from_bundled_program_to_flatbuffer``
writes). Schema: ``cpp/formats/pte/schema/bundled_program.fbs`` (identifier
``BP08``), the one the runtime reads (``cpp/formats/pte/bundled/``).

Python 3 standard library plus ``flatc``, like ``pte_writer.py`` (whose JSON
emitter and flatc helpers it uses)::

    import sys; sys.path.insert(0, "tools/pte")
    from bundled_writer import BundledProgramBuilder, tensor

    bb = BundledProgramBuilder(open("model.pte", "rb").read())
    bb.case("forward", inputs=[tensor("float32", [2, 2], [1, 2, 3, 4])],
            expected=[tensor("float32", [2, 2], [2, 4, 6, 8])])
    bb.write("model.bpte")

Layout, as ExecuTorch writes it: the JSON form of the BundledProgram goes
through ``flatc --binary`` with the schema, so flatc lays the buffer out (the
inner program 32-byte aligned, tensor data 16-byte aligned, per the schema's
``force_align``); ``version`` is 2 as in the corpus file; every tensor carries
its ``dim_order`` (``0..rank-1`` for contiguous data); one
``BundledMethodTestSuite`` per method, in the order cases were first added for
it.

``python3 bundled_writer.py --check-corpus [FILE.bpte]`` rebuilds the corpus
file (default ``../shared/corpus/pte/pytorch__executorch/
extension__module__test__resources__bundled_program.bpte``) through this
builder from what ``flatc --json`` reads out of it, and checks that the bytes
are identical. ``--selftest`` round-trips every value kind.
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from pte_writer import (PteWriterError, _json, dtype_info, flatbuffer_from_json,  # noqa: E402
                        flatc_json, pack_values)

FILE_IDENTIFIER = b"BP08"
#: BundledProgram.version in the files ExecuTorch writes (the corpus file's).
BUNDLED_PROGRAM_VERSION = 2
CORPUS_FILE = os.path.join("pytorch__executorch", "extension__module__test__resources__bundled_program.bpte")


def default_schema_path() -> str:
    """The runtime's ``cpp/formats/pte/schema/bundled_program.fbs``."""
    return os.path.join(os.path.dirname(os.path.dirname(HERE)), "cpp", "formats", "pte", "schema",
                        "bundled_program.fbs")


# ---------------------------------------------------------------------------
# Values (the schema's Value table: a union of Tensor, Int, Bool, Double)

def tensor(dtype: str, sizes: Sequence[int], data: Union[bytes, bytearray, Iterable[Any]],
           dim_order: Optional[Sequence[int]] = None) -> Dict[str, Any]:
    """A Tensor value; ``data`` is the contiguous little-endian bytes or the
    numbers to pack as ``dtype``. ``dim_order`` defaults to ``0..rank-1``."""
    d = dtype_info(dtype)
    raw = bytes(data) if isinstance(data, (bytes, bytearray)) else pack_values(d, data)
    n = 1
    for s in sizes:
        n *= int(s)
    if len(raw) != n * d.itemsize:
        raise PteWriterError(f"tensor {d.numpy}{list(sizes)} needs {n * d.itemsize} bytes, got {len(raw)}")
    order = list(range(len(sizes))) if dim_order is None else [int(i) for i in dim_order]
    if sorted(order) != list(range(len(sizes))):
        raise PteWriterError(f"dim_order {order} is not a permutation of 0..{len(sizes) - 1}")
    return {"val_type": "Tensor",
            "val": {"scalar_type": d.enum, "sizes": [int(s) for s in sizes], "data": raw, "dim_order": order}}


def int_value(v: int) -> Dict[str, Any]:
    return {"val_type": "Int", "val": {"int_val": int(v)}}


def bool_value(v: bool) -> Dict[str, Any]:
    return {"val_type": "Bool", "val": {"bool_val": bool(v)}}


def double_value(v: float) -> Dict[str, Any]:
    return {"val_type": "Double", "val": {"double_val": float(v)}}


def from_numpy(array: Any) -> Dict[str, Any]:
    """A Tensor value from a numpy array (or anything with ``.numpy()``, e.g. a torch tensor)."""
    import numpy as np
    if hasattr(array, "detach"):
        array = array.detach().cpu().numpy()
    a = np.ascontiguousarray(array)
    return tensor(str(a.dtype), list(a.shape), a.astype(a.dtype.newbyteorder("<")).tobytes())


# ---------------------------------------------------------------------------

class BundledProgramBuilder:
    """A ``.pte`` plus test cases, per method."""

    def __init__(self, program: bytes, *, version: int = BUNDLED_PROGRAM_VERSION):
        if len(program) < 8 or program[4:8] != b"ET12":
            raise PteWriterError(f"the program is not a .pte (identifier {bytes(program[4:8])!r})")
        self.program = bytes(program)
        self.version = version
        self.suites: Dict[str, List[Dict[str, Any]]] = {}

    def case(self, method: str, inputs: Sequence[Dict[str, Any]], expected: Sequence[Dict[str, Any]]) -> None:
        """Adds a test case: running ``method`` on ``inputs`` must give ``expected``."""
        self.suites.setdefault(method, []).append({"inputs": list(inputs), "expected_outputs": list(expected)})

    def build_json(self) -> Dict[str, Any]:
        return {
            "version": self.version,
            "method_test_suites": [{"method_name": name, "test_cases": cases}
                                   for name, cases in self.suites.items()],
            "program": self.program,
        }

    def serialize(self, *, flatc: Optional[str] = None, schema: Optional[str] = None) -> bytes:
        data = flatbuffer_from_json(_json(self.build_json()), flatc=flatc, schema=schema or default_schema_path())
        if data[4:8] != FILE_IDENTIFIER:
            raise PteWriterError(f"flatc wrote identifier {data[4:8]!r}, expected {FILE_IDENTIFIER!r}")
        return data

    def write(self, path: str, **options: Any) -> bytes:
        data = self.serialize(**options)
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        return data


def read(path_or_bytes: Union[str, bytes], *, flatc: Optional[str] = None) -> Dict[str, Any]:
    """``flatc --json`` of a ``.bpte`` with the runtime's schema (``program`` and
    tensor ``data`` as lists of byte values)."""
    return flatc_json(path_or_bytes, flatc=flatc, schema=default_schema_path())


def program_offset(data: bytes) -> int:
    """Where the inner program starts in a ``.bpte`` (for alignment checks)."""
    root = struct.unpack_from("<I", data, 0)[0]
    vt = root - struct.unpack_from("<i", data, root)[0]
    vt_size = struct.unpack_from("<H", data, vt)[0]
    field = 2  # version, method_test_suites, program
    if 4 + 2 * field >= vt_size:
        raise PteWriterError("no program field")
    off = struct.unpack_from("<H", data, vt + 4 + 2 * field)[0]
    vec = root + off + struct.unpack_from("<I", data, root + off)[0]
    return vec + 4


def _value_from_json(v: Dict[str, Any]) -> Dict[str, Any]:
    kind, body = v["val_type"], v.get("val") or {}
    if kind == "Tensor":
        return tensor(body["scalar_type"], body.get("sizes", []), bytes(body.get("data", [])),
                      body.get("dim_order"))
    if kind == "Int":
        return int_value(body.get("int_val", 0))
    if kind == "Bool":
        return bool_value(body.get("bool_val", False))
    if kind == "Double":
        return double_value(body.get("double_val", 0.0))
    raise PteWriterError(f"value kind {kind}")


def rebuild(parsed: Dict[str, Any]) -> BundledProgramBuilder:
    """A builder holding what ``read`` returned."""
    bb = BundledProgramBuilder(bytes(parsed["program"]), version=parsed.get("version", 0))
    for suite in parsed.get("method_test_suites", []):
        for c in suite.get("test_cases", []):
            bb.case(suite["method_name"], [_value_from_json(v) for v in c.get("inputs", [])],
                    [_value_from_json(v) for v in c.get("expected_outputs", [])])
    return bb


def check_corpus(path: str) -> None:
    with open(path, "rb") as f:
        real = f.read()
    parsed = read(path)
    ours = rebuild(parsed).serialize()
    if ours != real:
        diff = next((i for i, (a, b) in enumerate(zip(ours, real)) if a != b), min(len(ours), len(real)))
        raise SystemExit(f"{path}: rebuilt file differs ({len(ours)} vs {len(real)} bytes, first at {diff})")
    print(f"{os.path.basename(path)}: rebuilt byte for byte ({len(real)} bytes, version {parsed['version']}, "
          f"{sum(len(s['test_cases']) for s in parsed['method_test_suites'])} cases, program at "
          f"{program_offset(real)})")


def _selftest() -> None:
    sys.path.insert(0, HERE)
    from pte_writer import ProgramBuilder
    pb = ProgramBuilder()
    m = pb.method("forward")
    a = m.input(m.tensor("float32", [2, 2]))
    out = m.tensor("float32", [2, 2])
    m.kernel("aten::add.out", [a, m.constant("float32", [2, 2], [1, 1, 1, 1]), m.int(1)], out)
    m.output(out)
    bb = BundledProgramBuilder(pb.serialize())
    values = [tensor("float32", [2, 2], [1, 2, 3, 4]), tensor("int64", [3], [1, -2, 3]),
              tensor("bool", [], [True]), int_value(-7), bool_value(True), double_value(0.25)]
    bb.case("forward", values[:1], [tensor("float32", [2, 2], [2, 3, 4, 5])])
    bb.case("forward", values, values[::-1])
    data = bb.serialize()
    parsed = read(data)
    again = rebuild(parsed).serialize()
    assert again == data, "round trip changed the bytes"
    assert bytes(parsed["program"]) == bb.program
    assert program_offset(data) % 32 == 0
    print(f"selftest ok ({len(data)} bytes)")


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--check-corpus", nargs="?", const="", metavar="FILE.bpte")
    args = ap.parse_args(argv)
    if args.selftest:
        _selftest()
    if args.check_corpus is not None:
        path = args.check_corpus or os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))),
                                                 "shared", "corpus", "pte", CORPUS_FILE)
        check_corpus(path)
    if not args.selftest and args.check_corpus is None:
        ap.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
