#!/usr/bin/env python3
"""Seeds for the zip and pickle fuzzers, taken from PT2 archives.

  extract_seeds.py zips OUT ARCHIVE...     the archives and the torch.save
                                           files nested in them (.pt)
  extract_seeds.py pickles OUT ARCHIVE...  every data.pkl in those, plus
                                           pickles of plain objects, and of
                                           tensors when torch is importable

Only seeds: what the fuzzers then find is theirs.
"""
import io
import os
import pickle
import sys
import zipfile


def nested_saves(path):
    """(name, bytes) of each torch.save zip stored inside a PT2 archive."""
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            if info.filename.endswith(".pt"):
                yield info.filename.replace("/", "_"), z.read(info)


def pickles_in(name, data):
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for info in z.infolist():
            if info.filename.endswith("data.pkl"):
                yield name + ".pkl", z.read(info)


def plain_pickles():
    objects = {
        "dict": {"a": 1, "b": 2.5, "c": "text", "d": None, "e": True},
        "nested": [(1, 2), {"k": [3, 4]}, ("x", (5,))],
        "ints": [0, -1, 255, 65535, 2**31 - 1, -(2**31), 2**40],
    }
    for name, obj in objects.items():
        for protocol in (2, 4):
            yield f"plain_{name}_p{protocol}.pkl", pickle.dumps(obj, protocol=protocol)


def torch_pickles():
    try:
        import collections
        import torch
    except ImportError:
        return
    base = torch.arange(24, dtype=torch.float32).reshape(2, 3, 4)
    objects = {
        "state_dict": collections.OrderedDict(
            w=torch.ones(3, 2), b=torch.zeros(3, dtype=torch.int64), m=torch.tensor([True, False])),
        "strided": {"t": base.transpose(0, 2), "s": base[:, 1:, ::2], "h": base.half()},
        "parameter": {"p": torch.nn.Parameter(torch.randn(2, 2))},
        "tuple": (torch.tensor(3.0), torch.tensor([1, 2], dtype=torch.int32)),
    }
    for name, obj in objects.items():
        buffer = io.BytesIO()
        torch.save(obj, buffer)
        yield from pickles_in("torch_" + name, buffer.getvalue())


def main():
    kind, out, archives = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    seeds = []
    for path in archives:
        saves = list(nested_saves(path))
        if kind == "zips":
            with open(path, "rb") as f:
                seeds.append((os.path.basename(path), f.read()))
            seeds += saves
        else:
            for name, data in saves:
                seeds += list(pickles_in(name, data))
    if kind == "pickles":
        seeds += list(plain_pickles()) + list(torch_pickles())
    for name, data in seeds:
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
