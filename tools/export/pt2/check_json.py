"""Checks program_json.py's JSON against the two real archives in ../shared/corpus/pt2.

1. linear.pt2 (torch 2.9.0a0, schema 8.12, training IR): the same program (nn.Linear(3, 3)
   with the archive's own weights, input ``x``) is built as an FX graph of
   ``aten.linear.default`` and written in the 8.12 style; the result must equal the real
   ``models/model.json`` byte for byte once node ``metadata`` (stack traces of the original
   test) and ``torch_version`` are copied over. The payload config is compared too.
2. exported_program.pt2 (torch 2.2, all-tag unions): every JSON object our 2.2-style writer
   emits for the four core models must have a key list (names and order) that also occurs in
   the real file.

    /usr/bin/python3 tools/export/pt2/check_json.py [--corpus DIR]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import zipfile

import torch
import torch.fx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import program_json as pj  # noqa: E402
from check_repack import DEFAULT_CORPUS  # noqa: E402
from stream_writer import read_records  # noqa: E402


def check_linear(corpus: str) -> bool:
    with open(os.path.join(corpus, "pytorch__executorch", "linear.pt2"), "rb") as f:
        _, records = read_records(f.read())
    rec = dict(records)
    real = rec["models/model.json"].decode()
    real_ep = json.loads(real)
    cfg = json.loads(rec["data/weights/model_weights_config.json"])
    w = torch.frombuffer(bytearray(rec["data/weights/weight_0"]), dtype=torch.float32).reshape(3, 3)
    b = torch.frombuffer(bytearray(rec["data/weights/weight_1"]), dtype=torch.float32)
    ex = torch.load(io.BytesIO(rec["data/sample_inputs/model.pt"]))
    (x,), _ = ex

    g = torch.fx.Graph()
    pw, pb, px = g.placeholder("p_linear_weight"), g.placeholder("p_linear_bias"), g.placeholder("x")
    lin = g.call_function(torch.ops.aten.linear.default, (px, pw, pb))
    lin.meta["export_metadata"] = real_ep["graph_module"]["graph"]["nodes"][0]["metadata"]
    g.output(lin)
    pj.rename_nodes(g)
    p = pj.Program(g, [pj.InputSpec("parameter", pw, "linear.weight"),
                       pj.InputSpec("parameter", pb, "linear.bias"),
                       pj.InputSpec("user_input", px)],
                   [pj.OutputSpec("user_output", lin)],
                   {"linear.weight": torch.nn.Parameter(w), "linear.bias": torch.nn.Parameter(b)}, {},
                   (x,), verifier="TRAINING", submodules=["linear"])
    ep = pj.JsonWriter(p, pj.STYLES["8.12"]).program()
    ep["torch_version"] = real_ep["torch_version"]
    ours = pj.dumps(ep)
    ok = ours == real
    print(f"{'OK  ' if ok else 'FAIL'} linear.pt2 models/model.json rebuilt: {len(ours)} vs {len(real)} chars"
          + ("" if ok else f", first difference at {next(i for i in range(min(len(ours), len(real))) if ours[i] != real[i])}"))
    if not ok:
        i = next(i for i in range(min(len(ours), len(real))) if ours[i] != real[i])
        print("     real: " + real[max(0, i - 80):i + 80])
        print("     ours: " + ours[max(0, i - 80):i + 80])
    ours_cfg = {"config": {k: {"path_name": f"weight_{i}", "is_param": True, "use_pickle": False,
                               "tensor_meta": pj.tensor_meta_json(t, "8.12", requires_grad=True)}
                           for i, (k, t) in enumerate(p.state_dict.items())}}
    ok2 = pj.dumps(ours_cfg).encode() == rec["data/weights/model_weights_config.json"]
    print(f"{'OK  ' if ok2 else 'FAIL'} linear.pt2 model_weights_config.json rebuilt")
    return ok and ok2


def _key_lists(obj, out):
    if isinstance(obj, dict):
        out.add(tuple(obj.keys()))
        for v in obj.values():
            _key_lists(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _key_lists(v, out)


def check_22(corpus: str, programs) -> bool:
    with zipfile.ZipFile(os.path.join(corpus, "KladovValentin__hades-pid", "exported_program.pt2")) as z:
        real = json.loads(z.read("serialized_exported_program.json"))
    real_keys = set()
    _key_lists(real, real_keys)
    ok = True
    for name, p in programs:
        ours = set()
        ep = pj.JsonWriter(p, pj.STYLES["2.2"]).program()
        _key_lists(ep, ours)
        # the tensor_values dict is keyed by tensor names: data, not a schema object
        tv = tuple(ep["graph_module"]["graph"]["tensor_values"].keys())
        extra = {k for k in ours - real_keys if k not in (tv, ())}
        if extra:
            ok = False
            print(f"FAIL {name}: 2.2-style objects with key lists absent from the real file: {sorted(extra)[:5]}")
        else:
            print(f"OK   {name}: every 2.2-style object's keys occur in the torch 2.2 file")
    return ok


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    args = ap.parse_args(argv)
    ok = check_linear(args.corpus)
    sys.path.insert(0, os.path.join(HERE, "..", "models"))
    import export_pt2
    progs = []
    for n in ("mlp_tiny", "buffer_mutation", "shared_storage"):
        if n in export_pt2.SMALL:
            m, inp = export_pt2.small_model(n)
            progs.append((n, export_pt2.core_program(m, inp, mutations=(n == "buffer_mutation"))))
        else:
            m, inp, info = getattr(export_pt2._em(), n)()
            progs.append((n, export_pt2.core_program(m, inp)))
    ok &= check_22(args.corpus, progs)
    print("all checks passed" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
