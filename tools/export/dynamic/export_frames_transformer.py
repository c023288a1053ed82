#!/usr/bin/python3
"""Writes a frames transformer with a bounded-dynamic frame count, planned at its upper bound.

Usage: /usr/bin/python3 tools/export/dynamic/export_frames_transformer.py [--out build/models]
       [--name frames_transformer] [--max-frames 5000] [--frames 8,60,500] [--seed N] [--no-check]

The test program for "plan memory at each run's real shapes": what ExecuTorch's exporter writes
for ``torch.export(model, (frames,), dynamic_shapes={"frames": {1: Dim("T", max=5000)}})`` then
``to_edge`` / ``to_executorch``, built with the project's `.pte` writer
(tools/pte/pte_writer.py), since torch 1.13 has no torch.export:

- ``forward(frames: float32[1, T, 80] (DYNAMIC_BOUND, T <= 5000)) -> float32[1, T, 64]``;
- input projection ``linear 80 -> 64``; one pre-norm transformer encoder layer (PyTorch's
  ``nn.TransformerEncoderLayer(64, 4, 128, dropout=0, activation="gelu", batch_first=True,
  norm_first=True)``); a final ``LayerNorm(64)``. Seeded random weights (biases and norm
  affines included, so that every argument matters).

The layer is written with portable ops, as the exported graph lowers it:
``native_layer_norm.out``; q/k/v ``linear.out``; ``et_view`` to ``[1, T, 4, 16]``,
``permute_copy`` to ``[1, 4, T, 16]`` (k: ``[1, 4, 16, T]``), ``et_view`` to ``[4, T, 16]``
(k: ``[4, 16, T]``); ``bmm.out`` -> scores ``[4, T, T]``; ``mul.out`` by the 0-dim constant
0.25 (ScalarToTensorPass makes the Python float a tensor); ``_softmax.out(dim -1)``;
``bmm.out`` with v; ``et_view``/``permute_copy``/``et_view`` back to ``[1, T, 64]``; output
``linear.out``; ``add.out`` residual; LayerNorm, ``linear`` 64 -> 128, ``gelu.out("none")``,
``linear`` 128 -> 64, ``add.out`` residual; final ``native_layer_norm.out``.

Sizes at run time: ``aten::sym_size.int(frames, 1)`` writes T into an Int value (emitted, as
ExecuTorch's emitter emits a SymInt result, as ``Int(0)``); every ``et_view`` size list names
that Int value where the graph has T. Every tensor whose shape depends on T is DYNAMIC_BOUND
with its sizes at the bound (T = 5000), as ExecuTorch's memory planning sees them (the upper
bound of each symbolic dim): the three ``[4, 5000, 5000]`` float tensors (scores, scaled
scores, probabilities) are 400 MB each.

The method is built with tools/export/handbuilt, as export_llama.py builds its own: the
Emitter keeps every tensor's sizes with T symbolic (``bounds={"T": max_frames}``);
``plan_memory`` makes ExecuTorch's plan (its lifetimes, a view shares its base's bytes and
lifetime, greedy first fit at 16-byte offsets in order of birth) and ``build_planned`` writes
it in a second, identical pass with every planned tensor pinned with ``allocation=(1,
offset)``. The same planner, given the sizes at a run's real T, gives the plan a runtime could
make for that run; those totals are recorded too.

Next to the .pte, NAME.expected.json holds eager PyTorch's outputs (the nn modules above) for
T = 8, 60 and 500 on seeded inputs (float32 little-endian, base64). Unless ``--no-check``,
the written method is first run by handbuilt's ``Replay`` (value table, ExecuTorch's argument
layouts, the memory plan as one arena) at each T, twice: with the file's plan (the
arena is ``torch.empty`` of the bound size, so only the pages a run touches are ever
committed) and with the plan re-made at that T; both must match eager.
"""

from __future__ import annotations

import argparse
import collections
import glob
import hashlib
import os
import re
import sys
from typing import Any, Dict, Optional, Sequence, Tuple, Union

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from handbuilt import (REPO, Emitter, ExportError, ProgramBuilder, Replay, Size, Sym, b64,  # noqa: E402
                       build_planned, flatc_json, naive_total, plan_memory, planned_bases,
                       run_main, write_expected, write_pte)

SEED = 20250311
N_MELS = 80
DIM = 64
HEADS = 4
HEAD_DIM = DIM // HEADS
FFN = 128
EPS = 1e-5
MAX_FRAMES = 5000
CHECK_FRAMES = (8, 60, 500)
TOLERANCE = 1e-4          # max |replay - eager|; the outputs are LayerNorm'd, O(1)
F32 = "float32"

T = "T"                   # a size equal to the frame count (the graph's one symbolic dim)


# ---------------------------------------------------------------------------
# Model and eager reference

def make_model(seed: int) -> torch.nn.ModuleDict:
    torch.manual_seed(seed)
    model = torch.nn.ModuleDict({
        "proj": torch.nn.Linear(N_MELS, DIM),
        "layer": torch.nn.TransformerEncoderLayer(DIM, HEADS, FFN, dropout=0.0, activation="gelu",
                                                  batch_first=True, norm_first=True),
        "norm": torch.nn.LayerNorm(DIM, eps=EPS),
    })
    gen = torch.Generator().manual_seed(seed + 1)
    with torch.no_grad():
        # Defaults would leave norm affines at 1/0 and the attention biases at 0.
        for ln in (model["layer"].norm1, model["layer"].norm2, model["norm"]):
            ln.weight.copy_(1.0 + 0.1 * torch.randn(DIM, generator=gen))
            ln.bias.copy_(0.1 * torch.randn(DIM, generator=gen))
        attn = model["layer"].self_attn
        attn.in_proj_bias.copy_(0.1 * torch.randn(3 * DIM, generator=gen))
        attn.out_proj.bias.copy_(0.1 * torch.randn(DIM, generator=gen))
    return model.eval()


@torch.no_grad()
def eager(model: torch.nn.ModuleDict, frames: torch.Tensor) -> torch.Tensor:
    return model["norm"](model["layer"](model["proj"](frames)))


def weights_of(model: torch.nn.ModuleDict) -> "collections.OrderedDict[str, torch.Tensor]":
    """The parameters as the exported graph's placeholders hold them (in_proj split in three)."""
    layer = model["layer"]
    ipw, ipb = layer.self_attn.in_proj_weight, layer.self_attn.in_proj_bias
    w = collections.OrderedDict([
        ("proj.weight", model["proj"].weight), ("proj.bias", model["proj"].bias),
        ("norm1.weight", layer.norm1.weight), ("norm1.bias", layer.norm1.bias),
        ("wq", ipw[:DIM]), ("bq", ipb[:DIM]),
        ("wk", ipw[DIM:2 * DIM]), ("bk", ipb[DIM:2 * DIM]),
        ("wv", ipw[2 * DIM:]), ("bv", ipb[2 * DIM:]),
        ("wo", layer.self_attn.out_proj.weight), ("bo", layer.self_attn.out_proj.bias),
        ("norm2.weight", layer.norm2.weight), ("norm2.bias", layer.norm2.bias),
        ("linear1.weight", layer.linear1.weight), ("linear1.bias", layer.linear1.bias),
        ("linear2.weight", layer.linear2.weight), ("linear2.bias", layer.linear2.bias),
        ("norm.weight", model["norm"].weight), ("norm.bias", model["norm"].bias),
    ])
    return collections.OrderedDict((k, v.detach().to(torch.float32).contiguous().clone())
                                   for k, v in w.items())


def frames_input(seed: int, t: int) -> torch.Tensor:
    gen = torch.Generator().manual_seed(seed * 1000 + t)
    return torch.randn(1, t, N_MELS, generator=gen, dtype=torch.float32)


# ---------------------------------------------------------------------------
# Program

def build_program(w: Dict[str, torch.Tensor], bound: int,
                  plan: Optional[Dict[int, Tuple[int, int]]]) -> Tuple[ProgramBuilder, Emitter]:
    pb = ProgramBuilder()
    m = pb.method("forward")
    e = Emitter(m, plan, bounds={T: bound})
    H, Dh = HEADS, HEAD_DIM

    # Placeholders in the exported graph's order: parameters, lifted constants, user inputs.
    c = {k: e.constant(v) for k, v in w.items()}
    scale = e.constant(torch.tensor(1.0 / Dh ** 0.5, dtype=torch.float32))   # ScalarToTensorPass
    frames = m.input(e.tensor(F32, [1, T, N_MELS]))

    def linear(x: int, wk: str, bk: str, out_f: int) -> int:
        return e.kernel("aten::linear.out", [x, c[wk], c[bk]], e.tensor(F32, [1, T, out_f]))

    def layer_norm(x: int, prefix: str) -> int:
        out, mean, rstd = e.tensor(F32, [1, T, DIM]), e.tensor(F32, [1, T, 1]), e.tensor(F32, [1, T, 1])
        e.kernel("aten::native_layer_norm.out",
                 [x, e.int_list([DIM]), c[prefix + ".weight"], c[prefix + ".bias"], m.double(EPS)],
                 [out, mean, rstd])
        return out

    def permute(x: int, dims: Sequence[int], out_sizes: Sequence[Size]) -> int:
        return e.kernel("aten::permute_copy.out", [x, e.int_list(dims)], e.tensor(F32, out_sizes))

    s = e.sym_size(frames, 1)                                   # T

    h0 = linear(frames, "proj.weight", "proj.bias", DIM)
    # self-attention block: x + out_proj(attn(norm1(x)))
    x = layer_norm(h0, "norm1")
    q = linear(x, "wq", "bq", DIM)
    k = linear(x, "wk", "bk", DIM)
    v = linear(x, "wv", "bv", DIM)

    def heads(lin: int, dims: Sequence[int], sizes4: Sequence[Size], size3: Sequence[Union[int, Sym]],
              sizes3: Sequence[Size]) -> int:
        v4 = e.view(lin, [1, s, H, Dh], [1, T, H, Dh])
        return e.view(permute(v4, dims, sizes4), size3, sizes3)

    q3 = heads(q, [0, 2, 1, 3], [1, H, T, Dh], [H, s, Dh], [H, T, Dh])
    k3 = heads(k, [0, 2, 3, 1], [1, H, Dh, T], [H, Dh, s], [H, Dh, T])   # k^T
    v3 = heads(v, [0, 2, 1, 3], [1, H, T, Dh], [H, s, Dh], [H, T, Dh])
    scores = e.kernel("aten::bmm.out", [q3, k3], e.tensor(F32, [H, T, T]))
    scaled = e.kernel("aten::mul.out", [scores, scale], e.tensor(F32, [H, T, T]))
    probs = e.kernel("aten::_softmax.out", [scaled, m.int(-1), m.bool(False)], e.tensor(F32, [H, T, T]))
    ctx = e.kernel("aten::bmm.out", [probs, v3], e.tensor(F32, [H, T, Dh]))
    ctx4 = e.view(ctx, [1, H, s, Dh], [1, H, T, Dh])
    ctxp = permute(ctx4, [0, 2, 1, 3], [1, T, H, Dh])
    ctx2 = e.view(ctxp, [1, s, DIM], [1, T, DIM])
    o = linear(ctx2, "wo", "bo", DIM)
    h1 = e.kernel("aten::add.out", [h0, o, m.int(1)], e.tensor(F32, [1, T, DIM]))
    # feed-forward block: x + linear2(gelu(linear1(norm2(x))))
    x = layer_norm(h1, "norm2")
    f1 = linear(x, "linear1.weight", "linear1.bias", FFN)
    g = e.kernel("aten::gelu.out", [f1, m.string("none")], e.tensor(F32, [1, T, FFN]))
    f2 = linear(g, "linear2.weight", "linear2.bias", DIM)
    h2 = e.kernel("aten::add.out", [h1, f2, m.int(1)], e.tensor(F32, [1, T, DIM]))
    y = layer_norm(h2, "norm")
    m.output(y)
    return pb, e


# ---------------------------------------------------------------------------
# Trident's kernel tables

def kernel_table() -> Dict[str, int]:
    table: Dict[str, int] = {}
    for path in sorted(glob.glob(os.path.join(REPO, "cpp", "kernels", "tables", "*.inc"))):
        with open(path, "r", encoding="utf-8") as f:
            for name, n in re.findall(r'TRI_KERNEL\("([^"]+)",\s*\w+,\s*(\d+)\)', f.read()):
                table[name] = int(n)
    return table


def check_against_tables(e: Emitter) -> None:
    table = kernel_table()
    if not table:
        raise ExportError("no TRI_KERNEL entries under cpp/kernels/tables")
    for kind, body in e.m.instructions:
        name, overload = e.m.operators[body["op_index"]]
        op = f"{name}.{overload}" if overload else name
        if op not in table:
            raise ExportError(f"{op} is not in Trident's kernel tables")
        if len(body["args"]) != table[op]:
            raise ExportError(f"{op}: {len(body['args'])} args, Trident's table says {table[op]}")


# ---------------------------------------------------------------------------

def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(REPO, "build", "models"))
    ap.add_argument("--name", default="frames_transformer",
                    help="file stem: writes NAME.pte and NAME.expected.json (default frames_transformer; "
                         "e.g. frames_transformer_8k with --max-frames 8192)")
    ap.add_argument("--max-frames", type=int, default=MAX_FRAMES, help="upper bound of T (default 5000)")
    ap.add_argument("--frames", default=",".join(map(str, CHECK_FRAMES)),
                    help="frame counts of the reference cases (default 8,60,500)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--no-check", action="store_true", help="skip the replay of the written program")
    args = ap.parse_args(argv)

    bound = args.max_frames
    cases_t = [int(x) for x in args.frames.split(",") if x]
    if bound < 2 or any(not 1 <= t <= bound for t in cases_t):
        raise ExportError(f"frame counts {cases_t} must lie in 1..{bound} (and the bound be >= 2)")
    torch.set_num_threads(1)
    model = make_model(args.seed)
    w = weights_of(model)

    pb, e, plan = build_planned(lambda p: build_program(w, bound, p))
    total = plan.total
    check_against_tables(e)

    cases = []
    for t in cases_t:
        x = frames_input(args.seed, t)
        cases.append({"frames": t, "input": x, "output": eager(model, x)})

    check: Dict[str, Any] = {"skipped": True}
    if not args.no_check:
        file_replay = Replay(e, plan)
        worst: Dict[str, float] = {}
        for cs in cases:
            t = cs["frames"]
            for label, rp in (("file_plan", file_replay), ("plan_at_T", Replay(e, plan_memory(e, {T: t})))):
                (got,) = rp.run(cs["input"])
                if list(got.shape) != list(cs["output"].shape):
                    raise ExportError(f"replay {label} T={t}: shape {list(got.shape)}")
                err = float((got - cs["output"]).abs().max())
                worst[f"{label}/T={t}"] = err
                if not err <= TOLERANCE:
                    raise ExportError(f"replay {label} T={t} differs from eager by {err}")
        check = {"skipped": False, "max_abs_error": worst}

    pte, data = write_pte(args.out, args.name, pb)

    # Parse the file back: the plan, the pinned offsets and the dynamism are as intended.
    parsed = flatc_json(data)
    (fwd,) = parsed["execution_plan"]
    if [int(x) for x in fwd["non_const_buffer_sizes"]] != [0, total]:
        raise ExportError(f"non_const_buffer_sizes {fwd['non_const_buffer_sizes']} != [0, {total}]")
    for i, info in e.info.items():
        val = fwd["values"][i]["val"]
        if info.storage != "planned":
            continue
        ai = val["allocation_info"]
        off = int(ai["memory_offset_low"]) | (int(ai["memory_offset_high"]) << 32)
        if (int(ai["memory_id"]), off) != plan.offsets[i]:
            raise ExportError(f"value {i}: allocation {ai} != {plan.offsets[i]}")
        want = "DYNAMIC_BOUND" if info.dynamic else "STATIC"
        if val.get("shape_dynamism", "STATIC") != want or val["sizes"] != info.sizes_at(plan.dims):
            raise ExportError(f"value {i}: {val.get('shape_dynamism')} {val['sizes']}")

    bases = sorted(planned_bases(e), key=lambda g: -e.info[g].nbytes(plan.dims))
    at_t = {}
    for t in sorted(set(cases_t) | {1, bound}):
        at_t[str(t)] = {"plan_bytes": plan_memory(e, {T: t}).total, "naive_bytes": naive_total(e, {T: t})}
    plan_info = {
        "bound_frames": bound,
        "total_bytes": total,
        "non_const_buffer_sizes": [0, total],
        "naive_total_bytes": naive_total(e),
        "largest": [{"value": g, "sizes": e.info[g].sizes_at(plan.dims), "bytes": e.info[g].nbytes(plan.dims),
                     "offset": plan.offsets[g][1], "live": list(plan.life[g])} for g in bases[:6]],
        "at_frames": at_t,
        "note": "plan_bytes at T: the same planner given the sizes at that T (what a per-run "
                "plan needs); naive_bytes: every base its own bytes",
    }

    record = {
        "format": "trident-frames-transformer-reference/1",
        "description": "input linear 80->64, one pre-norm transformer encoder layer (4 heads of 16, "
                       "FFN 128, GELU), final LayerNorm; frames bounded-dynamic T <= "
                       f"{bound}; eager PyTorch outputs",
        "pte": os.path.basename(pte),
        "sha256": hashlib.sha256(data).hexdigest(),
        "config": {"n_mels": N_MELS, "dim": DIM, "heads": HEADS, "head_dim": HEAD_DIM, "ffn": FFN,
                   "eps": EPS, "max_frames": bound, "seed": args.seed, "torch": torch.__version__},
        "forward": {
            "inputs": [{"name": "frames", "dtype": "float32", "shape": [1, bound, N_MELS],
                        "dynamism": "bounded", "dynamic_dims": {"1": {"min": 1, "max": bound}}}],
            "outputs": [{"dtype": "float32", "shape": [1, bound, DIM], "dynamism": "bounded"}],
            "instructions": len(e.m.instructions),
            "operators": dict(sorted(e.ops.items())),
        },
        "memory_plan": plan_info,
        "tolerance": {"max_abs_error": TOLERANCE},
        "replay": check,
        "encoding": "float32 little-endian, row-major, base64",
        "cases": [{"frames": cs["frames"], "input_shape": list(cs["input"].shape),
                   "output_shape": list(cs["output"].shape), "input": b64(cs["input"]),
                   "output": b64(cs["output"])} for cs in cases],
    }
    write_expected(args.out, args.name, record)

    gib = total / (1 << 30)
    per_t = ", ".join(f"T={t}: {v['plan_bytes']}" for t, v in at_t.items())
    print(f"{args.name}: {len(data)} bytes, {len(e.m.instructions)} instructions; planned buffer at "
          f"T={bound}: {total} bytes ({gib:.3f} GiB; naive {plan_info['naive_total_bytes']}); "
          f"plans at real T: {per_t}; replay "
          + ("skipped" if check["skipped"] else
             "max |replay - eager| %.3g" % max(check["max_abs_error"].values())))
    return 0


if __name__ == "__main__":
    run_main(main, "export_frames_transformer")
