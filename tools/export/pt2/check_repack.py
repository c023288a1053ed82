"""Proves ``stream_writer.py`` against real PyTorchStreamWriter output.

1. Reads ``pytorch__executorch/linear.pt2`` (torch 2.9 dev, from ../shared/corpus/pt2) record
   by record, in its order, rewrites it with ``StreamWriter`` (``.data/serialization_id``
   copied as an opaque value) and asserts the output is byte-identical. It also recomputes
   the serialization id the way the C++ writer does and reports whether it matches.
2. Does the same for the nested ``data/sample_inputs/model.pt`` (a torch 2.9 ``torch.save``).
3. ``--torch-save`` (needs torch): the same for a few ``torch.save`` outputs of the local
   torch (1.13), including the computed serialization id.

Exits non-zero on any difference and prints the first differing offset.

    /usr/bin/python3 tools/export/pt2/check_repack.py [--corpus DIR] [--torch-save]
"""

from __future__ import annotations

import argparse
import io
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from stream_writer import SERIALIZATION_ID_RECORD, StreamWriter, read_records  # noqa: E402

REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DEFAULT_CORPUS = os.path.normpath(os.path.join(REPO, "..", "shared", "corpus", "pt2"))


def repack(original: bytes, *, copy_id: bool = True) -> bytes:
    prefix, records = read_records(original)
    w = StreamWriter(prefix)
    sid = None
    for name, data in records:
        if name == SERIALIZATION_ID_RECORD:
            sid = data
            if copy_id:
                w.write_record(name, data)
            continue
        w.write_record(name, data)
    has_id = any(n == SERIALIZATION_ID_RECORD for n, _ in records)
    # torch < 2.0 writers have no serialization id record at all.
    return w.finish(serialization_id=sid if copy_id else None, write_serialization_id=has_id)


def compare(label: str, got: bytes, want: bytes) -> bool:
    if got == want:
        print(f"OK   {label}: {len(want)} bytes, byte-identical")
        return True
    n = min(len(got), len(want))
    first = next((i for i in range(n) if got[i] != want[i]), n)
    print(f"FAIL {label}: first difference at offset {first} (0x{first:x}); "
          f"sizes {len(got)} vs {len(want)}")
    lo = max(0, first - 16)
    print(f"     original: {want[lo:first + 16].hex(' ')}")
    print(f"     repacked: {got[lo:first + 16].hex(' ')}")
    return False


def check_id(label: str, original: bytes) -> bool:
    """Recomputed serialization id (records in their order, id last) == stored one?"""
    prefix, records = read_records(original)
    w = StreamWriter(prefix)
    stored = None
    for name, data in records:
        if name == SERIALIZATION_ID_RECORD:
            stored = data.decode("ascii")
            continue
        w.write_record(name, data)
    if stored is None:
        print(f"--   {label}: no serialization id")
        return True
    ours = w.serialization_id()
    same = ours == stored
    print(f"{'OK  ' if same else 'DIFF'} {label}: serialization id stored {stored}, recomputed {ours}")
    return same


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--torch-save", action="store_true",
                    help="also repack torch.save outputs of the local torch")
    args = ap.parse_args(argv)
    ok = True
    path = os.path.join(args.corpus, "pytorch__executorch", "linear.pt2")
    with open(path, "rb") as f:
        original = f.read()
    ok &= compare("linear.pt2 repack", repack(original), original)
    _, records = read_records(original)
    print("     records: " + ", ".join(f"{n} ({len(d)})" for n, d in records))
    nested = dict(records)["data/sample_inputs/model.pt"]
    ok &= compare("linear.pt2 data/sample_inputs/model.pt repack", repack(nested), nested)
    # Informational: the id is a hash of names/CRCs whose exact inputs depend on the torch
    # build; a mismatch here is reported but not fatal for linear.pt2.
    check_id("linear.pt2", original)
    check_id("linear.pt2 sample_inputs/model.pt", nested)

    if args.torch_save:
        import torch
        torch.manual_seed(0)
        cases = {
            "empty dict": {},
            "state dict": torch.nn.Linear(3, 2).state_dict(),
            "sample inputs": ((torch.randn(4, 5),), {}),
            "big tensor": {"w": torch.randn(1000, 37)},
        }
        for label, obj in cases.items():
            b = io.BytesIO()
            torch.save(obj, b)
            want = b.getvalue()
            ok &= compare(f"torch {torch.__version__} torch.save({label}) repack", repack(want), want)
            _, recs = read_records(want)
            print(f"     records: {', '.join(n for n, _ in recs)}")
    print("all checks passed" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
