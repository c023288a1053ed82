#!/usr/bin/python3
"""Exports real models to .pte (and ONNX twins) with torch 1.13.

Usage: /usr/bin/python3 tools/export/models/export_models.py [--out build/models] [--only NAME ...]
       [--no-onnx] [--run] [--list]

For every model NAME this writes into the output folder:

  NAME.pte           the ExecuTorch program: portable KernelCalls (lower.py, weights in
                     the constant segment) or, for the *_xnnpack models, XnnpackBackend
                     DelegateCalls (xnnpack_lower.py, xnnpack_quant.py; weights in the
                     program's named data) mixed with KernelCalls for what XNNPACK lacks
  NAME.onnx          the same weights through torch.onnx.export (opset 13; portable models)
  NAME.input.npy     the seeded input (float32)
  NAME.expected.npy  the reference output (float32): eager PyTorch, the reference-quantized
                     model (int8) or the numpy qdint8 reference
  NAME.json          signature, registry names with counts, delegates and their node
                     counts, plan size, tolerance

and index.json listing all of them. Everything is seeded: the same torch gives
the same bytes. Any failure (a lowering error, the replay of the written
program disagreeing with eager PyTorch, flatc rejecting the file or a delegate
payload) exits non-zero. ``--run`` also runs every written file through the
wasm runtime's CLI (``node bin/trident.mjs run``, needs a built dist/) and
checks it against the expected output with the entry's tolerance.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import subprocess
import sys
import time
import warnings
from typing import Any, Callable, Dict, List, Tuple

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import flops  # noqa: E402
import lower  # noqa: E402
import xnnpack_lower  # noqa: E402
import xnnpack_quant  # noqa: E402
from pte_writer import flatc_json, read_header  # noqa: E402  (lower puts tools/pte on sys.path)
from xnn_writer import default_xnn_schema_path, parse_payload  # noqa: E402

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


def _transformer(seed: int, d_model: int, nhead: int, ffn: int, seq: int
                 ) -> Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]:
    _seeded(seed)
    m = torch.nn.TransformerEncoderLayer(d_model=d_model, nhead=nhead, dim_feedforward=ffn, batch_first=True)
    _randomize_bn_stats(m)
    x = torch.randn(1, seq, d_model)
    return m.eval(), (x,), {
        "description": f"nn.TransformerEncoderLayer(d_model={d_model}, nhead={nhead}, dim_feedforward={ffn}, "
                       f"batch_first=True), eval, sequence length {seq}",
        # eval + no_grad would take PyTorch's fused fast path; see lower.capture
        "grad_for_tracing": True,
    }


def transformer_encoder() -> Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]:
    return _transformer(SEED + 2, 64, 4, 128, 16)


def transformer_layer() -> Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]:
    """The benchmark's transformer: one encoder layer at a realistic size."""
    return _transformer(SEED + 4, 256, 4, 1024, 128)


class _MatMul(torch.nn.Module):
    def __init__(self, n: int) -> None:
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(n, n) / n ** 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.weight


def _sgemm(n: int) -> Callable[[], Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]]:
    """Benchmark: a square SGEMM, x[n,n] @ W[n,n] (aten.mm; ONNX MatMul)."""
    def make() -> Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]:
        _seeded(SEED + 10 + n)
        return _MatMul(n).eval(), (torch.randn(n, n),), {"description": f"square SGEMM {n}x{n}x{n}, constant right operand"}
    return make


def conv3x3_mobilenet() -> Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]:
    """Benchmark: a dense 3x3 convolution at MobileNet's first resolution and width."""
    _seeded(SEED + 5)
    return torch.nn.Conv2d(32, 32, 3, padding=1).eval(), (torch.randn(1, 32, 112, 112),), {
        "description": "Conv2d(32, 32, 3x3, padding 1) on [1,32,112,112]"}


def dwconv3x3_mobilenet() -> Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]:
    """Benchmark: MobileNetV2's depthwise 3x3 at 56x56 with 144 channels (block 2)."""
    _seeded(SEED + 6)
    return torch.nn.Conv2d(144, 144, 3, padding=1, groups=144).eval(), (torch.randn(1, 144, 56, 56),), {
        "description": "depthwise Conv2d(144, 144, 3x3, groups 144, padding 1) on [1,144,56,56]"}


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


def _xnnpack(portable: Callable[[], Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]]
             ) -> Callable[[], Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]]:
    """The same model, weights and input as ``portable``, lowered to XnnpackBackend."""
    def make() -> Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]:
        model, inputs, info = portable()
        info = dict(info, lowering="xnnpack",
                    description=info["description"] + "; XNNPACK-delegated (same weights and input as "
                                f"{portable.__name__})")
        return model, inputs, info
    make.__name__ = portable.__name__ + "_xnnpack"
    return make


class CnnInt8(torch.nn.Module):
    """conv3x3-relu, conv3x3-relu, depthwise conv3x3 + residual add-relu,
    max pool, flatten, linear: every int8 node family of a small CNN."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.relu1 = torch.nn.ReLU()
        self.conv2 = torch.nn.Conv2d(16, 16, 3, padding=1)
        self.relu2 = torch.nn.ReLU()
        self.dw = torch.nn.Conv2d(16, 16, 3, padding=1, groups=16)
        self.relu3 = torch.nn.ReLU()
        self.pool = torch.nn.MaxPool2d(2)
        self.fc = torch.nn.Linear(16 * 8 * 8, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a = self.relu1(self.conv1(x))
        b = self.relu2(self.conv2(a))
        b = self.relu3(self.dw(b) + a)
        return self.fc(torch.flatten(self.pool(b), 1))


def cnn_int8_xnnpack() -> Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]:
    _seeded(SEED + 4)
    model = CnnInt8().eval()
    x = torch.randn(1, 3, 16, 16)
    calibration = [torch.randn(1, 3, 16, 16) for _ in range(16)] + [x]
    return model, (x,), {
        "description": "small CNN (conv3x3-relu x2, depthwise conv3x3 + residual add-relu, max pool, "
                       "linear), static int8 quantization (torch.ao FX, per-channel weights), "
                       "XNNPACK-delegated; reference: the reference-quantized model",
        "lowering": "xnnpack_int8",
        "calibration": calibration,
    }


def mlp_qd8_xnnpack() -> Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]:
    _seeded(SEED + 5)
    model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 96),
                                torch.nn.ReLU(), torch.nn.Linear(96, 10)).eval()
    x = torch.randn(2, 8, 64)
    return model, (x,), {
        "description": "MLP 64-128-96-10 with ReLUs, dynamically quantized activations (qdint8, one "
                       "scale per row) and int8 per-channel weights, XNNPACK-delegated; reference: "
                       "numpy with XNNPACK's per-row quantization and an integer matmul",
        "lowering": "xnnpack_qd8",
    }


class OpZoo(torch.nn.Module):
    """The XNNPACK mappings the other models leave out, with their layout
    cases: cat, slice, pad and permute of NHWC values, a [C, 1, 1] constant
    broadcast in NHWC, grouped, dilated and one-input-channel convolutions,
    bilinear resize, average pooling, the unary and min/max ops, batch matmul."""

    def __init__(self) -> None:
        super().__init__()
        self.c1 = torch.nn.Conv2d(4, 8, 3, padding=1, stride=2)
        self.dw = torch.nn.Conv2d(8, 16, 3, padding=(1, 2), groups=8, dilation=(1, 2))
        self.c2 = torch.nn.Conv2d(16, 8, 1)
        self.gray = torch.nn.Conv2d(1, 4, 3, padding=1)
        self.grouped = torch.nn.Conv2d(8, 8, 3, padding=1, groups=2)
        self.bn = torch.nn.BatchNorm2d(8)
        self.shift = torch.nn.Parameter(torch.randn(8, 1, 1))
        self.fc = torch.nn.Linear(8, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        F = torch.nn.functional
        a = F.hardswish(self.c1(x))
        b = self.c2(F.leaky_relu(self.dw(a), 0.2))
        c = torch.cat([a, b * 2.0, torch.sigmoid(a)], 1)[:, 4:20, :, 1:]
        c = F.pad(c, (1, 0, 2, 1), value=-0.5)
        d = F.elu(c[:, :8]) + self.shift
        d = self.bn(self.grouped(d)).clamp(-2.0, 3.0)
        e = F.interpolate(d, scale_factor=2, mode="bilinear", align_corners=False)
        e = F.avg_pool2d(e, 2, stride=2, padding=1, count_include_pad=False)
        g = F.interpolate(e, size=(5, 7), mode="bilinear", align_corners=True).permute(0, 2, 3, 1)
        h = F.gelu(g) - torch.tanh(g) * torch.exp(-g.abs())
        h = torch.maximum(h, torch.minimum(g, g.neg())) / (torch.sqrt(g.abs() + 1) + torch.rsqrt(g.abs() + 2))
        h = h + torch.floor(g) * 0.1 + torch.ceil(g) * 0.01 + torch.log(g.abs() + 1)
        k = torch.softmax(self.fc(h), -1).reshape(5, 7, 5)
        m = torch.bmm(k, k.transpose(1, 2))
        y = self.gray(x[:, :1]).mean((2, 3), keepdim=True)
        return torch.cat([m.reshape(1, -1), y.flatten(1), F.relu6(self.fc(h.mean((1, 2))))], 1)


def op_zoo_xnnpack() -> Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]:
    _seeded(SEED + 6)
    m = OpZoo()
    _randomize_bn_stats(m)
    x = torch.randn(1, 4, 16, 18)
    return m.eval(), (x,), {
        "description": "a small graph of the XNNPACK mappings the other models leave out (NHWC cat, "
                       "slice, pad and permute, resize, average pooling, unary and min/max ops, batch "
                       "matmul), XNNPACK-delegated; reference: eager PyTorch",
        "lowering": "xnnpack",
    }


MODELS: Dict[str, Callable[[], Tuple[torch.nn.Module, Tuple[torch.Tensor, ...], Dict[str, Any]]]] = {
    "mobilenet_v2": mobilenet_v2,
    "resnet18": resnet18,
    "transformer_encoder": transformer_encoder,
    "mlp_tiny": mlp_tiny,
    "mobilenet_v2_xnnpack": _xnnpack(mobilenet_v2),
    "resnet18_xnnpack": _xnnpack(resnet18),
    "transformer_encoder_xnnpack": _xnnpack(transformer_encoder),
    # The benchmark's models (bench/, docs/performance.md).
    "transformer_layer": transformer_layer,
    "transformer_layer_xnnpack": _xnnpack(transformer_layer),
    "sgemm_256": _sgemm(256),
    "sgemm_512": _sgemm(512),
    "sgemm_1024": _sgemm(1024),
    "sgemm_1024_xnnpack": _xnnpack(_sgemm(1024)),
    "conv3x3_mobilenet": conv3x3_mobilenet,
    "conv3x3_mobilenet_xnnpack": _xnnpack(conv3x3_mobilenet),
    "dwconv3x3_mobilenet": dwconv3x3_mobilenet,
    "dwconv3x3_mobilenet_xnnpack": _xnnpack(dwconv3x3_mobilenet),
    "cnn_int8_xnnpack": cnn_int8_xnnpack,
    "mlp_qd8_xnnpack": mlp_qd8_xnnpack,
    "op_zoo_xnnpack": op_zoo_xnnpack,
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


def _write_common(name: str, out_dir: str, inputs: Tuple[torch.Tensor, ...], ref: Any) -> None:
    np.save(os.path.join(out_dir, f"{name}.input.npy"), inputs[0].numpy().astype(np.float32))
    np.save(os.path.join(out_dir, f"{name}.expected.npy"), np.asarray(ref, dtype=np.float32))


def _write_meta(name: str, out_dir: str, meta: Dict[str, Any]) -> None:
    with open(os.path.join(out_dir, f"{name}.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")


def _export_portable(name: str, out_dir: str, model: torch.nn.Module, inputs: Tuple[torch.Tensor, ...],
                     info: Dict[str, Any], *, onnx: bool) -> Dict[str, Any]:
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

    _write_common(name, out_dir, inputs, ref.numpy())
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
        "delegates": 0,
        "values": len(method.values),
        "constant_bytes": low.constant_bytes,
        "constants": low.constants,
        "planned_bytes": plan["non_const_buffer_sizes"][1] if len(plan["non_const_buffer_sizes"]) > 1 else 0,
        "naive_planned_bytes": sum(p.nbytes for k, p in method.values
                                   if k == "Tensor" and p.storage == "planned"),
        "pte_bytes": len(data),
        "pte_sha256": hashlib.sha256(data).hexdigest(),
        "replay_max_abs_error": err,
        "flops": flops.count_flops(gm, inputs),
        "torch": torch.__version__,
    }
    print(f"{name}: {meta['instructions']} instructions, {len(low.ops)} operators, "
          f"{meta['constant_bytes'] / 1e6:.1f} MB constants, plan {meta['planned_bytes'] / 1e6:.2f} MB "
          f"(naive {meta['naive_planned_bytes'] / 1e6:.2f} MB), replay error {err:.2g}", flush=True)
    return meta


def check_delegated_pte(name: str, data: bytes, pte_path: str, delegate_node_counts: List[Dict[str, int]],
                        kernel_calls: int) -> Dict[str, Any]:
    """Structural check of a delegated program (a replay cannot run
    DelegateCalls): flatc parses the .pte with program.fbs and every
    XnnpackBackend payload with xnnpack_graph.fbs; the instructions, each
    payload's node types and its named-data keys are the ones written.
    Returns the parsed execution plan."""
    parsed = flatc_json(pte_path)
    plan = parsed["execution_plan"][0]
    kinds = collections.Counter(i["instr_args_type"] for i in plan["chains"][0]["instructions"])
    want = {"KernelCall": kernel_calls, "DelegateCall": len(delegate_node_counts)}
    if dict(kinds) != {k: v for k, v in want.items() if v}:
        raise SystemExit(f"{name}: flatc sees instructions {dict(kinds)}, expected {kernel_calls} "
                         f"KernelCalls and {len(delegate_node_counts)} DelegateCalls")
    header = read_header(data)["extended"]
    base = header["segment_base_offset"] if header else 0
    named = {e["key"] for e in parsed.get("named_data", [])}
    delegates = plan.get("delegates", [])
    if len(delegates) != len(delegate_node_counts):
        raise SystemExit(f"{name}: {len(delegates)} delegates in the file, {len(delegate_node_counts)} written")
    for i, (d, want) in enumerate(zip(delegates, delegate_node_counts)):
        if d["id"] != xnnpack_lower.BACKEND_ID or d["processed"]["location"] != "SEGMENT":
            raise SystemExit(f"{name}: delegate {i} is {d['id']} at {d['processed']['location']}")
        seg = parsed["segments"][d["processed"]["index"]]
        blob = data[base + seg["offset"]:base + seg["offset"] + seg["size"]]
        graph = flatc_json(parse_payload(blob)["flatbuffer"], schema=default_xnn_schema_path())
        got = collections.Counter(n["xnode_union_type"][len("XNN"):] for n in graph["xnodes"])
        if dict(sorted(got.items())) != want:
            raise SystemExit(f"{name}: delegate {i} payload has nodes {dict(got)}, expected {want}")
        keys = {c["named_key"] for c in graph["constant_data"][1:]}
        if not keys <= named:
            raise SystemExit(f"{name}: delegate {i} uses named data missing from the program: "
                             f"{sorted(keys - named)[:3]}")
    return plan


def _export_xnnpack(name: str, out_dir: str, model: torch.nn.Module, inputs: Tuple[torch.Tensor, ...],
                    info: Dict[str, Any]) -> Dict[str, Any]:
    lowering = info.pop("lowering")
    grad = bool(info.pop("grad_for_tracing", False))
    calibration = info.pop("calibration", None)
    portable_ops: Dict[str, int] = {}
    extra: Dict[str, Any] = {}
    if lowering == "xnnpack":
        with torch.no_grad():
            ref = model(*inputs).numpy()
        pb, low, _ = xnnpack_lower.export_program(model, inputs, grad_for_tracing=grad)
        counts = low.delegate_node_counts
        portable_ops = dict(sorted(low.ops.items()))
        tolerance = {"max_abs_error_rel_to_max_ref": TOL_REL}
    elif lowering == "xnnpack_int8":
        ref_model = xnnpack_quant.quantize_static(model, inputs[0], calibration)
        with torch.no_grad():
            ref = ref_model(*inputs).numpy()
        pb, c = xnnpack_quant.export_int8(ref_model, inputs[0])
        counts = [c]
        out_scale, out_zp = xnnpack_quant.output_quantization(ref_model)
        # One output quantization step, plus a few float32 ulps of the output.
        bound = out_scale + 4 * float(np.spacing(np.float32(np.abs(ref).max())))
        tolerance = {"max_abs_error": bound}
        with torch.no_grad():
            float_err = float(np.abs(model(*inputs).numpy() - ref).max())
        extra = {"output_quantization": {"scale": out_scale, "zero_point": out_zp},
                 "float_model_max_abs_difference": float_err}
    elif lowering == "xnnpack_qd8":
        pb, ref, c = xnnpack_quant.export_qd8_mlp(model, inputs[0])
        counts = [c]
        tolerance = {"max_abs_error_rel_to_max_ref": TOL_REL}
        with torch.no_grad():
            extra = {"float_model_max_abs_difference": float(np.abs(model(*inputs).numpy() - ref).max())}
    else:
        raise SystemExit(f"{name}: unknown lowering {lowering!r}")

    pte_path = os.path.join(out_dir, f"{name}.pte")
    data = pb.write(pte_path)
    kernel_calls = sum(portable_ops.values())
    plan = check_delegated_pte(name, data, pte_path, counts, kernel_calls)
    _write_common(name, out_dir, inputs, ref)
    method = pb.methods[0]
    meta = {
        "name": name,
        **info,
        "pte": f"{name}.pte",
        "onnx": None,
        "input": f"{name}.input.npy",
        "expected": f"{name}.expected.npy",
        "inputs": [_signature(x) for x in inputs],
        "outputs": [{"dtype": "float32", "shape": list(ref.shape)}],
        "tolerance": tolerance,
        "operators": portable_ops,
        "portable_operators": portable_ops,
        "instructions": kernel_calls + len(counts),
        "delegates": len(counts),
        "xnnpack_nodes": xnnpack_lower.node_totals(counts),
        "delegate_node_counts": counts,
        "values": len(method.values),
        "named_data_bytes": sum(len(v) for v in pb._named.values()),
        "planned_bytes": plan["non_const_buffer_sizes"][1] if len(plan["non_const_buffer_sizes"]) > 1 else 0,
        "pte_bytes": len(data),
        "pte_sha256": hashlib.sha256(data).hexdigest(),
        **extra,
        "flops": flops.count_flops(lower.capture(model, inputs, grad_for_tracing=grad), inputs),
        "torch": torch.__version__,
    }
    nodes = ", ".join(f"{k} {v}" for k, v in meta["xnnpack_nodes"].items())
    print(f"{name}: {len(counts)} delegate(s) [{nodes}], {kernel_calls} KernelCalls "
          f"{portable_ops or ''}, {meta['named_data_bytes'] / 1e6:.1f} MB named data, "
          f"plan {meta['planned_bytes'] / 1e6:.2f} MB", flush=True)
    return meta


def run_in_runtime(meta: Dict[str, Any], out_dir: str) -> float:
    """Runs the written file with the wasm runtime's CLI; returns the max abs
    error against the expected output, failing beyond the entry's tolerance."""
    cli = os.path.join(lower.REPO, "bin", "trident.mjs")
    r = subprocess.run(["node", cli, "run", os.path.join(out_dir, meta["pte"]), "--input",
                        os.path.join(out_dir, meta["input"]), "--json"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{meta['name']}: the runtime failed: {(r.stderr or r.stdout).strip()}")
    res = json.loads(r.stdout)
    out = res["outputs"][0]
    got = np.array(out["values"], dtype=np.float32).reshape(out["shape"])
    want = np.load(os.path.join(out_dir, meta["expected"]))
    err = float(np.abs(got - want).max()) if got.shape == want.shape else float("inf")
    tol = meta["tolerance"]
    bound = tol["max_abs_error"] if "max_abs_error" in tol else \
        tol["max_abs_error_rel_to_max_ref"] * max(1.0, float(np.abs(want).max()))
    print(f"{meta['name']}: runtime max abs error {err:.3g} (bound {bound:.3g}), {res['ms']:.1f} ms", flush=True)
    if not err <= bound:
        raise SystemExit(f"{meta['name']}: the runtime's output differs: {err:g} > {bound:g}")
    return err


def export_one(name: str, out_dir: str, *, onnx: bool = True) -> Dict[str, Any]:
    t0 = time.time()
    model, inputs, info = MODELS[name]()
    if info.get("lowering"):
        meta = _export_xnnpack(name, out_dir, model, inputs, info)
    else:
        meta = _export_portable(name, out_dir, model, inputs, info, onnx=onnx)
    _write_meta(name, out_dir, meta)
    print(f"{name}: exported in {time.time() - t0:.1f} s", flush=True)
    return meta


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(lower.REPO, "build", "models"))
    ap.add_argument("--only", nargs="*", choices=sorted(MODELS), default=None)
    ap.add_argument("--no-onnx", action="store_true")
    ap.add_argument("--run", action="store_true",
                    help="also run each written file with the wasm runtime's CLI (needs dist/)")
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
        if args.run:
            run_in_runtime(index[name], args.out)
    with open(index_path, "w") as f:
        json.dump({"models": {k: index[k] for k in sorted(index)}}, f, indent=2)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
