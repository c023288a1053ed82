#!/usr/bin/python3
"""Exports real models to .pte (and ONNX twins) with torch 1.13.

Usage: /usr/bin/python3 tools/export/models/export_models.py [--out build/models] [--only NAME ...]
       [--no-onnx] [--list]

For every model NAME this writes into the output folder:

  NAME.pte           the ExecuTorch program (lower.py), weights in the constant segment
  NAME.onnx          the same weights through torch.onnx.export (opset 13)
  NAME.input.npy     the seeded input (float32)
  NAME.expected.npy  eager PyTorch's output on it (float32)
  NAME.json          signature, registry names with counts, plan size, tolerance

and index.json listing all of them. Everything is seeded: the same torch gives
the same bytes. Any failure (a lowering error, the replay of the written
program disagreeing with eager PyTorch, flatc rejecting the file) exits non-zero.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
import warnings
from typing import Any, Callable, Dict, List, Tuple

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import lower  # noqa: E402
from pte_writer import flatc_json  # noqa: E402  (lower puts tools/pte on sys.path)

#: max |got - ref| <= TOL_REL * max(1, max |ref|), the check the Vitest suite applies.
TOL_REL = 1e-4
SEED = 20240601


def _seeded(seed: int) -> None:
    torch.manual_seed(seed)
    np.random.seed(seed % (2 ** 32))


def _randomize_bn_stats(model: torch.nn.Module) -> None:
    """Fresh BatchNorms have mean 0 / var 1 / weight 1 / bias 0, which would
    leave half the kernel's arguments untested: give them seeded values."""
    for mod in model.modules():
        if isinstance(mod, torch.nn.modules.batchnorm._BatchNorm):
            with torch.no_grad():
                mod.running_mean.normal_(0.0, 0.1)
                mod.running_var.uniform_(0.5, 1.5)
                mod.weight.uniform_(0.5, 1.5)
                mod.bias.normal_(0.0, 0.1)
        if isinstance(mod, torch.nn.LayerNorm) and mod.elementwise_affine:
            with torch.no_grad():
                mod.weight.uniform_(0.5, 1.5)
                mod.bias.normal_(0.0, 0.1)


def mobilenet_v2() -> Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]:
    import torchvision
    _seeded(SEED)
    m = torchvision.models.mobilenet_v2(weights=None)
    _randomize_bn_stats(m)
    x = torch.randn(1, 3, 224, 224)
    return m.eval(), (x,), {"description": "torchvision mobilenet_v2, seeded random weights, eval"}


def resnet18() -> Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]:
    import torchvision
    _seeded(SEED + 1)
    m = torchvision.models.resnet18(weights=None)
    _randomize_bn_stats(m)
    x = torch.randn(1, 3, 224, 224)
    return m.eval(), (x,), {"description": "torchvision resnet18, seeded random weights, eval"}


def transformer_encoder() -> Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]:
    _seeded(SEED + 2)
    m = torch.nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, batch_first=True)
    _randomize_bn_stats(m)
    x = torch.randn(1, 16, 64)
    return m.eval(), (x,), {
        "description": "nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, "
                       "batch_first=True), eval, sequence length 16",
        # eval + no_grad would take PyTorch's fused fast path; see lower.capture
        "grad_for_tracing": True,
    }


def mlp_tiny() -> Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]:
    """A small model whose ops were all registered when the exporter was
    written: it checks the whole path (exporter, wasm runtime, test) while the
    big models wait for kernels."""
    _seeded(SEED + 3)

    class MlpTiny(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc1 = torch.nn.Linear(32, 64)
            self.fc2 = torch.nn.Linear(64, 10)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            h = torch.tanh(self.fc1(x.reshape(-1, 32)))
            y = self.fc2(h).reshape(x.shape[0], x.shape[1], 10)
            return torch.softmax(y.mean(dim=1), dim=-1)

    x = torch.randn(2, 8, 32)
    return MlpTiny().eval(), (x,), {"description": "Linear-tanh-Linear, mean over the sequence, softmax "
                                                   "(a smoke test of the whole path)"}


MODELS: Dict[str, Callable[[], Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]]] = {
    "mobilenet_v2": mobilenet_v2,
    "resnet18": resnet18,
    "transformer_encoder": transformer_encoder,
    "mlp_tiny": mlp_tiny,
}


def _signature(t: torch.Tensor) -> Dict[str, Any]:
    return {"dtype": lower.DTYPE_NAME[t.dtype], "shape": list(t.shape)}


def _export_onnx(model: torch.nn.Module, inputs: Tuple[torch.Tensor, ...], path: str) -> None:
    import onnx  # python3-onnx, for the structural check only
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # Eval + no_grad sends nn.TransformerEncoderLayer through its fused fast
        # path, which has no ONNX symbolic; with grad enabled it takes the
        # composite path, as in the .pte.
        with torch.enable_grad():
            torch.onnx.export(model, inputs, path, opset_version=13, input_names=["input"],
                              output_names=["output"], do_constant_folding=True)
    onnx.checker.check_model(onnx.load(path))


def export_one(name: str, out_dir: str, *, onnx: bool = True) -> Dict[str, Any]:
    t0 = time.time()
    model, inputs, info = MODELS[name]()
    grad = bool(info.pop("grad_for_tracing", False))
    with torch.no_grad():
        ref = model(*inputs)
    if not isinstance(ref, torch.Tensor):
        raise SystemExit(f"{name}: expected one tensor output, got {type(ref).__name__}")

    pb, low, gm = lower.export_program(model, inputs, grad_for_tracing=grad)
    method = low.m
    pte_path = os.path.join(out_dir, f"{name}.pte")
    data = pb.write(pte_path)

    # The written method, replayed with torch's kernels, must match eager.
    (got,) = lower.replay(pb, method, inputs)
    scale = max(1.0, float(ref.abs().max()))
    err = float((got - ref).abs().max())
    if not (err <= TOL_REL * scale):
        raise SystemExit(f"{name}: replay of the written program differs from eager PyTorch: "
                         f"max abs error {err:g} > {TOL_REL * scale:g}")

    # Structural check: flatc parses it back with the project's schema.
    parsed = flatc_json(pte_path)
    plan = parsed["execution_plan"][0]
    if len(plan["chains"][0]["instructions"]) != sum(low.ops.values()):
        raise SystemExit(f"{name}: flatc sees a different instruction count")

    np.save(os.path.join(out_dir, f"{name}.input.npy"), inputs[0].numpy().astype(np.float32))
    np.save(os.path.join(out_dir, f"{name}.expected.npy"), ref.numpy().astype(np.float32))
    if onnx:
        _export_onnx(model, inputs, os.path.join(out_dir, f"{name}.onnx"))

    meta = {
        "name": name,
        **info,
        "pte": f"{name}.pte",
        "onnx": f"{name}.onnx" if onnx else None,
        "input": f"{name}.input.npy",
        "expected": f"{name}.expected.npy",
        "inputs": [_signature(x) for x in inputs],
        "outputs": [_signature(ref)],
        "tolerance": {"max_abs_error_rel_to_max_ref": TOL_REL},
        "operators": dict(sorted(low.ops.items())),
        "instructions": sum(low.ops.values()),
        "values": len(method.values),
        "constant_bytes": low.constant_bytes,
        "planned_bytes": plan["non_const_buffer_sizes"][1] if len(plan["non_const_buffer_sizes"]) > 1 else 0,
        "naive_planned_bytes": sum(p.nbytes for k, p in method.values
                                   if k == "Tensor" and p.storage == "planned"),
        "pte_bytes": len(data),
        "pte_sha256": hashlib.sha256(data).hexdigest(),
        "replay_max_abs_error": err,
        "torch": torch.__version__,
    }
    with open(os.path.join(out_dir, f"{name}.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")
    print(f"{name}: {meta['instructions']} instructions, {len(low.ops)} operators, "
          f"{meta['constant_bytes'] / 1e6:.1f} MB constants, plan {meta['planned_bytes'] / 1e6:.2f} MB "
          f"(naive {meta['naive_planned_bytes'] / 1e6:.2f} MB), replay error {err:.2g}, "
          f"{time.time() - t0:.1f} s", flush=True)
    return meta


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(lower.REPO, "build", "models"))
    ap.add_argument("--only", nargs="*", choices=sorted(MODELS), default=None)
    ap.add_argument("--no-onnx", action="store_true")
    ap.add_argument("--list", action="store_true", help="print the model names and exit")
    args = ap.parse_args(argv)
    if args.list:
        print("\n".join(MODELS))
        return 0
    torch.set_num_threads(1)  # reproducible reductions
    os.makedirs(args.out, exist_ok=True)
    names = args.only or list(MODELS)
    index_path = os.path.join(args.out, "index.json")
    index: Dict[str, Any] = {}
    if os.path.exists(index_path) and args.only:
        with open(index_path) as f:
            index = json.load(f).get("models", {})
    for name in names:
        index[name] = export_one(name, args.out, onnx=not args.no_onnx)
    with open(index_path, "w") as f:
        json.dump({"models": {k: index[k] for k in sorted(index)}}, f, indent=2)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
