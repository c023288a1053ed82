#!/usr/bin/python3
"""Re-exports corey-cole/simple-torch-model's network with Trident's exporter
and compares its XNNGraph with the real export (ExecuTorch 0.7) field by
field: the network (conv 1->8 3x3 + ReLU, conv 8->16 3x3 + ReLU, global
average pool, flatten, linear 16->10) is rebuilt in PyTorch with the real
file's own weights (read from its named data), exported by
tools/export/models/xnnpack_lower.py at the real file's dims bound, and the
two payloads' nodes, values, constant tables and named-data keys compared.

    /usr/bin/python3 tools/export/xnnpack/compare_exporter.py [../shared/corpus/pte/corey-cole__simple-torch-model/model.pte]
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
for p in (HERE, os.path.join(ROOT, "tools", "export", "models"), os.path.join(ROOT, "tools", "pte")):
    sys.path.insert(0, p)

import numpy as np  # noqa: E402
import torch  # noqa: E402

import xnnpack_lower  # noqa: E402
from compare_payload import diff, graph_json, named_data  # noqa: E402
from delegate_blobs import blobs  # noqa: E402
from xnn_writer import parse_payload  # noqa: E402

DEFAULT = os.path.join(ROOT, "..", "shared", "corpus", "pte", "corey-cole__simple-torch-model", "model.pte")


class SimpleTorchModel(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.c1 = torch.nn.Conv2d(1, 8, 3)
        self.c2 = torch.nn.Conv2d(8, 16, 3)
        self.fc = torch.nn.Linear(16, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.c1(x))
        x = torch.relu(self.c2(x))
        x = torch.nn.functional.adaptive_avg_pool2d(x, 1)
        return self.fc(torch.flatten(x, 1))


def constant(g: Dict[str, Any], named: Dict[str, bytes], value: int) -> torch.Tensor:
    t = g["xvalues"][value]["xvalue_union"]
    entry = g["constant_data"][t["constant_buffer_idx"]]
    return torch.from_numpy(np.frombuffer(named[entry["named_key"]], dtype=np.float32).reshape(t["dims"]).copy())


def main(argv: List[str]) -> int:
    real_path = argv[0] if argv else DEFAULT
    named = named_data(real_path)
    real = [graph_json(parse_payload(b)["flatbuffer"]) for _, _, b in blobs(real_path)]
    g0, g1 = real
    m = SimpleTorchModel().eval()
    with torch.no_grad():
        m.c1.weight.copy_(constant(g0, named, 2).permute(3, 0, 1, 2))  # 1HWO -> OIHW
        m.c1.bias.copy_(constant(g0, named, 4))
        m.c2.weight.copy_(constant(g0, named, 5).permute(0, 3, 1, 2))  # OHWI -> OIHW
        m.c2.bias.copy_(constant(g0, named, 7))
        m.fc.weight.copy_(constant(g1, named, 1))
        m.fc.bias.copy_(constant(g1, named, 2))
    h, w = g0["xvalues"][0]["xvalue_union"]["dims"][2:]
    pb, _, _ = xnnpack_lower.export_program(m, (torch.zeros(1, 1, h, w),))
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        ours_path = os.path.join(tmp, "ours.pte")
        with open(ours_path, "wb") as f:
            f.write(pb.serialize())
        ours_blobs = list(blobs(ours_path))
        ours_named = named_data(ours_path)
    ours = [graph_json(parse_payload(b)["flatbuffer"]) for _, _, b in ours_blobs]
    headers = [{k: v for k, v in parse_payload(b).items() if k not in ("flatbuffer", "constant_data")}
               for _, _, b in ours_blobs]
    real_headers = [{k: v for k, v in parse_payload(b).items() if k not in ("flatbuffer", "constant_data")}
                    for _, _, b in blobs(real_path)]
    print(f"real: {len(real)} delegates; ours: {len(ours)}")
    print(f"headers: real {real_headers[0]} / ours {headers[0]}")
    # The real conv partition against the same nodes of ours.
    g = ours[0]
    n0 = len(g0["xnodes"])
    out: List[str] = []
    diff("xnodes", [{k: v for k, v in n.items() if k != "debug_handle"} for n in g0["xnodes"]],
         [{k: v for k, v in n.items() if k != "debug_handle"} for n in g["xnodes"][:n0]], out)
    strip = lambda v: {k: x for k, x in v["xvalue_union"].items() if k not in ("external_id", "flags")}  # noqa: E731
    diff("xvalues", [strip(v) for v in g0["xvalues"]], [strip(v) for v in g["xvalues"][:len(g0["xvalues"])]], out)
    diff("constant_data", g0["constant_data"], g["constant_data"][:len(g0["constant_data"])], out)
    print(f"delegate 0 ({n0} nodes, {len(g0['xvalues'])} values, {len(g0['constant_data']) - 1} constants) "
          f"against ours: {'equal field by field' if not out else f'{len(out)} differences'} "
          f"(debug handles and the external flags of the partition output aside)")
    for line in out:
        print("  " + line)
    print(f"named-data keys (sha256 of the weights' bytes): real {sorted(named) == sorted(ours_named) and 'equal' or 'differ'}")
    rest = [n["xnode_union_type"] for n in g["xnodes"][n0:]]
    print(f"ours continues in the same delegate with {rest}; the real export ends delegate 0 at the "
          f"NCHW transpose, aliases the flatten in the memory plan and puts "
          f"{[n['xnode_union_type'] for n in g1['xnodes']]} in delegate 1")
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
