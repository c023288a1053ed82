#!/usr/bin/python3
"""Writes the web viewer's bundled samples (build/samples/) with the project's exporter.

Usage: /usr/bin/python3 tools/export/samples/export_samples.py --out build/samples
       [--models build/models] [--only NAME ...] [--run]

Samples (tools/export/samples/README.md):

  digits.pte, digits_xnnpack.pte, digits.pt2, digits.bpte
        a small CNN trained here on scikit-learn's 8x8 digits, as a portable
        program (lower.py), XNNPACK-delegated (xnnpack_lower.py), a .pt2 archive
        with sample inputs (tools/export/pt2) and a bundled program with ten
        test-split cases (tools/pte/bundled_writer.py); digits_test.json holds
        the test split
  mobilenet_v2_xnnpack.pte, imagenet_labels.json
        copied from build/models (seeded random weights), and torchvision's
        ImageNet class names
  fib.mlir
        tools/export/samples/fib.mlir, a TFRT program printing Fibonacci numbers
  yolox_nano.pte
        YOLOX-nano's architecture in plain torch, seeded random weights
  large_5000.pte
        1,000 five-op blocks: a 5,000-instruction program

and index.json, the manifest the viewer reads. Everything is seeded and runs
on one torch thread: the same torch and scikit-learn write the same bytes.
Any failure (digit accuracy below 95%, a replay of a written program
disagreeing with eager PyTorch, flatc rejecting a file) exits non-zero.
``--run`` also runs every sample through the wasm runtime's CLI (needs dist/).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from typing import Any, Callable, Dict, List, Sequence, Tuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
for _p in ("tools/pte", "tools/export/pt2", "tools/export/models"):
    sys.path.insert(0, os.path.join(REPO, _p))

import archive  # noqa: E402  (tools/export/pt2)
import bundled_writer  # noqa: E402  (tools/pte)
import export_models  # noqa: E402  (tools/export/models)
import export_pt2  # noqa: E402
import lower  # noqa: E402
import xnnpack_lower  # noqa: E402
from pte_writer import flatc_json  # noqa: E402

SEED = 20250101
TOL_REL = export_models.TOL_REL
#: The script fails below this test accuracy (the viewer's digit demo must work).
MIN_ACCURACY = 0.95

IMAGENET_MEAN = [0.485, 0.456, 0.406]
IMAGENET_STD = [0.229, 0.224, 0.225]


def _seeded(seed: int) -> None:
    torch.manual_seed(seed)
    np.random.seed(seed % (2 ** 32))


def _file_info(path: str) -> Dict[str, Any]:
    with open(path, "rb") as f:
        data = f.read()
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


# ---------------------------------------------------------------------------
# Exporting with the project's exporter (tools/export/models, tools/export/pt2)

def export_portable(model: nn.Module, inputs: Tuple[torch.Tensor, ...], path: str) -> Dict[str, Any]:
    """lower.export_program -> .pte; the written method replayed with torch's
    kernels must match eager PyTorch, and flatc must read the file back."""
    with torch.no_grad():
        ref = model(*inputs)
    pb, low, _ = lower.export_program(model, inputs)
    data = pb.write(path)
    (got,) = lower.replay(pb, low.m, inputs)
    err = float((got - ref).abs().max())
    bound = TOL_REL * max(1.0, float(ref.abs().max()))
    if not err <= bound:
        raise SystemExit(f"{path}: replay of the written program differs from eager PyTorch: {err:g} > {bound:g}")
    plan = flatc_json(path)["execution_plan"][0]
    n = len(plan["chains"][0]["instructions"])
    if n != sum(low.ops.values()):
        raise SystemExit(f"{path}: flatc sees {n} instructions, {sum(low.ops.values())} were written")
    return {"instructions": n, "operators": dict(sorted(low.ops.items())), "bytes": len(data),
            "replay_max_abs_error": err, "reference": ref}


def export_xnnpack(model: nn.Module, inputs: Tuple[torch.Tensor, ...], path: str) -> Dict[str, Any]:
    """xnnpack_lower.export_program -> .pte, checked as export_models checks the *_xnnpack models."""
    pb, low, _ = xnnpack_lower.export_program(model, inputs)
    data = pb.write(path)
    kernel_calls = sum(low.ops.values())
    export_models.check_delegated_pte(os.path.basename(path), data, path, low.delegate_node_counts, kernel_calls)
    return {"instructions": kernel_calls + len(low.delegate_node_counts),
            "delegates": len(low.delegate_node_counts),
            "xnnpack_nodes": xnnpack_lower.node_totals(low.delegate_node_counts),
            "portable_operators": dict(sorted(low.ops.items())), "bytes": len(data)}


def export_pt2_archive(model: nn.Module, inputs: Tuple[torch.Tensor, ...], path: str) -> Dict[str, Any]:
    """The core-ATen program as torch 2.9+ writes it (layout C), with ``inputs``
    as its data/sample_inputs; read back by export_pt2's own interpreter."""
    with torch.no_grad():
        ref = model(*inputs)
    prog = export_pt2.core_program(model, inputs)
    size = archive.write(prog, path, "C")
    err = export_pt2.verify(path, inputs[0], ref)  # also checks the stored sample inputs
    return {"bytes": size, "layout": "C", "ops": prog.op_counts(), "readback_max_abs_error": err}


# ---------------------------------------------------------------------------
# 1. Digit recognizer

DIGITS_SPLIT = ("sklearn.datasets.load_digits() (1,797 8x8 images, pixels 0..16); "
                "sklearn.model_selection.train_test_split(images, target, test_size=0.25, "
                "random_state=0, stratify=target): 1,347 training and 450 test images")
DIGITS_EPOCHS = 20


class DigitNet(nn.Module):
    """conv3x3(1->16)-ReLU, conv3x3(16->32)-ReLU, max pool 2, Linear(512->64)-ReLU,
    Linear(64->10), softmax: input float32[1,1,8,8] = pixel/16, output
    float32[1,10] class probabilities."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(32 * 4 * 4, 64)
        self.fc2 = nn.Linear(64, 10)

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        x = F.relu(self.conv1(x))
        x = self.pool(F.relu(self.conv2(x)))
        x = F.relu(self.fc1(torch.flatten(x, 1)))
        return self.fc2(x)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.logits(x), dim=-1)


def digits_split() -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(train images, test images, train labels, test labels); images int64 [n,8,8] in 0..16."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split
    d = load_digits()
    images = d.images.astype(np.int64)
    target = d.target.astype(np.int64)
    return tuple(train_test_split(images, target, test_size=0.25, random_state=0, stratify=target))  # type: ignore


def digits_input(images: np.ndarray) -> torch.Tensor:
    """The model's input convention: float32 NCHW, pixel / 16."""
    return torch.from_numpy((images.astype(np.float32) / 16.0).reshape(-1, 1, 8, 8))


def train_digits() -> Tuple[DigitNet, Dict[str, Any]]:
    xtr, xte, ytr, yte = digits_split()
    _seeded(SEED)
    model = DigitNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    gen = torch.Generator().manual_seed(SEED)
    x, y = digits_input(xtr), torch.from_numpy(ytr)
    for _ in range(DIGITS_EPOCHS):
        model.train()
        perm = torch.randperm(len(x), generator=gen)
        for i in range(0, len(x), 32):
            idx = perm[i:i + 32]
            loss = F.cross_entropy(model.logits(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        probs = model(digits_input(xte)).numpy()
    pred = probs.argmax(1)
    correct = int((pred == yte).sum())
    acc = correct / len(yte)
    top2 = np.sort(probs, axis=1)[:, -2:]
    info = {"test_images": xte, "test_labels": yte, "probs": probs, "pred": pred, "correct": correct,
            "accuracy": acc, "min_margin": float((top2[:, 1] - top2[:, 0]).min())}
    print(f"digits: {DIGITS_EPOCHS} epochs, test accuracy {acc:.4f} ({correct}/{len(yte)}), "
          f"smallest top-1/top-2 margin {info['min_margin']:.3g}", flush=True)
    if acc < MIN_ACCURACY:
        raise SystemExit(f"digits: test accuracy {acc:.4f} is below {MIN_ACCURACY}")
    return model, info


def export_digits(out: str) -> Tuple[List[Dict[str, Any]], Dict[str, Any]]:
    t0 = time.time()
    model, info = train_digits()
    xte, yte, pred, probs = info["test_images"], info["test_labels"], info["pred"], info["probs"]

    def most_confident(digit: int) -> int:
        """The test image of ``digit`` the model is surest of (correctly classified):
        the one most likely to survive being redrawn by hand in the viewer's test."""
        ok = [i for i in range(len(yte)) if yte[i] == digit and pred[i] == digit]
        return max(ok, key=lambda i: (float(probs[i, digit]), -i))

    i7, i0 = most_confident(7), most_confident(0)
    example = digits_input(xte[i7:i7 + 1])
    acc_text = f"{info['accuracy'] * 100:.1f}%"
    common = (f"A small CNN (two 3x3 convolutions, max pool, two linear layers, softmax) trained with "
              f"PyTorch on scikit-learn's 8x8 handwritten digits; test accuracy {acc_text} on the "
              f"{len(yte)} held-out digits. Input: the 8x8 image as float32[1,1,8,8], pixel/16 (0..1); "
              f"output: float32[1,10] probabilities of the digits 0-9")
    digit_input = {"kind": "digit", "size": 8, "scale": 16, "shape": [1, 1, 8, 8], "dtype": "float32"}

    pte = export_portable(model, (example,), os.path.join(out, "digits.pte"))
    xnn = export_xnnpack(model, (example,), os.path.join(out, "digits_xnnpack.pte"))
    pt2 = export_pt2_archive(model, (example,), os.path.join(out, "digits.pt2"))

    # The bundled program: digits.pte plus the first test-split image of each digit.
    with open(os.path.join(out, "digits.pte"), "rb") as f:
        program = f.read()
    bb = bundled_writer.BundledProgramBuilder(program)
    cases = []
    for digit in range(10):
        i = next(k for k in range(len(yte)) if yte[k] == digit)
        cases.append(i)
        x = digits_input(xte[i:i + 1])
        with torch.no_grad():
            want = model(x)
        bb.case("forward", [bundled_writer.from_numpy(x)], [bundled_writer.from_numpy(want)])
    data = bb.write(os.path.join(out, "digits.bpte"))
    back = bundled_writer.read(data)
    if bytes(back["program"]) != program or len(back["method_test_suites"][0]["test_cases"]) != 10:
        raise SystemExit("digits.bpte: flatc reads back a different bundle")

    # The test split, for the Vitest suite (and anyone checking the accuracy).
    with open(os.path.join(out, "digits_test.json"), "w") as f:
        json.dump({"split": DIGITS_SPLIT, "convention": "pixels 0..16, row-major; model input = pixel/16 "
                   "as float32[1,1,8,8]", "images": [[int(v) for v in img.reshape(-1)] for img in xte],
                   "labels": [int(v) for v in yte], "predictions": [int(v) for v in pred]}, f)
        f.write("\n")

    entries = [
        {"id": "digits", "name": "Digit recognizer (.pte, portable)", "file": "digits.pte", "format": "pte",
         "method": "forward",
         "description": common + f". Portable ExecuTorch kernels ({pte['instructions']} instructions).",
         "input": digit_input, "nodes": pte["instructions"], "operators": pte["operators"]},
        {"id": "digits_xnnpack", "name": "Digit recognizer (.pte, XNNPACK)", "file": "digits_xnnpack.pte",
         "format": "pte", "method": "forward",
         "description": common + f". The same weights lowered to one XNNPACK delegate "
                                 f"({sum(xnn['xnnpack_nodes'].values())} XNNPACK nodes).",
         "input": digit_input, "nodes": xnn["instructions"], "xnnpack_nodes": xnn["xnnpack_nodes"]},
        {"id": "digits_pt2", "name": "Digit recognizer (.pt2)", "file": "digits.pt2", "format": "pt2",
         "method": "model",
         "description": common + ". The same weights as a torch.export archive (.pt2, core ATen, "
                                 "torch 2.9 layout); its stored sample input is the 7 of testImages.",
         "input": digit_input, "sampleInput": {"testIndex": i7, "label": 7}},
        {"id": "digits_bundled", "name": "Digit recognizer (.bpte, bundled tests)", "file": "digits.bpte",
         "format": "bpte", "method": "forward",
         "description": common + ". digits.pte bundled with 10 test cases (the first test-split image of "
                                 "each digit, with the probabilities eager PyTorch gives for it).",
         "input": digit_input, "bundledCases": 10, "bundledTestIndices": cases},
    ]
    digits = {
        "accuracy": round(info["accuracy"], 6),
        "correct": info["correct"],
        "total": len(yte),
        "split": DIGITS_SPLIT,
        "training": f"{DIGITS_EPOCHS} epochs of Adam (lr 2e-3, batch 32, cross-entropy on the logits), "
                    f"torch seed {SEED}, one thread",
        "input": {"shape": [1, 1, 8, 8], "dtype": "float32", "layout": "NCHW", "scale": 16,
                  "convention": "pixel/16, pixels 0..16, row-major"},
        "testSet": "digits_test.json",
        "testImages": {"7": [int(v) for v in xte[i7].reshape(-1)], "0": [int(v) for v in xte[i0].reshape(-1)]},
        "testImageIndices": {"7": i7, "0": i0},
        "testImageProbabilities": {"7": [round(float(p), 6) for p in probs[i7]],
                                   "0": [round(float(p), 6) for p in probs[i0]]},
    }
    print(f"digits: .pte {pte['instructions']} instructions ({pte['bytes']} B), xnnpack {xnn['xnnpack_nodes']} "
          f"({xnn['bytes']} B), .pt2 {pt2['bytes']} B, .bpte {len(data)} B; {time.time() - t0:.1f} s", flush=True)
    return entries, digits


# ---------------------------------------------------------------------------
# 2. mobilenet_v2 (XNNPACK), from build/models

def pretrained_mobilenet_weights_offline() -> bool:
    """Whether torchvision's ImageNet weights for mobilenet_v2 are in the torch hub cache."""
    from torchvision.models import MobileNet_V2_Weights
    url = MobileNet_V2_Weights.IMAGENET1K_V1.url
    ckpt = os.path.join(torch.hub.get_dir(), "checkpoints", os.path.basename(url))
    return os.path.exists(ckpt)


def export_mobilenet(out: str, models_dir: str) -> List[Dict[str, Any]]:
    t0 = time.time()
    from torchvision.models import MobileNet_V2_Weights
    src = os.path.join(models_dir, "mobilenet_v2_xnnpack.pte")
    dst = os.path.join(out, "mobilenet_v2_xnnpack.pte")
    if os.path.exists(src):
        shutil.copyfile(src, dst)
        how = f"copied from {os.path.relpath(src, REPO)}"
    else:  # not exported yet: the same model, through the same exporter
        tmp = os.path.join(out, ".mobilenet")
        os.makedirs(tmp, exist_ok=True)
        export_models.export_one("mobilenet_v2_xnnpack", tmp, onnx=False)
        shutil.move(os.path.join(tmp, "mobilenet_v2_xnnpack.pte"), dst)
        shutil.rmtree(tmp)
        how = "exported (build/models had none)"
    labels = list(MobileNet_V2_Weights.IMAGENET1K_V1.meta["categories"])
    if len(labels) != 1000:
        raise SystemExit(f"imagenet labels: {len(labels)} categories")
    with open(os.path.join(out, "imagenet_labels.json"), "w") as f:
        json.dump(labels, f, indent=0)
        f.write("\n")
    pretrained = pretrained_mobilenet_weights_offline()
    # build/models' mobilenet_v2 is torchvision.models.mobilenet_v2(weights=None) with seeded
    # weights either way: the exporter never loads pretrained weights.
    weights = ("seeded random weights (torchvision's pretrained ImageNet weights are not available "
               "offline here), so the predicted classes are not meaningful: it shows the runtime "
               "running a real 3.5M-parameter network" if not pretrained else
               "seeded random weights (the exporter does not load torchvision's pretrained weights), "
               "so the predicted classes are not meaningful")
    plan = flatc_json(dst)["execution_plan"][0]
    print(f"mobilenet_v2_xnnpack: {how}; pretrained weights offline: {pretrained}; "
          f"{time.time() - t0:.1f} s", flush=True)
    return [{
        "id": "mobilenet_v2_xnnpack", "name": "MobileNetV2 (.pte, XNNPACK)", "file": "mobilenet_v2_xnnpack.pte",
        "format": "pte", "method": "forward",
        "description": "torchvision's mobilenet_v2 (ImageNet classifier, 1000 classes), lowered to one XNNPACK "
                       "delegate, with " + weights + ". Input: an RGB image resized to 224x224, scaled to "
                       "0..1 and normalized with ImageNet's mean and std, float32[1,3,224,224] (NCHW); "
                       "output: float32[1,1000] logits (no softmax).",
        "input": {"kind": "image", "shape": [1, 3, 224, 224], "dtype": "float32", "layout": "NCHW",
                  "range": [0, 1], "mean": IMAGENET_MEAN, "std": IMAGENET_STD, "labels": "imagenet_labels.json",
                  "output": "logits"},
        "pretrained": pretrained,
        "nodes": len(plan["chains"][0]["instructions"]),
    }]


# ---------------------------------------------------------------------------
# 3. fib.mlir (TFRT)

FIB_SOURCE = os.path.join(HERE, "fib.mlir")
FIB_COUNT = 50      # @forward prints F(0) .. F(FIB_COUNT - 1) as int64
FIB_RECURSIVE = 20  # then @fib(FIB_RECURSIVE), computed by recursion, as int32


def fibonacci(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def fib_expected_output() -> str:
    lines = [f"int64 = {fibonacci(i)}" for i in range(FIB_COUNT)]
    lines.append(f"int32 = {fibonacci(FIB_RECURSIVE)}")
    return "".join(line + "\n" for line in lines)


def export_fib(out: str) -> List[Dict[str, Any]]:
    with open(FIB_SOURCE) as f:
        text = f.read()
    for needed in (f"%count = tfrt.constant.i32 {FIB_COUNT}\n", f"%n = tfrt.constant.i32 {FIB_RECURSIVE}\n"):
        if needed not in text:
            raise SystemExit(f"{FIB_SOURCE}: expected the line {needed.strip()!r} (FIB_COUNT / FIB_RECURSIVE)")
    shutil.copyfile(FIB_SOURCE, os.path.join(out, "fib.mlir"))
    expected = fib_expected_output()
    print(f"fib.mlir: copied; prints {expected.count(chr(10))} lines", flush=True)
    return [{
        "id": "fib", "name": "Fibonacci (TFRT MLIR)", "file": "fib.mlir", "format": "mlir", "method": "forward",
        "description": f"A TFRT program in MLIR text, translated to BEF when it loads. @forward prints the "
                       f"first {FIB_COUNT} Fibonacci numbers as int64 with a tfrt.repeat.i32 loop that carries "
                       f"a chain and the pair (F(i), F(i+1)), then calls @fib({FIB_RECURSIVE}), which recurses "
                       f"through tfrt.call and tfrt.if, and prints its result ({fibonacci(FIB_RECURSIVE)}) as "
                       f"int32. Runs with no inputs; what it prints is the output.",
        "input": {"kind": "none"},
        "expectPrinted": expected,
    }]


# ---------------------------------------------------------------------------
# 4. YOLOX-nano (architecture of Megvii's YOLOX, github.com/Megvii-BaseDetection/YOLOX)

class BaseConv(nn.Module):
    """Conv2d (no bias) + BatchNorm + SiLU."""

    def __init__(self, cin: int, cout: int, k: int, stride: int, groups: int = 1) -> None:
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, stride, (k - 1) // 2, groups=groups, bias=False)
        self.bn = nn.BatchNorm2d(cout, eps=1e-3, momentum=0.03)
        self.act = nn.SiLU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(self.bn(self.conv(x)))


class DWConv(nn.Module):
    """Depthwise k x k BaseConv, then pointwise 1x1 BaseConv."""

    def __init__(self, cin: int, cout: int, k: int, stride: int = 1) -> None:
        super().__init__()
        self.dconv = BaseConv(cin, cin, k, stride, groups=cin)
        self.pconv = BaseConv(cin, cout, 1, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pconv(self.dconv(x))


class Bottleneck(nn.Module):
    def __init__(self, cin: int, cout: int, shortcut: bool = True, expansion: float = 0.5) -> None:
        super().__init__()
        hidden = int(cout * expansion)
        self.conv1 = BaseConv(cin, hidden, 1, 1)
        self.conv2 = DWConv(hidden, cout, 3, 1)
        self.use_add = shortcut and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv2(self.conv1(x))
        return y + x if self.use_add else y


class CSPLayer(nn.Module):
    def __init__(self, cin: int, cout: int, n: int = 1, shortcut: bool = True, expansion: float = 0.5) -> None:
        super().__init__()
        hidden = int(cout * expansion)
        self.conv1 = BaseConv(cin, hidden, 1, 1)
        self.conv2 = BaseConv(cin, hidden, 1, 1)
        self.conv3 = BaseConv(2 * hidden, cout, 1, 1)
        self.m = nn.Sequential(*[Bottleneck(hidden, hidden, shortcut, 1.0) for _ in range(n)])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv3(torch.cat([self.m(self.conv1(x)), self.conv2(x)], dim=1))


class SPPBottleneck(nn.Module):
    def __init__(self, cin: int, cout: int, kernel_sizes: Sequence[int] = (5, 9, 13)) -> None:
        super().__init__()
        hidden = cin // 2
        self.conv1 = BaseConv(cin, hidden, 1, 1)
        self.m = nn.ModuleList([nn.MaxPool2d(k, 1, k // 2) for k in kernel_sizes])
        self.conv2 = BaseConv(hidden * (len(kernel_sizes) + 1), cout, 1, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.conv1(x)
        return self.conv2(torch.cat([x] + [m(x) for m in self.m], dim=1))


class Focus(nn.Module):
    """Space to depth (the four 2x2 phases side by side in channels), then a BaseConv."""

    def __init__(self, cin: int, cout: int, k: int = 1) -> None:
        super().__init__()
        self.conv = BaseConv(cin * 4, cout, k, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        tl = x[..., ::2, ::2]
        tr = x[..., ::2, 1::2]
        bl = x[..., 1::2, ::2]
        br = x[..., 1::2, 1::2]
        return self.conv(torch.cat((tl, bl, tr, br), dim=1))


class CSPDarknet(nn.Module):
    def __init__(self, depth: float, width: float) -> None:
        super().__init__()
        c = int(width * 64)
        d = max(round(depth * 3), 1)
        self.stem = Focus(3, c, k=3)
        self.dark2 = nn.Sequential(DWConv(c, c * 2, 3, 2), CSPLayer(c * 2, c * 2, n=d))
        self.dark3 = nn.Sequential(DWConv(c * 2, c * 4, 3, 2), CSPLayer(c * 4, c * 4, n=d * 3))
        self.dark4 = nn.Sequential(DWConv(c * 4, c * 8, 3, 2), CSPLayer(c * 8, c * 8, n=d * 3))
        self.dark5 = nn.Sequential(DWConv(c * 8, c * 16, 3, 2), SPPBottleneck(c * 16, c * 16),
                                   CSPLayer(c * 16, c * 16, n=d, shortcut=False))

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        x = self.dark2(self.stem(x))
        d3 = self.dark3(x)
        d4 = self.dark4(d3)
        return d3, d4, self.dark5(d4)


class YOLOPAFPN(nn.Module):
    def __init__(self, depth: float, width: float, in_channels: Sequence[int] = (256, 512, 1024)) -> None:
        super().__init__()
        c0, c1, c2 = (int(c * width) for c in in_channels)
        n = round(3 * depth)
        self.backbone = CSPDarknet(depth, width)
        self.upsample = nn.Upsample(scale_factor=2, mode="nearest")
        self.lateral_conv0 = BaseConv(c2, c1, 1, 1)
        self.C3_p4 = CSPLayer(2 * c1, c1, n, False)
        self.reduce_conv1 = BaseConv(c1, c0, 1, 1)
        self.C3_p3 = CSPLayer(2 * c0, c0, n, False)
        self.bu_conv2 = DWConv(c0, c0, 3, 2)
        self.C3_n3 = CSPLayer(2 * c0, c1, n, False)
        self.bu_conv1 = DWConv(c1, c1, 3, 2)
        self.C3_n4 = CSPLayer(2 * c1, c2, n, False)

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        x2, x1, x0 = self.backbone(x)
        fpn_out0 = self.lateral_conv0(x0)
        f_out0 = self.C3_p4(torch.cat([self.upsample(fpn_out0), x1], 1))
        fpn_out1 = self.reduce_conv1(f_out0)
        pan_out2 = self.C3_p3(torch.cat([self.upsample(fpn_out1), x2], 1))
        pan_out1 = self.C3_n3(torch.cat([self.bu_conv2(pan_out2), fpn_out1], 1))
        pan_out0 = self.C3_n4(torch.cat([self.bu_conv1(pan_out1), fpn_out0], 1))
        return pan_out2, pan_out1, pan_out0


class YOLOXHead(nn.Module):
    """Decoupled head (classification and box/objectness branches per level),
    with YOLOX's inference decoding: boxes (cx, cy, w, h) in input pixels,
    objectness and class scores after a sigmoid."""

    def __init__(self, num_classes: int, width: float, image_size: int,
                 strides: Sequence[int] = (8, 16, 32), in_channels: Sequence[int] = (256, 512, 1024)) -> None:
        super().__init__()
        hidden = int(256 * width)
        self.stems = nn.ModuleList()
        self.cls_convs = nn.ModuleList()
        self.reg_convs = nn.ModuleList()
        self.cls_preds = nn.ModuleList()
        self.reg_preds = nn.ModuleList()
        self.obj_preds = nn.ModuleList()
        for c in in_channels:
            self.stems.append(BaseConv(int(c * width), hidden, 1, 1))
            self.cls_convs.append(nn.Sequential(DWConv(hidden, hidden, 3), DWConv(hidden, hidden, 3)))
            self.reg_convs.append(nn.Sequential(DWConv(hidden, hidden, 3), DWConv(hidden, hidden, 3)))
            self.cls_preds.append(nn.Conv2d(hidden, num_classes, 1))
            self.reg_preds.append(nn.Conv2d(hidden, 4, 1))
            self.obj_preds.append(nn.Conv2d(hidden, 1, 1))
        grids, strides_t = [], []
        for s in strides:
            h = w = image_size // s
            yv, xv = torch.meshgrid([torch.arange(h), torch.arange(w)], indexing="ij")
            grids.append(torch.stack((xv, yv), 2).reshape(1, -1, 2).float())
            strides_t.append(torch.full((1, h * w, 1), float(s)))
        self.register_buffer("grids", torch.cat(grids, 1))
        self.register_buffer("strides", torch.cat(strides_t, 1))

    def forward(self, feats: Sequence[torch.Tensor]) -> torch.Tensor:
        outs = []
        for k, x in enumerate(feats):
            x = self.stems[k](x)
            cls_out = self.cls_preds[k](self.cls_convs[k](x))
            reg_feat = self.reg_convs[k](x)
            outs.append(torch.cat([self.reg_preds[k](reg_feat), self.obj_preds[k](reg_feat).sigmoid(),
                                   cls_out.sigmoid()], 1))
        out = torch.cat([o.flatten(start_dim=2) for o in outs], dim=2).permute(0, 2, 1)
        return torch.cat([(out[..., 0:2] + self.grids) * self.strides,
                          torch.exp(out[..., 2:4]) * self.strides, out[..., 4:]], dim=-1)


class YOLOX(nn.Module):
    def __init__(self, depth: float = 0.33, width: float = 0.25, num_classes: int = 80,
                 image_size: int = 416) -> None:
        super().__init__()
        self.backbone = YOLOPAFPN(depth, width)
        self.head = YOLOXHead(num_classes, width, image_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.backbone(x))


YOLOX_SIZE = 416


def export_yolox(out: str) -> List[Dict[str, Any]]:
    t0 = time.time()
    _seeded(SEED + 4)
    model = YOLOX(image_size=YOLOX_SIZE)
    export_models._randomize_bn_stats(model)
    model.eval()
    # YOLOX feeds raw 0..255 pixel values; a seeded image-like input.
    x = torch.rand(1, 3, YOLOX_SIZE, YOLOX_SIZE) * 255.0
    info = export_portable(model, (x,), os.path.join(out, "yolox_nano.pte"))
    params = sum(p.numel() for p in model.parameters())
    n_boxes = info["reference"].shape[1]
    dt = time.time() - t0
    print(f"yolox_nano: {info['instructions']} instructions, {params} parameters, {info['bytes']} B, "
          f"replay error {info['replay_max_abs_error']:.2g}; {dt:.1f} s", flush=True)
    return [{
        "id": "yolox_nano", "name": "YOLOX-nano (.pte, portable)", "file": "yolox_nano.pte", "format": "pte",
        "method": "forward",
        "description": f"The YOLOX-nano object detector's architecture (depth 0.33, width 0.25, depthwise "
                       f"convolutions: CSPDarknet backbone with a Focus stem and SPP, PAFPN neck, decoupled "
                       f"head with YOLOX's box decoding), written in plain PyTorch with seeded random weights "
                       f"({params / 1e6:.2f}M parameters), so its detections are not meaningful; "
                       f"{info['instructions']} instructions of portable kernels. Input: float32[1,3,{YOLOX_SIZE},"
                       f"{YOLOX_SIZE}] (0..255 pixel values); output: float32[1,{n_boxes},85] (box cx, cy, w, h "
                       f"in pixels, objectness, 80 class scores) for the {n_boxes} grid cells of strides 8, 16 "
                       f"and 32.",
        "input": {"kind": "zeros", "shape": [1, 3, YOLOX_SIZE, YOLOX_SIZE], "dtype": "float32"},
        "nodes": info["instructions"], "operators": info["operators"], "parameters": params,
    }]


# ---------------------------------------------------------------------------
# 5. A large program: >= 5,000 instructions

LARGE_BLOCKS = 1000
LARGE_WIDTH = 16


class ChainBlocks(nn.Module):
    """``LARGE_BLOCKS`` blocks of five ops on a [1, LARGE_WIDTH] vector:
    h <- h + 0.01 * tanh(h - c_i) * sigmoid(h). ``h`` feeds three ops of its
    block (the branch through tanh, the branch through sigmoid and the
    residual add), so the graph is a chain of diamonds, not a single line;
    the shifts c_i make the output of a zero input non-zero."""

    def __init__(self, blocks: int, width: int) -> None:
        super().__init__()
        self.shift = nn.Parameter(torch.rand(blocks, width) * 2 - 1)

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        for i in range(self.shift.shape[0]):
            gate = torch.tanh(h - self.shift[i]) * torch.sigmoid(h)
            h = torch.add(h, gate, alpha=0.01)
        return h


def export_large(out: str) -> List[Dict[str, Any]]:
    t0 = time.time()
    _seeded(SEED + 5)
    model = ChainBlocks(LARGE_BLOCKS, LARGE_WIDTH).eval()
    x = torch.randn(1, LARGE_WIDTH)
    info = export_portable(model, (x,), os.path.join(out, "large_5000.pte"))
    dt = time.time() - t0
    print(f"large_5000: {info['instructions']} instructions {info['operators']}, {info['bytes']} B; {dt:.1f} s",
          flush=True)
    if info["instructions"] < 5000:
        raise SystemExit(f"large_5000: only {info['instructions']} instructions")
    return [{
        "id": "large_5000", "name": "Large graph (5,000 instructions)", "file": "large_5000.pte", "format": "pte",
        "method": "forward",
        "description": f"A stress test for the graph view: {LARGE_BLOCKS} blocks of h <- h + 0.01 * tanh(h - c) * "
                       f"sigmoid(h) on a float32[1,{LARGE_WIDTH}] vector, each block five portable kernels "
                       f"(sub, tanh, sigmoid, mul, add) with h read by three of them, "
                       f"{info['instructions']} instructions in all, seeded random constants c.",
        "input": {"kind": "zeros", "shape": [1, LARGE_WIDTH], "dtype": "float32"},
        "nodes": info["instructions"], "operators": info["operators"],
    }]


# ---------------------------------------------------------------------------

SAMPLES: Dict[str, Callable[..., Any]] = {
    "digits": export_digits,
    "mobilenet_v2_xnnpack": export_mobilenet,
    "fib": export_fib,
    "yolox_nano": export_yolox,
    "large_5000": export_large,
}


def run_in_runtime(out: str, entry: Dict[str, Any]) -> None:
    """``node bin/trident.mjs run`` on one sample (``--bundled`` for the .bpte), on its
    stored sample inputs (.pt2), a zero tensor, or nothing (the MLIR program)."""
    import tempfile
    cli = os.path.join(REPO, "bin", "trident.mjs")
    path = os.path.join(out, entry["file"])
    with tempfile.TemporaryDirectory(prefix="samples_run_") as tmp:
        cmd = ["node", cli, "run", path, "--json"]
        if entry["format"] == "bpte":
            cmd = ["node", cli, "run", path, "--bundled"]
        elif entry["format"] == "pte":
            zeros = os.path.join(tmp, "zeros.npy")
            np.save(zeros, np.zeros(entry["input"]["shape"], dtype=np.float32))
            cmd += ["--input", zeros]
        t0 = time.time()
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{entry['file']}: the runtime failed: {(r.stderr or r.stdout).strip()[-2000:]}")
    if entry["format"] == "mlir":
        printed = json.loads(r.stdout).get("printed")
        if printed != entry["expectPrinted"]:
            raise SystemExit(f"fib.mlir printed {printed!r}, expected {entry['expectPrinted']!r}")
    print(f"  runtime: {entry['file']} ok ({time.time() - t0:.1f} s)", flush=True)


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(REPO, "build", "samples"))
    ap.add_argument("--models", default=os.path.join(REPO, "build", "models"),
                    help="where mobilenet_v2_xnnpack.pte is (exported there if missing)")
    ap.add_argument("--only", nargs="*", choices=sorted(SAMPLES), default=None)
    ap.add_argument("--run", action="store_true", help="also run each sample with the wasm runtime's CLI")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)  # reproducible reductions (and training)
    os.makedirs(args.out, exist_ok=True)
    t_all = time.time()
    index_path = os.path.join(args.out, "index.json")
    old: Dict[str, Any] = {}
    if args.only and os.path.exists(index_path):
        with open(index_path) as f:
            old = json.load(f)
    samples: List[Dict[str, Any]] = []
    digits: Any = old.get("digits")
    times: Dict[str, float] = {}
    for name, fn in SAMPLES.items():
        if args.only and name not in args.only:
            samples += [e for e in old.get("samples", []) if e.get("group", e["id"]) == name]
            continue
        t0 = time.time()
        if name == "digits":
            entries, digits = fn(args.out)
        elif name == "mobilenet_v2_xnnpack":
            entries = fn(args.out, args.models)
        else:
            entries = fn(args.out)
        times[name] = time.time() - t0
        for e in entries:
            e["group"] = name
            e.update(_file_info(os.path.join(args.out, e["file"])))
        samples += entries
    index = {"samples": samples, "digits": digits, "torch": torch.__version__}
    with open(index_path, "w") as f:
        json.dump(index, f, indent=2)
        f.write("\n")
    if args.run:
        for e in samples:
            run_in_runtime(args.out, e)
    print("export times: " + ", ".join(f"{k} {v:.1f} s" for k, v in times.items())
          + f"; total {time.time() - t_all:.1f} s -> {os.path.relpath(index_path, REPO)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
