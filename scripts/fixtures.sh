#!/usr/bin/env bash
# Exports the real models (torchvision mobilenet_v2 and resnet18, a transformer
# encoder layer, a tiny MLP, and their XNNPACK-delegated forms with an int8
# CNN, a qdint8 MLP and an op zoo) to build/models/: .pte, ONNX twin, seeded input,
# eager PyTorch output, metadata (tools/export/models/README.md), and a tiny
# llama LLM in export_llama's layout (tools/export/llm/README.md), a bounded-dynamic
# transformer over frames (tools/export/dynamic/README.md); and the
# portable ones as .pt2 archives to build/pt2/ (tools/export/pt2/README.md); then
# the web viewer's samples to build/samples/ (tools/export/samples/README.md). Needs
# Debian's /usr/bin/python3 with python3-torch, python3-torchvision, python3-onnx and
# python3-sklearn (scripts/setup.sh installs them) and flatc. Seeded: the same torch
# writes the same bytes. Fails (exit != 0) on any error; each of build/models,
# build/pt2 and build/samples is replaced only when all of it exported and checked.
#
#   bash scripts/fixtures.sh                 # all models
#   bash scripts/fixtures.sh --only resnet18 # some (updates build/models in place)
set -euo pipefail
cd "$(dirname "$0")/.."

PY=/usr/bin/python3
if ! "$PY" -c 'import torch, torchvision, onnx, numpy, sklearn' 2>/dev/null; then
  echo "fixtures: $PY cannot import torch, torchvision, onnx, numpy and sklearn; run 'bash scripts/setup.sh'" >&2
  exit 1
fi
if ! command -v flatc >/dev/null; then
  echo "fixtures: flatc is missing; run 'bash scripts/setup.sh'" >&2
  exit 1
fi

out=build/models
if [ "$#" -gt 0 ]; then
  exec "$PY" tools/export/models/export_models.py --out "$out" "$@"
fi
tmp=build/models.partial
rm -rf "$tmp"
"$PY" tools/export/models/export_models.py --out "$tmp"
# A tiny llama as ExecuTorch's export_llama writes it (KV caches in mutable buffers,
# llama:: custom ops, metadata methods), with and without dynamic shape, and eager
# PyTorch's greedy decoding next to each (tools/export/llm/README.md).
"$PY" tools/export/llm/export_llama.py --out "$tmp"
"$PY" tools/export/llm/export_llama.py --out "$tmp" --disable-dynamic-shape
# The same llama as export_llama -X --qmode 8da4w writes it: every linear an
# XNNPACK delegate (qdint8 activations x qbint4 weights, bf16 block scales).
"$PY" tools/export/llm/export_llama.py --out "$tmp" --linear xnnpack-8da4w
"$PY" tools/export/llm/export_llama.py --out "$tmp" --linear xnnpack-8da4w --disable-dynamic-shape
# A transformer over T <= 5000 frames (and T <= 8192, a 2 GB plan at the bound)
# with bounded-dynamic shapes, planned at the bound as ExecuTorch plans it, and
# eager outputs at T = 8, 60 and 500 (tools/export/dynamic/README.md).
"$PY" tools/export/dynamic/export_frames_transformer.py --out "$tmp"
"$PY" tools/export/dynamic/export_frames_transformer.py --out "$tmp" --max-frames 8192 --name frames_transformer_8k
rm -rf "$out"
mv "$tmp" "$out"
echo "fixtures: wrote $out/"

# The same models (and two small ones with buffer mutations and shared
# storages) as .pt2 archives in every layout torch writes
# (tools/export/pt2/README.md); each archive is read back and checked.
pt2=build/pt2
"$PY" tools/export/pt2/export_pt2.py --out "$pt2.partial" >/dev/null
rm -rf "$pt2"
mv "$pt2.partial" "$pt2"
echo "fixtures: wrote $pt2/"

# The web viewer's samples and their manifest index.json (tools/export/samples/README.md):
# a digit recognizer trained on scikit-learn's 8x8 digits (.pte, XNNPACK .pte, .pt2 with
# sample inputs, .bpte with bundled tests), mobilenet_v2_xnnpack.pte copied from
# build/models with the ImageNet labels, fib.mlir (TFRT), yolox_nano.pte and large_5000.pte.
samples=build/samples
rm -rf "$samples.partial"
"$PY" tools/export/samples/export_samples.py --out "$samples.partial" --models "$out"
rm -rf "$samples"
mv "$samples.partial" "$samples"
echo "fixtures: wrote $samples/"
