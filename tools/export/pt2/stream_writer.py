"""Byte-faithful reimplementation of PyTorch's C++ ``PyTorchStreamWriter`` zip output.

``PyTorchStreamWriter`` (caffe2/serialize/inline_container.cc, on top of miniz in zip64
mode) is what writes ``torch.save`` zips and PT2 archives (torch >= 2.8). Its output:

* every record stored (method 0), general-purpose flags 0x0808 (data descriptor + UTF-8),
  version needed 0, DOS time/date 0;
* local header with CRC and both sizes zero, followed by the name and a local extra field
  ``'FB'`` (0x4246) + u16 length + that many ``'Z'`` bytes, sized so that the record data
  starts at a multiple of 64 bytes from the start of the file (the field is written even
  when no padding is needed: ``FB 00 00``);
* a data descriptor after the data: ``PK\\x07\\x08``, CRC32, compressed size, uncompressed
  size (32-bit sizes; 64-bit when the record is >= 4 GiB);
* central directory entries (version made by 0, needed 0, same flags, real CRC and sizes,
  no extra field, no comment, attributes 0);
* a ZIP64 end-of-central-directory record (size 44, made by 0x031e, needed 45), the ZIP64
  locator and the classic EOCD, always, even for tiny archives.

Checked byte for byte against ``pytorch__executorch/linear.pt2`` (``check_repack.py``) and
against torch 1.13's own ``torch.save`` output (``check_repack.py --torch-save``).

Records >= 4 GiB / offsets >= 4 GiB follow miniz's zip64 rules as far as they are known
(zip64 extra fields in the local and central headers); that path is not verified against a
real file.

The ``.data/serialization_id`` record is computed like the C++ writer does (a combined
``std::hash`` of the record names and a combined CRC32 of the record contents, both printed
as 20 zero-padded decimal digits), so archives from this writer are deterministic.
"""

from __future__ import annotations

import struct
import zlib
from typing import BinaryIO, List, Optional, Tuple, Union

ALIGNMENT = 64
_U32_MAX = 0xFFFFFFFF
_U64 = (1 << 64) - 1
FLAGS = 0x0808
SERIALIZATION_ID_RECORD = ".data/serialization_id"
VERSION_RECORD = ".data/version"


# --------------------------------------------------------------------------
# serialization id: libstdc++ std::hash<std::string> (_Hash_bytes) + c10::hash_combine

def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def std_hash_bytes(data: bytes, seed: int = 0xC70F6907) -> int:
    """libstdc++'s 64-bit ``_Hash_bytes`` (what ``std::hash<std::string>`` returns)."""
    mul = (0xC6A4A793 << 32) + 0x5BD1E995
    n = len(data)
    aligned = n & ~7
    h = (seed ^ (n * mul)) & _U64
    for p in range(0, aligned, 8):
        d = int.from_bytes(data[p:p + 8], "little")
        d = (_shift_mix((d * mul) & _U64) * mul) & _U64
        h ^= d
        h = (h * mul) & _U64
    if n & 7:
        d = int.from_bytes(data[aligned:], "little")
        h ^= d
        h = (h * mul) & _U64
    h = (_shift_mix(h) * mul) & _U64
    return _shift_mix(h)


def hash_combine(seed: int, value: int) -> int:
    """c10::hash_combine."""
    return (seed ^ ((value + 0x9E3779B9 + ((seed << 6) & _U64) + (seed >> 2)) & _U64)) & _U64


# --------------------------------------------------------------------------

class StreamWriter:
    """Writes a zip exactly like ``caffe2::serialize::PyTorchStreamWriter``.

    ``prefix`` is the archive root folder (``"archive"`` for ``torch.save`` into a buffer,
    the file's base name for a PT2 archive); record names are given without it.
    """

    def __init__(self, prefix: str):
        self.prefix = prefix.rstrip("/")
        self.buf = bytearray()
        self.central: List[bytes] = []
        self.names: List[str] = []
        self.combined_crc = 0
        self.finished = False

    # -- records -------------------------------------------------------------

    def _padding(self, cursor: int, name_len: int, size: int) -> bytes:
        start = cursor + 30 + name_len + 4
        if size >= _U32_MAX or cursor >= _U32_MAX:
            start += 4
            if size >= _U32_MAX:
                start += 16
            if cursor >= _U32_MAX:
                start += 8
        pad = (-start) % ALIGNMENT
        return b"FB" + struct.pack("<H", pad) + b"Z" * pad

    def write_record(self, name: str, data: Union[bytes, bytearray, memoryview]) -> None:
        if self.finished:
            raise RuntimeError("archive already finished")
        if name in self.names:
            raise ValueError(f"duplicate record {name!r}")
        data = bytes(data)
        full = f"{self.prefix}/{name}".encode("utf-8")
        offset = len(self.buf)
        size = len(data)
        crc = zlib.crc32(data) & _U32_MAX
        big = size >= _U32_MAX or offset >= _U32_MAX

        extra = b""
        if big:  # zip64 extended information (local header): sizes zero, as the header's
            fields = b""
            if size >= _U32_MAX:
                fields += struct.pack("<QQ", 0, 0)
            if offset >= _U32_MAX:
                fields += struct.pack("<Q", offset)
            extra = struct.pack("<HH", 0x0001, len(fields)) + fields
        extra += self._padding(offset, len(full), size)
        local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 0, FLAGS, 0, 0, 0, 0, 0, 0,
                            len(full), len(extra))
        self.buf += local + full + extra
        assert len(self.buf) % ALIGNMENT == 0
        self.buf += data
        if size >= _U32_MAX:
            self.buf += struct.pack("<IIQQ", 0x08074B50, crc, size, size)
        else:
            self.buf += struct.pack("<IIII", 0x08074B50, crc, size, size)

        cextra = b""
        if big:
            fields = b""
            if size >= _U32_MAX:
                fields += struct.pack("<QQ", size, size)
            if offset >= _U32_MAX:
                fields += struct.pack("<Q", offset)
            cextra = struct.pack("<HH", 0x0001, len(fields)) + fields
        s32 = min(size, _U32_MAX)
        central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0, 0, FLAGS, 0, 0, 0,
                              crc, s32, s32, len(full), len(cextra), 0, 0, 0, 0,
                              min(offset, _U32_MAX))
        self.central.append(central + full + cextra)
        self.names.append(name)
        self.combined_crc = hash_combine(self.combined_crc, crc)

    def serialization_id(self) -> str:
        combined_name_hash = 0
        for n in sorted(self.names):  # std::set<std::string> iteration order
            combined_name_hash = hash_combine(combined_name_hash, std_hash_bytes(n.encode("utf-8")))
        return f"{combined_name_hash:020d}{self.combined_crc:020d}"

    # -- end of file ---------------------------------------------------------

    def finish(self, *, serialization_id: Optional[Union[str, bytes]] = None,
               write_serialization_id: bool = True) -> bytes:
        """Writes ``.data/serialization_id`` (computed, or the given opaque value) unless
        already written, then the central directory, zip64 EOCD, locator and EOCD."""
        if self.finished:
            return bytes(self.buf)
        if write_serialization_id and SERIALIZATION_ID_RECORD not in self.names:
            sid = self.serialization_id() if serialization_id is None else serialization_id
            self.write_record(SERIALIZATION_ID_RECORD,
                              sid.encode("ascii") if isinstance(sid, str) else sid)
        cd_offset = len(self.buf)
        cd = b"".join(self.central)
        self.buf += cd
        n = len(self.central)
        z64_offset = len(self.buf)
        self.buf += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x031E, 45, 0, 0,
                                n, n, len(cd), cd_offset)
        self.buf += struct.pack("<IIQI", 0x07064B50, 0, z64_offset, 1)
        self.buf += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, min(n, 0xFFFF), min(n, 0xFFFF),
                                min(len(cd), _U32_MAX), min(cd_offset, _U32_MAX), 0)
        self.finished = True
        return bytes(self.buf)


def write_archive(prefix: str, records: List[Tuple[str, bytes]], *,
                  serialization_id: Optional[Union[str, bytes]] = None) -> bytes:
    """Whole archive in one call: ``records`` in order (names without the prefix)."""
    w = StreamWriter(prefix)
    for name, data in records:
        if name == SERIALIZATION_ID_RECORD:
            continue
        w.write_record(name, data)
    return w.finish(serialization_id=serialization_id)


def read_records(data: bytes) -> Tuple[str, List[Tuple[str, bytes]]]:
    """(prefix, [(name without prefix, bytes)]) of a PyTorchStreamWriter zip, in central
    directory order, using the central directory's sizes and offsets."""
    eocd = data.rfind(b"PK\x05\x06")
    if eocd < 0:
        raise ValueError("no end of central directory")
    n, cd_size, cd_off = struct.unpack_from("<HII", data, eocd + 10)
    if cd_off == _U32_MAX or n == 0xFFFF:
        loc = eocd - 20
        (z64,) = struct.unpack_from("<Q", data, loc + 8)
        n, cd_size, cd_off = struct.unpack_from("<QQQ", data, z64 + 32)
    out = []
    p = cd_off
    for _ in range(n):
        (sig, _mb, _nv, _fl, method, _t, _d, _crc, csize, usize, nlen, xlen, clen, _ds, _ia,
         _ea, off) = struct.unpack_from("<IHHHHHHIIIHHHHHII", data, p)
        assert sig == 0x02014B50
        name = data[p + 46:p + 46 + nlen].decode("utf-8")
        xfield = data[p + 46 + nlen:p + 46 + nlen + xlen]
        if xlen:  # zip64 extra
            q = 0
            while q < len(xfield):
                tag, ln = struct.unpack_from("<HH", xfield, q)
                if tag == 1:
                    vals = list(struct.unpack_from("<" + "Q" * (ln // 8), xfield, q + 4))
                    if usize == _U32_MAX:
                        usize = vals.pop(0)
                    if csize == _U32_MAX:
                        csize = vals.pop(0)
                    if off == _U32_MAX:
                        off = vals.pop(0)
                q += 4 + ln
        if method != 0:
            raise ValueError(f"{name}: compressed record (method {method})")
        lnlen, lxlen = struct.unpack_from("<HH", data, off + 26)
        start = off + 30 + lnlen + lxlen
        out.append((name, data[start:start + usize]))
        p += 46 + nlen + xlen + clen
    prefix = out[0][0].split("/", 1)[0] if out else ""
    return prefix, [(nm[len(prefix) + 1:], b) for nm, b in out]
