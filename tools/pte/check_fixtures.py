#!/usr/bin/env python3
"""Checks the fixtures written by make_fixtures.py, independently of the runtime.

Usage::

    python3 tools/pte/check_fixtures.py [DIR] [--determinism]

Without DIR, the fixtures are generated into a temporary directory first.
``--determinism`` generates them twice more and requires identical bytes.

For every fixture it
  1. checks the header bytes: ``ET12`` at 4..8; with an ``eh00`` header the
     root offset is 60, program_size <= file size, segment_base_offset is
     program_size rounded up to 128, and the file ends exactly at
     segment_base_offset + segment_data_size (32-byte form);
  2. parses the file back with ``flatc --json --raw-binary`` and checks the
     structure: every value/operator/delegate index in range and of the right
     kind, IntList items are Int values, planned tensors 16-byte aligned and
     inside non_const_buffer_sizes[1], constants inside their segment (or
     constant_buffer) with the right byte count, segment offsets 128-aligned;
  3. runs every case of index.json through a small reference interpreter that
     works on the parsed program: planned tensors live in one bytearray laid
     out by the file's memory plan and constants are read from the file at
     the offsets the header and segment table give, so a wrong plan or a
     wrong offset shows up as a wrong result;
  4. checks that each hostile file is broken in the way its entry says.
Exits non-zero on the first kind of failure, listing all failures.
"""

from __future__ import annotations

import argparse
import math
import os
import struct
import sys
import tempfile
from typing import Any, Dict, List, Optional, Sequence, Tuple

sys.dont_write_bytecode = True  # keep tools/pte free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import make_fixtures  # noqa: E402
from pte_writer import DTYPES, PteWriterError, flatc_json, read_header  # noqa: E402

import json  # noqa: E402

FAILURES: List[str] = []


def fail(msg: str) -> None:
    FAILURES.append(msg)


def _f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


# ---------------------------------------------------------------------------
# Runtime model

class RTensor:
    def __init__(self, dtype: str, shape: List[int], buf: Any, offset: int, bound: List[int], dynamism: str):
        self.dtype = DTYPES[dtype]
        self.shape = list(shape)
        self.buf = buf
        self.offset = offset
        self.bound = list(bound)
        self.dynamism = dynamism

    @property
    def numel(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    def read(self) -> List[Any]:
        n = self.numel
        return list(struct.unpack_from("<%d%s" % (n, self.dtype.fmt), self.buf, self.offset))

    def write(self, vals: Sequence[Any]) -> None:
        if self.dtype.fmt in ("f", "e"):
            vals = [_f32(v) for v in vals]
        elif self.dtype.fmt == "?":
            vals = [bool(v) for v in vals]
        elif self.dtype.fmt != "d":
            vals = [int(v) for v in vals]
        struct.pack_into("<%d%s" % (len(vals), self.dtype.fmt), self.buf, self.offset, *vals)

    def resize(self, shape: List[int]) -> None:
        if shape == self.shape:
            return
        if self.dynamism == "STATIC" or len(shape) != len(self.bound) or any(
                s > b for s, b in zip(shape, self.bound)):
            raise RuntimeError(f"cannot resize {self.bound} ({self.dynamism}) to {shape}")
        self.shape = list(shape)


class Interp:
    def __init__(self, data: bytes, prog: Dict[str, Any], plan: Dict[str, Any]):
        self.data = data
        self.prog = prog
        self.plan = plan
        hdr = read_header(data)
        self.seg_base = hdr["extended"]["segment_base_offset"] if hdr["extended"] else 0

    def constant_bytes(self, idx: int, nbytes: int) -> bytes:
        cb = self.prog.get("constant_buffer") or []
        cs = self.prog.get("constant_segment") or {}
        if cs.get("offsets"):
            seg = self.prog["segments"][cs.get("segment_index", 0)]
            start = self.seg_base + seg.get("offset", 0) + cs["offsets"][idx]
            return self.data[start:start + nbytes]
        return bytes(cb[idx]["storage"])

    def run(self, inputs: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        plan = self.plan
        sizes = plan.get("non_const_buffer_sizes") or [0]
        arenas = [bytearray(s) for s in sizes]
        values: List[Any] = []
        for v in plan["values"]:
            kind, body = v["val_type"], v.get("val") or {}
            if kind == "Tensor":
                shape = list(body.get("sizes") or [])
                dt = body["scalar_type"]
                numel = 1
                for s in shape:
                    numel *= s
                nbytes = numel * DTYPES[dt].itemsize
                if body.get("data_buffer_idx", 0):
                    buf = bytearray(self.constant_bytes(body["data_buffer_idx"], nbytes))
                    values.append(RTensor(dt, shape, buf, 0, shape, "STATIC"))
                elif body.get("allocation_info"):
                    ai = body["allocation_info"]
                    off = ai.get("memory_offset_low", 0) | (ai.get("memory_offset_high", 0) << 32)
                    values.append(RTensor(dt, shape, arenas[ai["memory_id"]], off, shape,
                                          body.get("shape_dynamism", "STATIC")))
                else:
                    raise RuntimeError("tensor with neither data nor allocation")
            elif kind == "Int":
                values.append(body.get("int_val", 0))
            elif kind == "Double":
                values.append(body.get("double_val", 0.0))
            elif kind == "Bool":
                values.append(body.get("bool_val", False))
            elif kind in ("IntList", "TensorList", "DoubleList", "BoolList", "OptionalTensorList"):
                values.append((kind, list(body.get("items") or [])))
            else:
                values.append(None)
        for slot, given in zip(plan["inputs"], inputs):
            cur = values[slot]
            if isinstance(cur, RTensor):
                cur.resize(given["shape"])
                cur.write(given["values"])
            else:
                values[slot] = given["value"]
        if len(inputs) != len(plan["inputs"]):
            raise RuntimeError("wrong input count")

        ops = [o["name"] + "." + o["overload"] for o in plan.get("operators") or []]
        instrs = plan["chains"][0].get("instructions") or []
        pc = 0
        steps = 0
        while pc < len(instrs):
            steps += 1
            if steps > 10000:
                raise RuntimeError("too many steps")
            ins = instrs[pc]
            kind, body = ins["instr_args_type"], ins["instr_args"]
            pc += 1
            if kind == "KernelCall":
                self.kernel(ops[body.get("op_index", 0)], body["args"], values)
            elif kind == "MoveCall":
                values[body["move_to"]] = values[body["move_from"]]
            elif kind == "JumpFalseCall":
                if not values[body["cond_value_index"]]:
                    pc = body["destination_instruction"]
            else:
                raise RuntimeError(f"unsupported instruction {kind}")
        outs = []
        for i in plan["outputs"]:
            v = values[i]
            if isinstance(v, RTensor):
                outs.append({"dtype": v.dtype.numpy, "shape": v.shape, "values": v.read()})
            elif isinstance(v, bool):
                outs.append({"type": "Bool", "value": v})
            elif isinstance(v, int):
                outs.append({"type": "Int", "value": v})
            else:
                outs.append({"type": "Double", "value": v})
        return outs

    @staticmethod
    def _int_list(values: List[Any], i: int) -> List[int]:
        kind, items = values[i]
        assert kind == "IntList"
        out = []
        for j in items:
            if not isinstance(values[j], int) or isinstance(values[j], bool):
                raise RuntimeError(f"IntList item {j} is not an Int")
            out.append(values[j])
        return out

    @staticmethod
    def _broadcast(a: RTensor, b: RTensor) -> Tuple[List[int], List[Any], List[Any]]:
        sa, sb = a.shape, b.shape
        n = max(len(sa), len(sb))
        sa = [1] * (n - len(sa)) + sa
        sb = [1] * (n - len(sb)) + sb
        shape = []
        for x, y in zip(sa, sb):
            if x != y and x != 1 and y != 1:
                raise RuntimeError(f"cannot broadcast {a.shape} and {b.shape}")
            shape.append(max(x, y))
        va, vb = a.read(), b.read()

        def expand(vals: List[Any], s: List[int]) -> List[Any]:
            out = []
            total = 1
            for d in shape:
                total *= d
            for flat in range(total):
                idx, rem = 0, flat
                stride_src = 1
                coords = []
                for d in reversed(shape):
                    coords.append(rem % d)
                    rem //= d
                coords.reverse()
                mul = 1
                for k in reversed(range(n)):
                    c = coords[k] if s[k] != 1 else 0
                    idx += c * mul
                    mul *= s[k]
                out.append(vals[idx])
                del stride_src
            return out

        return shape, expand(va, sa), expand(vb, sb)

    def kernel(self, op: str, args: List[int], values: List[Any]) -> None:
        if op in ("aten::add.out", "aten::mul.out"):
            n_in = 3 if op == "aten::add.out" else 2
            if len(args) != n_in + 2 or args[-1] != args[-2]:
                raise RuntimeError(f"{op}: bad arg layout {args}")
            a, b, out = values[args[0]], values[args[1]], values[args[n_in]]
            shape, va, vb = self._broadcast(a, b)
            if op == "aten::add.out":
                alpha = values[args[2]]
                res = [x + alpha * y for x, y in zip(va, vb)]
            else:
                res = [x * y for x, y in zip(va, vb)]
            out.resize(shape)
            out.write(res)
        elif op == "aten::eq.Scalar_out":
            a, other, out = values[args[0]], values[args[1]], values[args[2]]
            out.resize(a.shape)
            out.write([x == other for x in a.read()])
        elif op == "aten::view_copy.out":
            a, size, out = values[args[0]], self._int_list(values, args[1]), values[args[2]]
            out.resize(size)
            out.write(a.read())
        elif op == "aten::permute_copy.out":
            a, dims, out = values[args[0]], self._int_list(values, args[1]), values[args[2]]
            assert len(a.shape) == 2 and dims == [1, 0]
            r, c = a.shape
            v = a.read()
            out.resize([c, r])
            out.write([v[i * c + j] for j in range(c) for i in range(r)])
        elif op == "aten::addmm.out":
            bias, m1, m2 = values[args[0]], values[args[1]], values[args[2]]
            beta, alpha, out = values[args[3]], values[args[4]], values[args[5]]
            n, k = m1.shape
            k2, p = m2.shape
            assert k == k2
            a, b, c = m1.read(), m2.read(), bias.read()
            res = []
            for i in range(n):
                for j in range(p):
                    acc = sum(a[i * k + t] * b[t * p + j] for t in range(k))
                    res.append(beta * c[j % len(c)] + alpha * acc)
            out.resize([n, p])
            out.write(res)
        elif op == "aten::expand_copy.out":
            a, size, out = values[args[0]], self._int_list(values, args[1]), values[args[3]]
            va = a.read()
            assert len(va) == 1, "the reference expands single elements only"
            numel = 1
            for d in size:
                numel *= d
            out.resize(size)
            out.write(va * numel)
        elif op == "aten::convolution.out":
            x, w, out = values[args[0]], values[args[1]], values[args[9]]
            stride = self._int_list(values, args[3])
            assert values[args[2]] is None and values[args[6]] is False and values[args[8]] == 1
            assert w.shape == [1, 1, 1, 1] and self._int_list(values, args[4]) == [0, 0]
            n, c, h, wd = x.shape
            assert n == 1 and c == 1
            gh, gw = (h - 1) // stride[0] + 1, (wd - 1) // stride[1] + 1
            vx, k = x.read(), w.read()[0]
            out.resize([1, 1, gh, gw])
            out.write([vx[i * stride[0] * wd + j * stride[1]] * k for i in range(gh) for j in range(gw)])
        elif op == "aten::tanh.out":
            a, out = values[args[0]], values[args[1]]
            out.resize(a.shape)
            out.write([math.tanh(x) for x in a.read()])
        elif op in ("executorch_prim::add.Scalar", "executorch_prim::mul.Scalar"):
            if len(args) != 3:
                raise RuntimeError(f"{op}: expected [a, b, out], got {args}")
            a, b = values[args[0]], values[args[1]]
            values[args[2]] = a + b if op.endswith("add.Scalar") else a * b
        else:
            raise RuntimeError(f"operator {op} not in the reference interpreter")


# ---------------------------------------------------------------------------
# Checks

def check_header(name: str, data: bytes) -> Optional[Dict[str, Any]]:
    hdr = read_header(data)
    if hdr["identifier"] != "ET12":
        fail(f"{name}: identifier {hdr['identifier']!r}")
        return None
    ext = hdr["extended"]
    if ext is None:
        if hdr["root_offset"] >= len(data):
            fail(f"{name}: root offset {hdr['root_offset']} outside the file")
        return hdr
    if hdr["root_offset"] != 60:
        fail(f"{name}: root offset {hdr['root_offset']} with an extended header (real files: 60)")
    if ext["length"] not in (24, 32) or ext["magic"] != "eh00":
        fail(f"{name}: extended header {ext}")
    if ext["length"] == 24 and data[32:40] != b"\0" * 8:
        fail(f"{name}: 24-byte header not followed by 8 zero bytes")
    ps, base = ext["program_size"], ext["segment_base_offset"]
    if ps > len(data):
        fail(f"{name}: program_size {ps} > file size {len(data)}")
    if base and base != (ps + 127) // 128 * 128:
        fail(f"{name}: segment_base_offset {base} is not program_size {ps} rounded up to 128")
    if "segment_data_size" in ext and base + ext["segment_data_size"] != len(data):
        fail(f"{name}: segments end at {base + ext['segment_data_size']}, file is {len(data)} bytes")
    if data[ps:base].strip(b"\0"):
        fail(f"{name}: non-zero padding between program and segments")
    return hdr


def check_structure(name: str, data: bytes, prog: Dict[str, Any], hdr: Dict[str, Any]) -> None:
    segs = prog.get("segments") or []
    ext = hdr["extended"]
    for i, s in enumerate(segs):
        if s.get("offset", 0) % 128:
            fail(f"{name}: segment {i} offset {s.get('offset')} not 128-aligned")
        if s.get("size", 0) and ext is None:
            fail(f"{name}: segment {i} has data but the file has no extended header")
        if ext is not None and ext["segment_base_offset"] + s.get("offset", 0) + s.get("size", 0) > len(data):
            fail(f"{name}: segment {i} past the end of the file")
    cs = prog.get("constant_segment") or {}
    offsets = cs.get("offsets") or []
    cb = prog.get("constant_buffer") or []
    if offsets and offsets[0] != 0:
        fail(f"{name}: constant_segment.offsets[0] = {offsets[0]}, expected the 0 placeholder")
    for o in offsets:
        if o % 16:
            fail(f"{name}: constant offset {o} not 16-aligned")
    for plan in prog["execution_plan"]:
        where = f"{name}:{plan['name']}"
        vals = plan.get("values") or []
        n = len(vals)
        kinds = [v["val_type"] for v in vals]
        ncb = plan.get("non_const_buffer_sizes") or []
        if not ncb or ncb[0] != 0:
            fail(f"{where}: non_const_buffer_sizes {ncb}")
        planned = []
        for i, v in enumerate(vals):
            body = v.get("val") or {}
            if v["val_type"] == "IntList":
                if any(not (0 <= j < n) or kinds[j] != "Int" for j in body.get("items") or []):
                    fail(f"{where}: IntList {i} items {body.get('items')} are not all Int values")
            if v["val_type"] == "TensorList":
                if any(not (0 <= j < n) or kinds[j] != "Tensor" for j in body.get("items") or []):
                    fail(f"{where}: TensorList {i} items are not all tensors")
            if v["val_type"] != "Tensor":
                continue
            numel = 1
            for s in body.get("sizes") or []:
                numel *= s
            nbytes = numel * DTYPES[body["scalar_type"]].itemsize
            if sorted(body.get("dim_order") or []) != list(range(len(body.get("sizes") or []))):
                fail(f"{where}: tensor {i} dim_order {body.get('dim_order')}")
            idx = body.get("data_buffer_idx", 0)
            if idx:
                if offsets:
                    seg = segs[cs.get("segment_index", 0)]
                    end = offsets[idx] + nbytes
                    if idx >= len(offsets) or end > seg.get("size", 0):
                        fail(f"{where}: constant {i} (buffer {idx}) outside the constant segment")
                elif idx >= len(cb) or len(cb[idx].get("storage") or []) != nbytes:
                    fail(f"{where}: constant {i} (buffer {idx}) has no matching constant_buffer entry")
            ai = body.get("allocation_info")
            if ai:
                off = ai.get("memory_offset_low", 0) | (ai.get("memory_offset_high", 0) << 32)
                mid = ai.get("memory_id", 0)
                if off % 16:
                    fail(f"{where}: tensor {i} offset {off} not 16-aligned")
                if mid >= len(ncb) or off + nbytes > ncb[mid]:
                    fail(f"{where}: tensor {i} [{off}, {off + nbytes}) outside buffer {mid} of {ncb}")
                planned.append((i, off, nbytes))
        ops = plan.get("operators") or []
        instrs = plan["chains"][0].get("instructions") or [] if plan.get("chains") else []
        for k, ins in enumerate(instrs):
            body = ins["instr_args"]
            refs = list(body.get("args") or [])
            if ins["instr_args_type"] == "KernelCall" and not (0 <= body.get("op_index", 0) < len(ops)):
                fail(f"{where}: instruction {k} op_index out of range")
            for key in ("move_from", "move_to", "cond_value_index", "value_index"):
                if key in body:
                    refs.append(body[key])
            if any(not (0 <= r < n) for r in refs):
                fail(f"{where}: instruction {k} refers to a value outside 0..{n - 1}")
            if "destination_instruction" in body and not (0 <= body["destination_instruction"] <= len(instrs)):
                fail(f"{where}: instruction {k} jumps outside the method")
        for r in list(plan.get("inputs") or []) + list(plan.get("outputs") or []):
            if not (0 <= r < n):
                fail(f"{where}: input/output {r} outside the value table")


def values_match(got: Dict[str, Any], want: Dict[str, Any], tol: Any) -> bool:
    if "type" in want:
        if got.get("type") != want["type"]:
            return False
        if want["type"] == "Double" and tol != "exact":
            return abs(got["value"] - want["value"]) <= tol.get("atol", 0) + tol.get("rtol", 0) * abs(want["value"])
        return got["value"] == want["value"]
    if got.get("dtype") != want["dtype"] or got.get("shape") != want["shape"]:
        return False
    if len(got["values"]) != len(want["values"]):
        return False
    for g, w in zip(got["values"], want["values"]):
        if tol == "exact" or not isinstance(w, float):
            if g != w:
                return False
        elif abs(g - w) > tol.get("atol", 0) + tol.get("rtol", 0) * abs(w):
            return False
    return True


def delegated(plan: Dict[str, Any]) -> bool:
    return any(i["instr_args_type"] == "DelegateCall" for c in plan.get("chains", []) for i in c.get("instructions", []))


def check_cases(name: str, data: bytes, prog: Dict[str, Any], entry: Dict[str, Any]) -> int:
    plans = {p["name"]: p for p in prog["execution_plan"]}
    ran = 0
    for ci, case in enumerate(entry["cases"]):
        method = case.get("method", entry.get("method"))
        where = f"{name} case {ci} ({method})"
        if delegated(plans[method]):
            # The reference interpreter has no backends: delegated methods
            # are checked by the runtime's tests (their expected values come
            # from make_fixtures' own reference).
            continue
        interp = Interp(data, prog, plans[method])
        try:
            got = interp.run(case["inputs"])
        except RuntimeError as e:
            if "expect_error" not in case:
                fail(f"{where}: {e}")
            ran += 1
            continue
        if "expect_error" in case:
            fail(f"{where}: expected an error ({case['expect_error']}), got {got}")
            continue
        if len(got) != len(case["outputs"]):
            fail(f"{where}: {len(got)} outputs, expected {len(case['outputs'])}")
        for oi, (g, w) in enumerate(zip(got, case["outputs"])):
            if not values_match(g, w, entry.get("tolerance", "exact")):
                fail(f"{where}: output {oi} = {g}, expected {w}")
        ran += 1
    sig = entry.get("methods", {})
    for mname, s in sig.items():
        p = plans.get(mname)
        if p is None:
            fail(f"{name}: method {mname} missing")
            continue
        if len(p.get("inputs") or []) != len(s["inputs"]) or len(p.get("outputs") or []) != len(s["outputs"]):
            fail(f"{name}: method {mname} signature differs from index.json")
    return ran


def check_hostile(name: str, data: bytes, entry: Dict[str, Any], good: Dict[str, bytes]) -> str:
    base = os.path.basename(name)
    try:
        prog = flatc_json(data)
    except PteWriterError:
        prog = None
    if base == "truncated.pte":
        hdr = read_header(data)
        ok = hdr["extended"] and hdr["extended"]["program_size"] > len(data)
        return "program_size > file size" if ok else fail(f"{name}: not truncated") or ""
    if base == "bad_magic.pte":
        return "identifier NOPE" if data[4:8] == b"NOPE" else fail(f"{name}: magic intact") or ""
    if base == "bad_offsets.pte":
        root = struct.unpack_from("<I", data, 0)[0]
        vt = root - struct.unpack_from("<i", data, root)[0]
        pos = root + struct.unpack_from("<H", data, vt + 6)[0]
        target = pos + struct.unpack_from("<I", data, pos)[0]
        return (f"execution_plan -> byte {target} of {len(data)}" if target >= len(data)
                else fail(f"{name}: offset inside the file") or "")
    if prog is None:
        fail(f"{name}: flatc cannot parse it")
        return ""
    plan = prog["execution_plan"][0]
    hdr = read_header(data)
    if base == "segment_past_end.pte":
        s = prog["segments"][0]
        end = hdr["extended"]["segment_base_offset"] + s.get("offset", 0) + s["size"]
        return (f"segment 0 ends at {end}, file {len(data)}" if end > len(data)
                else fail(f"{name}: segment fits") or "")
    if base == "huge_plan.pte":
        ncb = plan["non_const_buffer_sizes"]
        return f"non_const_buffer_sizes {ncb}" if ncb == [0, 536870912] else fail(f"{name}: {ncb}") or ""
    if base == "missing_op.pte":
        ops = [o["name"] + "." + o["overload"] for o in plan["operators"]]
        return f"operators {ops}" if ops == ["custom::does_not_exist.out"] else fail(f"{name}: {ops}") or ""
    if base == "missing_backend.pte":
        d = plan["delegates"][0]
        seg = prog["segments"][d["processed"]["index"]]
        ok = (d["id"] == "NoSuchBackend" and d["processed"]["location"] == "SEGMENT"
              and hdr["extended"]["segment_base_offset"] + seg.get("offset", 0) + seg["size"] <= len(data)
              and plan["chains"][0]["instructions"][0]["instr_args_type"] == "DelegateCall")
        return (f"DelegateCall to {d['id']}, blob in segment {d['processed']['index']}" if ok
                else fail(f"{name}: delegate {d}") or "")
    if base == "external_missing.pte":
        t = [v["val"] for v in plan["values"] if v["val_type"] == "Tensor" and v["val"].get("extra_tensor_info")]
        ok = t and t[0]["extra_tensor_info"] == {"mutable_data_segments_idx": 0, "fully_qualified_name":
                                                 "weight.missing", "location": "EXTERNAL"}
        return "EXTERNAL tensor 'weight.missing'" if ok else fail(f"{name}: {t}") or ""
    if base == "bad_arg_index.pte":
        args = plan["chains"][0]["instructions"][0]["instr_args"]["args"]
        n = len(plan["values"])
        return f"args {args}, {n} values" if max(args) >= n else fail(f"{name}: args in range") or ""
    if base == "bad_op_index.pte":
        oi = plan["chains"][0]["instructions"][0]["instr_args"]["op_index"]
        return f"op_index {oi}, {len(plan['operators'])} operators" if oi >= len(plan["operators"]) else fail(name) or ""
    if base == "bad_jump.pte":
        ins = plan["chains"][0]["instructions"]
        d = ins[0]["instr_args"]["destination_instruction"]
        return f"jump to {d} of {len(ins)}" if d > len(ins) else fail(name) or ""
    if base == "bad_list_item.pte":
        lists = [v["val"]["items"] for v in plan["values"] if v["val_type"] == "IntList"]
        kinds = [plan["values"][i]["val_type"] for i in lists[0]]
        return f"IntList items are {kinds}" if "Tensor" in kinds else fail(name) or ""
    fail(f"{name}: no check for this hostile file")
    return ""


def compare_with_corpus(good: Dict[str, bytes]) -> List[str]:
    """Compares our eh32 layout with a real file's (if ../shared is present)."""
    real_path = os.path.join(make_fixtures.REPO_ROOT, "..", "shared", "corpus", "pte", "pytorch__executorch",
                             "examples__arduino__examples__AddModel__model.pte")
    if not os.path.exists(real_path):
        return ["(corpus absent: layout comparison skipped)"]
    with open(real_path, "rb") as f:
        real = f.read()
    notes = []
    for label, data in (("real AddModel", real), ("affine.pte", good["affine.pte"])):
        hdr = read_header(data)
        prog = flatc_json(data)
        notes.append(f"{label}: root={hdr['root_offset']} ext={hdr['extended']} "
                     f"segments={prog['segments']} constant_segment={prog['constant_segment']} "
                     f"constant_buffer={prog['constant_buffer']}")
    a, b = flatc_json(real), flatc_json(good["affine.pte"])
    if set(a) != set(b):
        fail(f"top-level Program fields differ from the real file: {sorted(a)} vs {sorted(b)}")
    return notes


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", nargs="?", help="fixture directory (default: generate into a temp dir)")
    ap.add_argument("--determinism", action="store_true", help="generate twice more and compare bytes")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)

    tmp = None
    d = args.dir
    if d is None:
        tmp = tempfile.TemporaryDirectory(prefix="fixtures_")
        d = tmp.name
        make_fixtures.make_fixtures(d)
    with open(os.path.join(d, "index.json"), encoding="utf-8") as f:
        index = json.load(f)

    good: Dict[str, bytes] = {}
    n_cases = 0
    for name, entry in index["goldens"].items():
        with open(os.path.join(d, name), "rb") as f:
            data = f.read()
        good[name] = data
        hdr = check_header(name, data)
        if hdr is None:
            continue
        try:
            prog = flatc_json(data)
        except PteWriterError as e:
            fail(f"{name}: {e}")
            continue
        check_structure(name, data, prog, hdr)
        ran = check_cases(name, data, prog, entry)
        n_cases += ran
        if args.verbose:
            ext = hdr["extended"]
            form = f"eh00/{ext['length']}" if ext else "no eh"
            print(f"  {name:20} {len(data):5} B  {form:8} methods={[p['name'] for p in prog['execution_plan']]} "
                  f"plan={[p['non_const_buffer_sizes'] for p in prog['execution_plan']]} cases={ran}")
    for name, entry in index["hostile"].items():
        with open(os.path.join(d, name), "rb") as f:
            data = f.read()
        what = check_hostile(name, data, entry, good)
        if args.verbose:
            print(f"  {name:32} {what}")
    if args.verbose:
        for note in compare_with_corpus(good):
            print("  " + note)
    else:
        compare_with_corpus(good)

    if args.determinism:
        with tempfile.TemporaryDirectory() as t1, tempfile.TemporaryDirectory() as t2:
            make_fixtures.make_fixtures(t1)
            make_fixtures.make_fixtures(t2)
            for root, _, files in os.walk(t1):
                for fn in files:
                    p1 = os.path.join(root, fn)
                    p2 = os.path.join(t2, os.path.relpath(p1, t1))
                    with open(p1, "rb") as f1, open(p2, "rb") as f2:
                        if f1.read() != f2.read():
                            fail(f"{os.path.relpath(p1, t1)}: differs between runs")

    if FAILURES:
        print(f"check_fixtures: {len(FAILURES)} failure(s):")
        for msg in FAILURES:
            print("  - " + msg)
        return 1
    print(f"check_fixtures: OK: {len(index['goldens'])} fixtures ({n_cases} cases run by the reference "
          f"interpreter), {len(index['hostile'])} hostile files" + (", deterministic" if args.determinism else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
